// float_ssim and float_ms_ssim: every float_ssim* / float_ms_ssim* value of
// libvmaf 3.2.0's features_other.json (default options) and
// features_other_opts.json (enable_lcs=true) on every target pair, bit for
// bit; and behaviour outside the corpus: identical pictures, bit depths,
// chroma formats, odd sizes, the size limits, the keys and the dB options.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "support/feature_run.hpp"
#include "support/score_runs.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/options.hpp"
#include "vmafpp/picture.hpp"

namespace vmafpp {
namespace {

using test::g17;

// The keys extractor `name` writes: `name` and `name`_<component>.
bool written_by(const std::string& name, const std::string& key) {
    return key == name || key.rfind(name + "_", 0) == 0;
}

// Every value of extractor `name` of every frame of the golden file against
// what the run wrote, compared as doubles. Returns how many.
int expect_ssim_golden(const std::string& pair, const std::string& file, const std::string& name,
                       const test::RecordingSink& got) {
    const auto golden = test::golden(pair, file);
    int compared = 0;
    for (const auto& f : golden["frames"]) {
        const unsigned n = f["frameNum"];
        for (const auto& [key, value] : f["metrics"].items()) {
            if (!written_by(name, key)) continue;
            const auto k = got.values.find(key);
            if (k == got.values.end() || !k->second.count(n)) {
                ADD_FAILURE() << pair << ": " << key << " frame " << n << " not written";
                continue;
            }
            const double have = k->second.at(n);
            const double want = value.get<double>();
            EXPECT_EQ(have, want) << pair << ": " << key << " frame " << n << ": got " << g17(have)
                                  << " want " << g17(want);
            ++compared;
        }
    }
    // Nothing written that the golden lacks.
    for (const auto& [key, frames] : got.values)
        EXPECT_TRUE(golden["frames"][0]["metrics"].contains(key)) << pair << ": extra key " << key;
    return compared;
}

bool golden_has(const std::string& pair, const std::string& file, const std::string& key) {
    return test::golden(pair, file)["frames"][0]["metrics"].contains(key);
}

// The extractors a golden file holds values of (float_ms_ssim fails below
// 176x176, so those pairs have float_ssim only).
std::vector<std::string> extractors_in(const std::string& pair, const std::string& file) {
    std::vector<std::string> out;
    for (const char* name : {"float_ssim", "float_ms_ssim"})
        if (golden_has(pair, file, name)) out.push_back(name);
    return out;
}

class SsimGolden : public ::testing::TestWithParam<std::string> {};

// The levels with their own SSIM kernels: scalar, AVX2 and AVX-512 (whose
// twins the ICL level inherits), those the CPU has.
std::vector<SimdLevel> ssim_levels() {
    std::vector<SimdLevel> out{SimdLevel::scalar};
    for (const SimdLevel level : {SimdLevel::avx2, SimdLevel::avx512}) {
        const unsigned need = simd_level_flags(level);
        if ((detected_cpu_flags() & need) == need) out.push_back(level);
    }
    return out;
}

TEST_P(SsimGolden, FeaturesOtherJsonBitExact) {
    const std::string pair = GetParam();
    const auto names = extractors_in(pair, "features_other.json");
    ASSERT_FALSE(names.empty());
    int compared = 0;
    for (const SimdLevel level : ssim_levels())
        for (const auto& name : names)
            compared += expect_ssim_golden(pair, "features_other.json", name,
                                           test::run_pair(pair, name, {}, level));
    EXPECT_GT(compared, 0);
}

TEST_P(SsimGolden, FeaturesOtherOptsJsonBitExact) {
    const std::string pair = GetParam();
    const auto names = extractors_in(pair, "features_other_opts.json");
    ASSERT_FALSE(names.empty());
    int compared = 0;
    for (const SimdLevel level : ssim_levels())
        for (const auto& name : names)
            compared += expect_ssim_golden(pair, "features_other_opts.json", name,
                                           test::run_pair(pair, name, {{"enable_lcs", "true"}}, level));
    EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(Corpus, SsimGolden, ::testing::ValuesIn(test::target_pairs()));

// ---- synthetic pictures ----------------------------------------------------

class MapSink final : public FeatureSink {
public:
    void append(std::string_view key, unsigned frame, double value) override {
        values[std::string(key)][frame] = value;
        order.emplace_back(key);
    }
    double at(const std::string& key, unsigned frame = 0) const { return values.at(key).at(frame); }
    std::map<std::string, std::map<unsigned, double>> values;
    std::vector<std::string> order;
};

void set_sample(Plane& p, int bpc, int x, int y, unsigned v) {
    if (bpc > 8)
        p.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
    else
        p.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
}

// A textured picture: a pattern shared by every seed over most of the bpc
// range plus a seeded noise of about 1/16 of it, so two seeds make a
// distorted pair with positive structure; chroma gets values of its own.
Picture textured(int w, int h, int bpc, PixelFormat fmt, unsigned seed) {
    Picture p(w, h, bpc, fmt);
    const unsigned top = (1u << bpc) - 1;
    unsigned s = seed;
    for (int k = 0; k < p.plane_count(); ++k) {
        Plane& pl = p.planes[k];
        for (int y = 0; y < pl.height(); ++y)
            for (int x = 0; x < pl.width(); ++x) {
                s = s * 1664525u + 1013904223u;
                const unsigned pattern = static_cast<unsigned>((x * 7 + y * 3 + k * 50) % 240);
                const unsigned noise = s >> 28;  // 0..15
                set_sample(pl, bpc, x, y, ((pattern + noise) << (bpc - 8)) & top);
            }
    }
    return p;
}

MapSink score(const char* name, const Picture& ref, const Picture& dis,
              const std::vector<std::pair<std::string, std::string>>& opts = {}) {
    const FeatureInfo* f = find_feature(name);
    if (!f) throw Error(std::string("no feature ") + name);
    OptionValues o(f->options);
    for (const auto& [k, v] : opts) o.set(k, v);
    auto fx = f->create(o, FrameGeometry{ref.width, ref.height, ref.bpc, ref.format});
    MapSink sink;
    fx->extract(ref, dis, 0, sink);
    return sink;
}

struct Case {
    int w, h, bpc;
    PixelFormat fmt;
};

class SsimIdentical : public ::testing::TestWithParam<Case> {};

// Identical pictures score 1, and every l, c and s mean is 1, to float
// precision: per sample, l and c divide a double numerator by a float
// denominator and c's sqrt(var * var) rounds, so a mean can be 1 - 2^-24 or
// so (exactly 1 on the corpus's identical pair p11, which the goldens check).
TEST_P(SsimIdentical, ScoresOne) {
    const Case c = GetParam();
    const Picture p = textured(c.w, c.h, c.bpc, c.fmt, 7);
    for (const char* name : {"float_ssim", "float_ms_ssim"}) {
        if (std::string(name) == "float_ms_ssim" && (c.w < 176 || c.h < 176)) continue;
        const MapSink s = score(name, p, p, {{"enable_lcs", "true"}});
        for (const auto& [key, frames] : s.values)
            EXPECT_NEAR(frames.at(0), 1.0, 1e-6) << name << " " << key;
    }
}

INSTANTIATE_TEST_SUITE_P(
    DepthsFormatsSizes, SsimIdentical,
    ::testing::Values(Case{64, 48, 8, PixelFormat::yuv420}, Case{64, 48, 10, PixelFormat::yuv420},
                      Case{64, 48, 12, PixelFormat::yuv420}, Case{64, 48, 16, PixelFormat::yuv420},
                      Case{64, 48, 8, PixelFormat::yuv422}, Case{64, 48, 8, PixelFormat::yuv444},
                      Case{11, 11, 8, PixelFormat::yuv420}, Case{37, 23, 8, PixelFormat::yuv420},
                      Case{177, 181, 10, PixelFormat::yuv420},
                      Case{176, 176, 8, PixelFormat::yuv444},
                      Case{1029, 515, 8, PixelFormat::yuv420}));

// The same luma gives the same values whatever the chroma format and chroma
// content: both extractors read luma only.
TEST(Ssim, LumaOnly) {
    const Picture a = textured(180, 190, 8, PixelFormat::yuv420, 1);
    const Picture b = textured(180, 190, 8, PixelFormat::yuv420, 2);
    for (PixelFormat fmt : {PixelFormat::yuv422, PixelFormat::yuv444}) {
        Picture a2 = textured(180, 190, 8, fmt, 3), b2 = textured(180, 190, 8, fmt, 4);
        a2.planes[0] = a.planes[0];
        b2.planes[0] = b.planes[0];
        for (const char* name : {"float_ssim", "float_ms_ssim"}) {
            const MapSink x = score(name, a, b, {{"enable_lcs", "true"}});
            const MapSink y = score(name, a2, b2, {{"enable_lcs", "true"}});
            EXPECT_EQ(x.values, y.values) << name;
        }
    }
    EXPECT_FALSE(find_feature("float_ssim")->reads_chroma);
    EXPECT_FALSE(find_feature("float_ms_ssim")->reads_chroma);
}

// A sample v at bpc b is v / 2^(b-8) in float: 8-bit pictures shifted up to
// 10, 12 and 16 bits score exactly as the 8-bit ones.
TEST(Ssim, BitDepthsScaleToEightBits) {
    const Picture a = textured(200, 180, 8, PixelFormat::yuv420, 5);
    const Picture b = textured(200, 180, 8, PixelFormat::yuv420, 6);
    for (int bpc : {10, 12, 16}) {
        Picture a2(200, 180, bpc, PixelFormat::yuv420), b2(200, 180, bpc, PixelFormat::yuv420);
        for (int y = 0; y < 180; ++y)
            for (int x = 0; x < 200; ++x) {
                set_sample(a2.planes[0], bpc, x, y,
                           a.planes[0].row<std::uint8_t>(y)[x] << (bpc - 8));
                set_sample(b2.planes[0], bpc, x, y,
                           b.planes[0].row<std::uint8_t>(y)[x] << (bpc - 8));
            }
        for (const char* name : {"float_ssim", "float_ms_ssim"}) {
            const MapSink x = score(name, a, b, {{"enable_lcs", "true"}});
            const MapSink y = score(name, a2, b2, {{"enable_lcs", "true"}});
            EXPECT_EQ(x.values, y.values) << name << " at " << bpc << " bits";
            EXPECT_LT(x.at(name), 1.0);
        }
    }
}

TEST(Ssim, RefusesTooSmall) {
    const FeatureInfo* ssim = find_feature("float_ssim");
    const FeatureInfo* ms = find_feature("float_ms_ssim");
    const OptionValues so(ssim->options), mo(ms->options);
    const auto geom = [](int w, int h) { return FrameGeometry{w, h, 8, PixelFormat::yuv420}; };
    EXPECT_NO_THROW(ssim->create(so, geom(11, 11)));
    EXPECT_NO_THROW(ssim->create(so, geom(11, 400)));
    EXPECT_THROW(ssim->create(so, geom(10, 400)), Error);
    EXPECT_THROW(ssim->create(so, geom(400, 10)), Error);
    try {
        ssim->create(so, geom(10, 11));
        ADD_FAILURE() << "10x11 accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("at least 11x11"), std::string::npos) << e.what();
    }
    // Explicit downscaling: 48 / 4 = 12 fits, 48 / 5 = 9 does not.
    OptionValues s4(ssim->options), s5(ssim->options);
    s4.set("scale", "4");
    s5.set("scale", "5");
    EXPECT_NO_THROW(ssim->create(s4, geom(48, 48)));
    EXPECT_THROW(ssim->create(s5, geom(48, 48)), Error);

    EXPECT_NO_THROW(ms->create(mo, geom(176, 176)));
    EXPECT_THROW(ms->create(mo, geom(175, 1080)), Error);
    EXPECT_THROW(ms->create(mo, geom(1920, 175)), Error);
    try {
        ms->create(mo, geom(176, 144));
        ADD_FAILURE() << "176x144 accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("at least 176x176"), std::string::npos) << e.what();
    }
    // Bit depths outside picture_copy's.
    EXPECT_THROW(ssim->create(so, FrameGeometry{64, 64, 9, PixelFormat::yuv420}), Error);
    EXPECT_THROW(ms->create(mo, FrameGeometry{256, 256, 14, PixelFormat::yuv420}), Error);
}

// libvmaf's names, defaults and write order; no option suffixes keys.
TEST(Ssim, OptionsAndKeys) {
    const FeatureInfo* ssim = find_feature("float_ssim");
    const FeatureInfo* ms = find_feature("float_ms_ssim");
    for (const FeatureInfo* f : {ssim, ms})
        for (const OptionSpec& o : f->options) {
            EXPECT_FALSE(o.feature_param) << f->name << " " << o.name;
            EXPECT_EQ(o.default_value, 0.0) << f->name << " " << o.name;
        }
    OptionValues o(ssim->options);
    o.set("enable_lcs", "true");
    o.set("enable_db", "true");
    o.set("clip_db", "true");
    o.set("scale", "3");
    EXPECT_EQ(o.key_suffix(), "");
    EXPECT_THROW(o.set("scale", "11"), Error);

    const Picture a = textured(200, 200, 8, PixelFormat::yuv420, 8);
    const Picture b = textured(200, 200, 8, PixelFormat::yuv420, 9);
    EXPECT_EQ(score("float_ssim", a, b).order, std::vector<std::string>{"float_ssim"});
    EXPECT_EQ(
        score("float_ssim", a, b, {{"enable_lcs", "true"}}).order,
        (std::vector<std::string>{"float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s"}));
    std::vector<std::string> ms_keys{"float_ms_ssim"};
    for (const char* part : {"l", "c", "s"})
        for (int i = 0; i < 5; ++i)
            ms_keys.push_back(std::string("float_ms_ssim_") + part + "_scale" + std::to_string(i));
    EXPECT_EQ(score("float_ms_ssim", a, b, {{"enable_lcs", "true"}}).order, ms_keys);
    EXPECT_EQ(score("float_ms_ssim", a, b).order, std::vector<std::string>{"float_ms_ssim"});
}

// enable_db writes MIN(-10 log10(1 - score), max_db), max_db being +infinity
// or, with clip_db, ceil(10 log10(peak^2 w h / 0.5)) (here 255^2 * 36000 /
// 0.5 = 4.68e9 -> 96.7 dB -> 97).
TEST(Ssim, DecibelOptions) {
    const Picture a = textured(200, 180, 8, PixelFormat::yuv420, 10);
    const Picture b = textured(200, 180, 8, PixelFormat::yuv420, 11);
    for (const char* name : {"float_ssim", "float_ms_ssim"}) {
        const double plain = score(name, a, b).at(name);
        ASSERT_LT(plain, 1.0) << name;
        ASSERT_GT(plain, 0.0) << name;
        const double db = score(name, a, b, {{"enable_db", "true"}}).at(name);
        EXPECT_EQ(db, -10.0 * std::log10(1.0 - plain)) << name;
        EXPECT_EQ(score(name, a, b, {{"enable_db", "true"}, {"clip_db", "true"}}).at(name),
                  db < 97.0 ? db : 97.0)
            << name;
        // clip_db alone changes nothing.
        EXPECT_EQ(score(name, a, b, {{"clip_db", "true"}}).at(name), plain) << name;
    }
    // float_ssim of these identical pictures is exactly 1: +infinity dB, or
    // the ceiling.
    ASSERT_EQ(score("float_ssim", a, a).at("float_ssim"), 1.0);
    EXPECT_EQ(score("float_ssim", a, a, {{"enable_db", "true"}}).at("float_ssim"),
              std::numeric_limits<double>::infinity());
    EXPECT_EQ(
        score("float_ssim", a, a, {{"enable_db", "true"}, {"clip_db", "true"}}).at("float_ssim"),
        97.0);
    // 16 bits: 65535^2 * 36000 / 0.5 = 3.09e14 -> 144.9 dB -> 145.
    Picture a16(200, 180, 16, PixelFormat::yuv420);
    for (int y = 0; y < 180; ++y)
        for (int x = 0; x < 200; ++x)
            set_sample(a16.planes[0], 16, x, y, a.planes[0].row<std::uint8_t>(y)[x] << 8);
    ASSERT_EQ(score("float_ssim", a16, a16).at("float_ssim"), 1.0);
    EXPECT_EQ(score("float_ssim", a16, a16, {{"enable_db", "true"}, {"clip_db", "true"}})
                  .at("float_ssim"),
              145.0);
}

// scale=1 keeps full resolution; auto picks round(min(w, h) / 256), so a
// picture of 384 lines (1.5 -> 2) scores as with scale=2 and one of 383
// (1.496 -> 1) as with scale=1.
TEST(Ssim, AutoScale) {
    for (const auto& [h, expected] :
         std::vector<std::pair<int, const char*>>{{384, "2"}, {383, "1"}}) {
        const Picture a = textured(500, h, 8, PixelFormat::yuv420, 12);
        const Picture b = textured(500, h, 8, PixelFormat::yuv420, 13);
        const MapSink automatic = score("float_ssim", a, b, {{"enable_lcs", "true"}});
        const MapSink explicit_ =
            score("float_ssim", a, b, {{"enable_lcs", "true"}, {"scale", expected}});
        EXPECT_EQ(automatic.values, explicit_.values) << h;
        const MapSink other =
            score("float_ssim", a, b,
                  {{"enable_lcs", "true"}, {"scale", expected[0] == '1' ? "2" : "1"}});
        EXPECT_NE(automatic.at("float_ssim"), other.at("float_ssim")) << h;
    }
}

// float_ssim and float_ms_ssim of one worker convert the lumas once (the
// earlier instance's floats, ssim::FloatLumas): float_ssim keeps them
// whole by decimating apart, float_ms_ssim always does. In either order,
// with float_ssim's downscaling by 4 (1080p's auto scale), 2, 3 or none,
// each writes what it writes alone.
TEST(SsimShared, LumasConvertedOnceGiveTheBitsOfSeparateRuns) {
    test::expect_alone_as_together("p19_motorcycle_1920x1080_420p8_x264crf28",
                                   {"float_ssim", "float_ms_ssim=enable_lcs=true"});
    const std::string pair = "p12_gravel_576x324_420p10_x265crf28";
    test::expect_alone_as_together(pair, {"float_ms_ssim", "float_ssim=scale=2"});
    test::expect_alone_as_together(pair, {"float_ms_ssim", "float_ssim=scale=3:enable_lcs=true"});
    test::expect_alone_as_together(pair, {"float_ssim=scale=1:enable_db=true", "float_ms_ssim"});
}

}  // namespace
}  // namespace vmafpp
