// The "adm" extractor's interface: libvmaf 3.2.0's options (names, aliases,
// types, defaults, ranges, FEATURE_PARAM flags), provided features, output
// order with and without debug, and the option effects.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {
namespace {

struct OrderedSink final : FeatureSink {
    std::vector<std::pair<std::string, double>> values;
    void append(std::string_view key, unsigned, double value) override {
        values.emplace_back(std::string(key), value);
    }
    std::vector<std::string> keys() const {
        std::vector<std::string> k;
        for (const auto& kv : values) k.push_back(kv.first);
        return k;
    }
    double get(const std::string& key) const {
        for (const auto& [k, v] : values)
            if (k == key) return v;
        ADD_FAILURE() << "no key " << key;
        return std::nan("");
    }
};

const FeatureInfo& adm_info() {
    const FeatureInfo* info = find_feature("adm");
    if (!info) throw std::runtime_error("adm not registered");
    return *info;
}

Picture textured(int w, int h, unsigned seed, int amplitude) {
    Picture p(w, h, 8, PixelFormat::yuv420);
    std::mt19937 rng(seed);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int base = 128 + static_cast<int>(60 * std::sin(x * 0.21) * std::cos(y * 0.13));
            const int noise = amplitude ? static_cast<int>(rng() % (2 * amplitude + 1)) - amplitude : 0;
            p.planes[0].row<std::uint8_t>(y)[x] =
                static_cast<std::uint8_t>(std::clamp(base + noise, 0, 255));
        }
    return p;
}

OrderedSink run(const std::vector<std::pair<std::string, std::string>>& opts, const Picture& ref,
                const Picture& dis) {
    OptionValues v(adm_info().options);
    for (const auto& [k, val] : opts) v.set(k, val);
    auto fex = adm_info().create(v, FrameGeometry{ref.width, ref.height, ref.bpc, ref.format});
    OrderedSink sink;
    fex->extract(ref, dis, 0, sink);
    return sink;
}

TEST(AdmExtractor, OptionsMatchLibvmaf) {
    struct Expect {
        const char* name;
        const char* alias;
        OptionType type;
        double def, min, max;
        bool feature_param;
    };
    const Expect expected[] = {
        {"debug", "", OptionType::boolean, 0, 0, 1, false},
        {"adm_csf_scale", "scf", OptionType::number, 1.0, 0.0, 50.0, true},
        {"adm_csf_diag_scale", "scfd", OptionType::number, 1.0, 0.0, 50.0, true},
        {"adm_dlm_weight", "dlmw", OptionType::number, 0.5, 0.0, 1.0, true},
        {"adm_enhn_gain_limit", "egl", OptionType::number, 100.0, 1.0, 100.0, true},
        {"adm_norm_view_dist", "nvd", OptionType::number, 3.0, 0.75, 24.0, true},
        {"adm_ref_display_height", "rdh", OptionType::integer, 1080, 1, 4320, true},
        {"adm_csf_mode", "csf", OptionType::integer, 0, 0, 3, true},
        {"adm_noise_weight", "nw", OptionType::number, 0.03125, 0.0, 1500.0, true},
        {"adm_skip_aim", "", OptionType::boolean, 0, 0, 1, false},
        {"adm_skip_scale0", "ssz", OptionType::boolean, 0, 0, 1, true},
        {"adm_min_val", "min", OptionType::number, 0.0, 0.0, 1.0, true},
    };
    const auto& specs = adm_info().options;
    ASSERT_EQ(specs.size(), std::size(expected));
    for (std::size_t i = 0; i < specs.size(); ++i) {
        EXPECT_EQ(specs[i].name, expected[i].name);
        EXPECT_EQ(specs[i].alias, expected[i].alias) << expected[i].name;
        EXPECT_EQ(specs[i].type, expected[i].type) << expected[i].name;
        EXPECT_EQ(specs[i].default_value, expected[i].def) << expected[i].name;
        if (expected[i].type != OptionType::boolean) {
            EXPECT_EQ(specs[i].min_value, expected[i].min) << expected[i].name;
            EXPECT_EQ(specs[i].max_value, expected[i].max) << expected[i].name;
        }
        EXPECT_EQ(specs[i].feature_param, expected[i].feature_param) << expected[i].name;
    }
    OptionValues v(specs);
    EXPECT_THROW(v.set("adm_enhn_gain_limit", "0.5"), Error);
    EXPECT_THROW(v.set("adm_csf_mode", "4"), Error);
    EXPECT_THROW(v.set("adm_ref_display_height", "4321"), Error);
}

TEST(AdmExtractor, ProvidedFeaturesAndAliases) {
    const std::vector<std::string> expected = {
        "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_aim_score",
        "VMAF_integer_feature_adm3_score", "integer_adm_scale0", "integer_adm_scale1",
        "integer_adm_scale2", "integer_adm_scale3", "integer_adm", "integer_adm_num",
        "integer_adm_den", "integer_adm_num_scale0", "integer_adm_den_scale0",
        "integer_adm_num_scale1", "integer_adm_den_scale1", "integer_adm_num_scale2",
        "integer_adm_den_scale2", "integer_adm_num_scale3", "integer_adm_den_scale3"};
    std::vector<std::string> names;
    for (const auto& p : adm_info().provided) names.push_back(p.name);
    EXPECT_EQ(names, expected);
    // libvmaf's aliases are the keys written for the first three.
    const OptionValues defaults(adm_info().options);
    EXPECT_EQ(adm_info().key(defaults, "VMAF_integer_feature_adm2_score"), "integer_adm2");
    EXPECT_EQ(adm_info().key(defaults, "VMAF_integer_feature_aim_score"), "integer_aim");
    EXPECT_EQ(adm_info().key(defaults, "VMAF_integer_feature_adm3_score"), "integer_adm3");
    EXPECT_EQ(adm_info().key(defaults, "integer_adm_scale2"), "integer_adm_scale2");
    EXPECT_FALSE(adm_info().temporal);
    EXPECT_EQ(find_feature_providing("VMAF_integer_feature_adm2_score"), &adm_info());
    EXPECT_EQ(find_feature_providing("integer_adm3"), &adm_info());
}

TEST(AdmExtractor, OutputOrderWithAndWithoutDebug) {
    const Picture ref = textured(96, 64, 1, 0), dis = textured(96, 64, 2, 12);
    const OrderedSink plain = run({}, ref, dis);
    const std::vector<std::string> main_keys = {
        "integer_adm2",       "integer_aim",        "integer_adm3",      "integer_adm_scale0",
        "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3"};
    EXPECT_EQ(plain.keys(), main_keys);

    const OrderedSink dbg = run({{"debug", "true"}}, ref, dis);
    std::vector<std::string> debug_keys = main_keys;
    for (const char* k : {"integer_adm", "integer_adm_num", "integer_adm_den"}) debug_keys.push_back(k);
    for (int s = 0; s < 4; ++s) {
        debug_keys.push_back("integer_adm_num_scale" + std::to_string(s));
        debug_keys.push_back("integer_adm_den_scale" + std::to_string(s));
    }
    EXPECT_EQ(dbg.keys(), debug_keys);  // debug is not a feature parameter: no suffix
    for (std::size_t i = 0; i < plain.values.size(); ++i)
        EXPECT_EQ(plain.values[i].second, dbg.values[i].second);
    EXPECT_EQ(dbg.get("integer_adm"), dbg.get("integer_adm2"));
    EXPECT_EQ(dbg.get("integer_adm2"), dbg.get("integer_adm_num") / dbg.get("integer_adm_den"));
    for (int s = 0; s < 4; ++s) {
        const std::string n = std::to_string(s);
        EXPECT_EQ(dbg.get("integer_adm_scale" + n),
                  dbg.get("integer_adm_num_scale" + n) / dbg.get("integer_adm_den_scale" + n));
    }
    EXPECT_EQ(dbg.get("integer_adm3"),
              std::max(dbg.get("integer_adm2") * 0.5 + (1 - dbg.get("integer_aim")) * 0.5, 0.0));
}

TEST(AdmExtractor, FeatureParametersSuffixKeys) {
    const Picture ref = textured(64, 48, 1, 0), dis = textured(64, 48, 2, 8);
    EXPECT_EQ(run({{"adm_enhn_gain_limit", "1.2"}}, ref, dis).keys()[0], "integer_adm2_egl_1.2");
    EXPECT_EQ(run({{"adm_enhn_gain_limit", "1"}}, ref, dis).keys()[0], "integer_adm2_egl_1");
    EXPECT_EQ(run({{"adm_csf_mode", "1"}}, ref, dis).keys()[3], "integer_adm_scale0_csf_1");
    EXPECT_EQ(run({{"adm_skip_aim", "true"}}, ref, dis).keys()[1], "integer_aim");
}

TEST(AdmExtractor, SkipOptions) {
    const Picture ref = textured(64, 48, 1, 0), dis = textured(64, 48, 2, 8);
    const OrderedSink base = run({}, ref, dis);
    const OrderedSink no_aim = run({{"adm_skip_aim", "true"}}, ref, dis);
    EXPECT_EQ(no_aim.get("integer_aim"), 0.0);
    EXPECT_EQ(no_aim.get("integer_adm2"), base.get("integer_adm2"));
    EXPECT_EQ(no_aim.get("integer_adm3"), base.get("integer_adm2") * 0.5 + 0.5);

    const OrderedSink no_s0 = run({{"adm_skip_scale0", "true"}}, ref, dis);
    const std::string sfx = no_s0.keys()[0].substr(std::string("integer_adm2").size());
    EXPECT_FALSE(sfx.empty());
    EXPECT_EQ(no_s0.get("integer_adm_scale0" + sfx), 0.0);
    // Scales 1-3 see the same approximation band either way.
    for (int s = 1; s < 4; ++s) {
        const std::string n = std::to_string(s);
        EXPECT_EQ(no_s0.get("integer_adm_scale" + n + sfx), base.get("integer_adm_scale" + n));
    }
}

TEST(AdmExtractor, CsfModesAndViewingConditions) {
    const Picture ref = textured(64, 48, 1, 0), dis = textured(64, 48, 2, 8);
    const double watson = run({}, ref, dis).values[0].second;
    for (const char* mode : {"2", "3"}) {
        const OrderedSink s = run({{"adm_csf_mode", mode}}, ref, dis);
        for (const auto& [k, v] : s.values) EXPECT_TRUE(std::isfinite(v)) << mode << " " << k;
        EXPECT_NE(s.values[0].second, watson) << mode;
    }
    // Barten: libvmaf's factors exceed 1 (1.2 at scale 0, 27 at scale 3), so
    // its Q21/Q32 fixed-point factors overflow and the scores can be NaN.
    // vmafpp reproduces the x86-64 conversions; the result is deterministic.
    const OrderedSink b1 = run({{"adm_csf_mode", "1"}}, ref, dis);
    const OrderedSink b2 = run({{"adm_csf_mode", "1"}}, ref, dis);
    ASSERT_EQ(b1.values.size(), 7u);
    for (std::size_t i = 0; i < b1.values.size(); ++i)
        EXPECT_TRUE(std::isnan(b1.values[i].second) ? std::isnan(b2.values[i].second)
                                                     : b1.values[i].second == b2.values[i].second);
    EXPECT_NO_THROW(run({{"adm_csf_mode", "2"}, {"adm_ref_display_height", "2160"}}, ref, dis));
    EXPECT_NO_THROW(run({{"adm_csf_mode", "3"}, {"adm_norm_view_dist", "5"}}, ref, dis));
    // No blend table for 1440 lines: libvmaf would score NaN.
    EXPECT_THROW(run({{"adm_csf_mode", "2"}, {"adm_ref_display_height", "1440"}}, ref, dis), Error);
    // libvmaf refuses to extract below 3 H at 1080 lines.
    EXPECT_THROW(run({{"adm_norm_view_dist", "2"}}, ref, dis), Error);
    EXPECT_NO_THROW(run({{"adm_norm_view_dist", "6"}, {"adm_ref_display_height", "540"}}, ref, dis));
    // Barten with a large scale overflows libvmaf's uint16 factor; still defined.
    const OrderedSink big = run({{"adm_csf_mode", "1"}, {"adm_csf_scale", "50"}}, ref, dis);
    EXPECT_EQ(big.values.size(), 7u);
}

TEST(AdmExtractor, ZeroDenominatorAndMinValue) {
    Picture flat(48, 48, 8, PixelFormat::yuv420);
    for (int y = 0; y < 48; ++y)
        for (int x = 0; x < 48; ++x) flat.planes[0].row<std::uint8_t>(y)[x] = 100;
    const OrderedSink s = run({{"adm_noise_weight", "0"}}, flat, flat);
    EXPECT_EQ(s.get("integer_adm2_nw_0"), 1.0);
    EXPECT_EQ(s.get("integer_aim_nw_0"), 0.0);
    EXPECT_EQ(s.get("integer_adm3_nw_0"), 1.0);

    const Picture ref = textured(64, 48, 1, 0), dis = textured(64, 48, 2, 40);
    const OrderedSink m = run({{"adm_min_val", "1"}}, ref, dis);
    EXPECT_EQ(m.get("integer_adm3_min_1"), 1.0);
}

}  // namespace
}  // namespace vmafpp
