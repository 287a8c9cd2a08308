// Integer VIF: libvmaf 3.2.0 goldens bit for bit, options, key names, sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "vif/vif_kernels.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {
namespace {

using test::RecordingSink;

const char* const kScaleKeys[] = {"integer_vif_scale0", "integer_vif_scale1",
                                  "integer_vif_scale2", "integer_vif_scale3"};

// Compares every frame of `golden_file` for the keys kScaleKeys + suffix.
void expect_golden(const std::string& pair, const std::string& golden_file,
                   const RecordingSink& got, const std::string& suffix) {
    const auto golden = test::golden(pair, golden_file);
    const auto& frames = golden["frames"];
    ASSERT_GT(frames.size(), 0u);
    for (const char* base : kScaleKeys) {
        const std::string key = std::string(base) + suffix;
        const auto it = got.values.find(key);
        ASSERT_NE(it, got.values.end()) << key;
        EXPECT_EQ(it->second.size(), frames.size()) << key;
        for (const auto& f : frames) {
            const unsigned n = f["frameNum"].get<unsigned>();
            const auto v = it->second.find(n);
            ASSERT_NE(v, it->second.end()) << key << " frame " << n;
            EXPECT_EQ(v->second, f["metrics"][key].get<double>()) << pair << " " << key
                                                                 << " frame " << n;
        }
    }
}

class VifGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(VifGolden, DefaultJsonScalesBitExact) {
    const std::string pair = GetParam();
    const RecordingSink got = test::run_pair(pair, "vif");
    EXPECT_EQ(got.order, (std::vector<std::string>(std::begin(kScaleKeys), std::end(kScaleKeys))));
    EXPECT_TRUE(got.duplicates.empty());
    expect_golden(pair, "default.json", got, "");
}

INSTANTIATE_TEST_SUITE_P(Corpus, VifGolden, ::testing::ValuesIn(test::target_pairs()),
                         [](const auto& info) { return info.param.substr(0, 3); });

// vmaf_v0.6.1neg sets vif_enhn_gain_limit=1.0: keys gain "_egl_1".
class VifNegModel : public ::testing::TestWithParam<std::string> {};

TEST_P(VifNegModel, GainLimitOneBitExact) {
    const std::string pair = GetParam();
    const RecordingSink got = test::run_pair(pair, "vif", {{"vif_enhn_gain_limit", "1.0"}});
    expect_golden(pair, "model_vmaf_v0.6.1neg.json", got, "_egl_1");
}

std::vector<std::string> neg_pairs() {
    std::vector<std::string> out;
    for (const auto& p : test::target_pairs())
        if (test::has_golden(p, "model_vmaf_v0.6.1neg.json")) out.push_back(p);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Corpus, VifNegModel, ::testing::ValuesIn(neg_pairs()),
                         [](const auto& info) { return info.param.substr(0, 3); });

TEST(VifNegModel, CoversTheThreePairs) { EXPECT_EQ(neg_pairs().size(), 3u); }

// --- synthetic pictures -----------------------------------------------------

Picture noise_picture(int w, int h, int bpc, std::uint32_t seed, int max_value = -1) {
    Picture p(w, h, bpc, PixelFormat::yuv400);
    std::mt19937 rng(seed);
    const int top = max_value < 0 ? (1 << bpc) - 1 : max_value;
    std::uniform_int_distribution<int> dist(0, top);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            // Smooth ramp plus noise, so both VIF branches (flat and
            // textured neighbourhoods) are taken.
            const int v = std::min(top, (x * 7 + y * 3) % (top + 1) / 2 + dist(rng) / 2);
            if (bpc == 8)
                p.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            else
                p.planes[0].row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
        }
    return p;
}

RecordingSink run_once(const Picture& ref, const Picture& dis,
                       const std::vector<std::pair<std::string, std::string>>& set = {}) {
    const FeatureInfo* info = find_feature("vif");
    auto fex = info->create(test::options_for(*info, set),
                            FrameGeometry{ref.width, ref.height, ref.bpc, ref.format});
    RecordingSink sink;
    fex->extract(ref, dis, 0, sink);
    fex->flush(sink);
    return sink;
}

TEST(Vif, RegisteredWithLibvmafOptions) {
    const FeatureInfo* info = find_feature("vif");
    ASSERT_NE(info, nullptr);
    EXPECT_FALSE(info->temporal);
    EXPECT_EQ(find_feature_providing("integer_vif_scale2"), info);
    EXPECT_EQ(find_feature_providing("VMAF_integer_feature_vif_scale0_score"), info);
    OptionValues o(info->options);
    EXPECT_EQ(o.number("vif_enhn_gain_limit"), 100.0);
    EXPECT_FALSE(o.flag("vif_skip_scale0"));
    EXPECT_FALSE(o.flag("debug"));
    EXPECT_THROW(o.set("vif_enhn_gain_limit", "0.99"), Error);
    EXPECT_THROW(o.set("vif_enhn_gain_limit", "100.5"), Error);
    o.set("debug", "true");  // not a feature parameter: no suffix
    EXPECT_EQ(o.key("VMAF_integer_feature_vif_scale0_score"), "integer_vif_scale0");
    o.set("vif_skip_scale0", "true");
    o.set("vif_enhn_gain_limit", "1.5");
    EXPECT_EQ(o.key("VMAF_integer_feature_vif_scale1_score"), "integer_vif_scale1_egl_1.5_ssclz");
}

TEST(Vif, DebugKeysInLibvmafOrderAndConsistent) {
    const Picture ref = noise_picture(64, 48, 8, 1);
    const Picture dis = noise_picture(64, 48, 8, 2);
    const RecordingSink got = run_once(ref, dis, {{"debug", "true"}});
    const std::vector<std::string> expected = {
        "integer_vif_scale0",     "integer_vif_scale1",     "integer_vif_scale2",
        "integer_vif_scale3",     "integer_vif",            "integer_vif_num",
        "integer_vif_den",        "integer_vif_num_scale0", "integer_vif_den_scale0",
        "integer_vif_num_scale1", "integer_vif_den_scale1", "integer_vif_num_scale2",
        "integer_vif_den_scale2", "integer_vif_num_scale3", "integer_vif_den_scale3"};
    ASSERT_EQ(got.order, expected);
    auto v = [&](const std::string& k) { return got.values.at(k).at(0); };
    double num = 0, den = 0;
    for (int s = 0; s < 4; ++s) {
        const std::string n = std::to_string(s);
        const float fn = static_cast<float>(v("integer_vif_num_scale" + n));
        const float fd = static_cast<float>(v("integer_vif_den_scale" + n));
        // The stored values are floats; the score is their float quotient.
        EXPECT_EQ(static_cast<double>(fn), v("integer_vif_num_scale" + n));
        EXPECT_EQ(v("integer_vif_scale" + n), static_cast<double>(fn / fd));
        num += fn;
        den += fd;
    }
    EXPECT_EQ(v("integer_vif_num"), num);
    EXPECT_EQ(v("integer_vif_den"), den);
    EXPECT_EQ(v("integer_vif"), num / den);
    // Without debug the scale values are the same.
    const RecordingSink plain = run_once(ref, dis);
    for (const char* k : kScaleKeys) EXPECT_EQ(plain.values.at(k).at(0), v(k)) << k;
}

TEST(Vif, SkipScale0WritesZeroAndKeepsOtherScales) {
    const Picture ref = noise_picture(80, 40, 10, 3);
    const Picture dis = noise_picture(80, 40, 10, 4);
    const RecordingSink plain = run_once(ref, dis);
    const RecordingSink skip =
        run_once(ref, dis, {{"vif_skip_scale0", "true"}, {"debug", "true"}});
    EXPECT_EQ(skip.values.at("integer_vif_scale0_ssclz").at(0), 0.0);
    for (int s = 1; s < 4; ++s)
        EXPECT_EQ(skip.values.at(std::string(kScaleKeys[s]) + "_ssclz").at(0),
                  plain.values.at(kScaleKeys[s]).at(0));
    EXPECT_EQ(skip.values.at("integer_vif_num_scale0_ssclz").at(0), 0.0);
    EXPECT_EQ(skip.values.at("integer_vif_den_scale0_ssclz").at(0), -1.0);
    const double num = (static_cast<double>(static_cast<float>(
                            skip.values.at("integer_vif_num_scale1_ssclz").at(0))) +
                        skip.values.at("integer_vif_num_scale2_ssclz").at(0)) +
                       skip.values.at("integer_vif_num_scale3_ssclz").at(0);
    EXPECT_EQ(skip.values.at("integer_vif_num_ssclz").at(0), num);
}

TEST(Vif, GainLimitOnlyLowersEnhancedScores) {
    // A distorted picture with more contrast than the reference: the gain
    // limit of 1 must lower the scores, the default must leave them > 1.
    Picture ref = noise_picture(96, 64, 8, 5, 120);
    Picture dis(96, 64, 8, PixelFormat::yuv400);
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 96; ++x)
            dis.planes[0].row<std::uint8_t>(y)[x] =
                static_cast<std::uint8_t>(2 * ref.planes[0].row<std::uint8_t>(y)[x]);
    const RecordingSink def = run_once(ref, dis);
    const RecordingSink egl = run_once(ref, dis, {{"vif_enhn_gain_limit", "1"}});
    EXPECT_GT(def.values.at("integer_vif_scale0").at(0), 1.0);
    EXPECT_LT(egl.values.at("integer_vif_scale0_egl_1").at(0),
              def.values.at("integer_vif_scale0").at(0));
}

TEST(Vif, MinimumSizeIs16x16) {
    const FeatureInfo* info = find_feature("vif");
    const OptionValues o(info->options);
    for (auto [w, h] : {std::pair{15, 16}, std::pair{16, 15}, std::pair{8, 300}}) {
        try {
            info->create(o, FrameGeometry{w, h, 8, PixelFormat::yuv420});
            ADD_FAILURE() << w << "x" << h << " accepted";
        } catch (const Error& e) {
            EXPECT_EQ(std::string(e.what()), "vif: picture " + std::to_string(w) + "x" +
                                                 std::to_string(h) +
                                                 " is too small, the minimum is 16x16");
        }
    }
    EXPECT_NO_THROW(info->create(o, FrameGeometry{16, 16, 8, PixelFormat::yuv420}));
}

// The smallest and some odd sizes, every bit depth, extreme and random
// content: finite and repeatable (and, under the sanitizers, free of
// out-of-bounds and uninitialised reads).
TEST(Vif, SmallOddSizesAllDepthsAreFiniteAndRepeatable) {
    for (int bpc : {8, 10, 12, 16})
        for (auto [w, h] : {std::pair{16, 16}, std::pair{17, 23}, std::pair{33, 16},
                            std::pair{16, 41}, std::pair{300, 19}}) {
            const Picture ref = noise_picture(w, h, bpc, 10u + w);
            const Picture dis = noise_picture(w, h, bpc, 20u + h);
            const RecordingSink a = run_once(ref, dis, {{"debug", "true"}});
            const RecordingSink b = run_once(ref, dis, {{"debug", "true"}});
            for (const auto& [k, m] : a.values) {
                EXPECT_TRUE(std::isfinite(m.at(0))) << k << " " << w << "x" << h << " " << bpc;
                EXPECT_EQ(m.at(0), b.values.at(k).at(0)) << k;
            }
        }
}

TEST(Vif, ExtremeSamplesDoNotOverflow) {
    // Maximum-contrast checkerboards against flat pictures at every depth:
    // the largest sums each accumulator can see.
    for (int bpc : {8, 10, 12, 16}) {
        const int top = (1 << bpc) - 1;
        Picture a(40, 40, bpc, PixelFormat::yuv400), b(40, 40, bpc, PixelFormat::yuv400);
        for (int y = 0; y < 40; ++y)
            for (int x = 0; x < 40; ++x) {
                const int va = ((x ^ y) & 1) ? top : 0;
                if (bpc == 8) {
                    a.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(va);
                    b.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(top);
                } else {
                    a.planes[0].row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(va);
                    b.planes[0].row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(top);
                }
            }
        for (const Picture* r : {&a, &b})
            for (const Picture* d : {&a, &b}) {
                const RecordingSink s = run_once(*r, *d, {{"debug", "true"}});
                for (const auto& [k, m] : s.values)
                    EXPECT_FALSE(std::isnan(m.at(0))) << k << " bpc " << bpc;
            }
        // A picture against itself has no loss of information.
        const RecordingSink same = run_once(a, a);
        for (const char* k : kScaleKeys) EXPECT_GE(same.values.at(k).at(0), 0.99) << k;
    }
}

TEST(VifKernels, Log2TableMatchesItsDefinition) {
    const std::uint16_t* t = vif::vif_log2_table();
    EXPECT_EQ(t[0], 15 * 2048);             // log2(32768)
    EXPECT_EQ(t[65535 - 32768], 32768);     // log2(65535) * 2048 = 32767.96
    for (int v = 32769; v < 65536; ++v) ASSERT_GE(t[v - 32768], t[v - 32769]) << v;
}

}  // namespace
}  // namespace vmafpp
