// Integer VIF: libvmaf 3.2.0 goldens bit for bit, options, key names, sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "support/score_runs.hpp"
#include "vif/vif_kernels.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/vmafpp.hpp"

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

// p21 (18x18) is not a target because of ADM; at 18x18 VIF is above its
// 16x16 minimum, and libvmaf's default, scalar, AVX2 and no-thread runs all
// give the same VIF values there.
TEST(VifGoldenTiny, P21AlsoBitExact) {
    const std::string pair = "p21_astronaut_18x18_420p8_x264crf30_tiny";
    expect_golden(pair, "default.json", test::run_pair(pair, "vif"), "");
}

TEST(Vif, RejectsAPictureOfAnotherGeometry) {
    const FeatureInfo* info = find_feature("vif");
    auto fex = info->create(OptionValues(info->options),
                            FrameGeometry{32, 32, 8, PixelFormat::yuv420});
    RecordingSink sink;
    const Picture p10(32, 32, 10, PixelFormat::yuv420), p8(32, 33, 8, PixelFormat::yuv420);
    EXPECT_THROW(fex->extract(p10, p10, 0, sink), Error);
    EXPECT_THROW(fex->extract(p8, p8, 0, sink), Error);
}

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
    EXPECT_EQ(info->key(o, "VMAF_integer_feature_vif_scale0_score"), "integer_vif_scale0");
    o.set("vif_skip_scale0", "true");
    o.set("vif_enhn_gain_limit", "1.5");
    EXPECT_EQ(info->key(o, "VMAF_integer_feature_vif_scale1_score"), "integer_vif_scale1_egl_1.5_ssclz");
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

// Scales 1-3 must not depend on whether scale 0's statistics ran. For an
// 8-bit picture that also sets the reduction done inside the statistics
// pass (the plain run) against the separate one (the skipping run).
TEST(Vif, SkipScale0WritesZeroAndKeepsOtherScales) {
    for (int bpc : {8, 10}) {
        SCOPED_TRACE("bpc " + std::to_string(bpc));
        const Picture ref = noise_picture(80, 40, bpc, 3);
        const Picture dis = noise_picture(80, 40, bpc, 4);
        const RecordingSink plain = run_once(ref, dis);
        const RecordingSink skip =
            run_once(ref, dis, {{"vif_skip_scale0", "true"}, {"debug", "true"}});
        for (int s = 1; s < 4; ++s)
            EXPECT_EQ(skip.values.at(std::string(kScaleKeys[s]) + "_ssclz").at(0),
                      plain.values.at(kScaleKeys[s]).at(0));
    }
    const Picture ref = noise_picture(80, 40, 10, 3);
    const Picture dis = noise_picture(80, 40, 10, 4);
    const RecordingSink skip =
        run_once(ref, dis, {{"vif_skip_scale0", "true"}, {"debug", "true"}});
    EXPECT_EQ(skip.values.at("integer_vif_scale0_ssclz").at(0), 0.0);
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


// --- an independent, slow restatement of the same arithmetic -------------
//
// Per output sample, straight from the definition: mirrored indices looked up
// on the fly (no padded rows, no row pointers), the reduction computed at
// every sample and decimated afterwards, no column blocking. The extractor's
// kernels must agree with it exactly on content the corpus does not have:
// extreme samples at every bit depth, odd and block-straddling widths.
namespace slow {

using Image = std::vector<std::vector<std::uint32_t>>;  // [row][col]

int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); }
std::uint64_t rounding(int shift) { return shift ? std::uint64_t{1} << (shift - 1) : 0; }

struct Moments {
    std::uint32_t mu1, mu2, xx, yy, xy;
};

// Vertical moments of column j around row i.
Moments vertical(const Image& a, const Image& b, int i, int j, int s, int shift_mu,
                 int shift_sq) {
    const int taps = vif::kFilterTaps[s], h = static_cast<int>(a.size());
    std::uint64_t m1 = 0, m2 = 0, xx = 0, yy = 0, xy = 0;
    for (int t = 0; t < taps; ++t) {
        const int y = mirror(i - taps / 2 + t, h);
        const std::uint64_t c = vif::kFilters[s][t], p = a[y][j], q = b[y][j];
        m1 += c * p;
        m2 += c * q;
        xx += c * p * p;
        yy += c * q * q;
        xy += c * p * q;
    }
    auto mu = [&](std::uint64_t v) {
        return static_cast<std::uint32_t>(static_cast<std::uint16_t>((v + rounding(shift_mu)) >> shift_mu));
    };
    auto sq = [&](std::uint64_t v) {
        return static_cast<std::uint32_t>((v + rounding(shift_sq)) >> shift_sq);
    };
    return {mu(m1), mu(m2), sq(xx), sq(yy), sq(xy)};
}

struct Sums {
    std::int64_t num_log = 0, den_log = 0, num_non_log = 0, den_non_log = 0;
};

std::int32_t log2q11(std::uint64_t v) {
    int k = 0;
    while ((v >> k) >= 65536) ++k;
    const float l = std::log2(static_cast<float>(v >> k)) * 2048.0f;
    return static_cast<std::int32_t>(std::round(static_cast<double>(l))) + 2048 * k;
}

Sums statistics(const Image& a, const Image& b, int s, int shift_mu, int shift_sq, double egl) {
    const int h = static_cast<int>(a.size()), w = static_cast<int>(a[0].size());
    const int taps = vif::kFilterTaps[s];
    Sums out;
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            std::uint64_t m1 = 0, m2 = 0, xx = 0, yy = 0, xy = 0;
            for (int u = 0; u < taps; ++u) {
                const Moments m = vertical(a, b, i, mirror(j - taps / 2 + u, w), s, shift_mu, shift_sq);
                const std::uint64_t c = vif::kFilters[s][u];
                m1 += c * m.mu1;
                m2 += c * m.mu2;
                xx += c * m.xx;
                yy += c * m.yy;
                xy += c * m.xy;
            }
            m1 = static_cast<std::uint32_t>(m1);
            m2 = static_cast<std::uint32_t>(m2);
            auto q16 = [](std::uint64_t v) { return static_cast<std::uint32_t>((v + 32768) >> 16); };
            auto q32 = [](std::uint64_t v) { return static_cast<std::uint32_t>((v + (1ull << 31)) >> 32); };
            const auto s1 = static_cast<std::int32_t>(q16(xx) - q32(m1 * m1));
            const auto s2 = std::max(static_cast<std::int32_t>(q16(yy) - q32(m2 * m2)), 0);
            const auto s12 = static_cast<std::int32_t>(q16(xy) - q32(m1 * m2));
            if (s1 < 131072) {
                out.num_non_log += s2;
                out.den_non_log += 1;
                continue;
            }
            out.den_log += log2q11(131072u + static_cast<std::uint32_t>(s1)) - 2048 * 17;
            if (s12 <= 0 || s2 <= 0) continue;
            const double g = s12 / (s1 + 65536 * 1.0e-10);
            const double sv = s2 - g * s12;
            const std::int64_t sv_sq = sv > 0 ? static_cast<std::int32_t>(sv) : 0;
            const double gl = std::min(g, egl);
            const std::int64_t n1 = sv_sq + 131072;
            out.num_log += log2q11(static_cast<std::uint64_t>(static_cast<std::int64_t>(gl * gl * s1) + n1)) -
                           log2q11(static_cast<std::uint64_t>(n1));
        }
    return out;
}

// Full-resolution reduction, then every other row and column.
Image reduce(const Image& a, int s_next, int shift) {
    const int h = static_cast<int>(a.size()), w = static_cast<int>(a[0].size());
    const int taps = vif::kFilterTaps[s_next];
    Image out(h / 2, std::vector<std::uint32_t>(w / 2));
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            std::uint32_t acc = 0;
            for (int u = 0; u < taps; ++u) {
                std::uint32_t v = 0;
                const int x = mirror(j - taps / 2 + u, w);
                for (int t = 0; t < taps; ++t)
                    v += vif::kFilters[s_next][t] * a[mirror(i - taps / 2 + t, h)][x];
                v = static_cast<std::uint16_t>((v + static_cast<std::uint32_t>(rounding(shift))) >> shift);
                acc += vif::kFilters[s_next][u] * v;
            }
            if (i % 2 == 0 && j % 2 == 0 && i / 2 < h / 2 && j / 2 < w / 2)
                out[i / 2][j / 2] = static_cast<std::uint16_t>((acc + 32768) >> 16);
        }
    return out;
}

Image luma(const Picture& p) {
    Image out(p.height, std::vector<std::uint32_t>(p.width));
    for (int y = 0; y < p.height; ++y)
        for (int x = 0; x < p.width; ++x)
            out[y][x] = p.bpc == 8 ? p.luma().row<std::uint8_t>(y)[x] : p.luma().row<std::uint16_t>(y)[x];
    return out;
}

std::array<double, 4> scores(const Picture& ref, const Picture& dis, double egl) {
    Image a = luma(ref), b = luma(dis);
    std::array<double, 4> out{};
    for (int s = 0; s < 4; ++s) {
        if (s > 0) {
            const int shift = s == 1 ? ref.bpc : 16;
            a = reduce(a, s, shift);
            b = reduce(b, s, shift);
        }
        const Sums sums = s == 0 ? statistics(a, b, 0, ref.bpc, 2 * (ref.bpc - 8), egl)
                                 : statistics(a, b, s, 16, 16, egl);
        const float num = static_cast<float>(
            static_cast<double>(sums.num_log) / 2048.0 +
            (static_cast<double>(sums.den_non_log) -
             (static_cast<double>(sums.num_non_log) / 16384.0) / 65025.0));
        const float den = static_cast<float>(static_cast<double>(sums.den_log) / 2048.0 +
                                             static_cast<double>(sums.den_non_log));
        out[s] = static_cast<double>(num / den);
    }
    return out;
}

}  // namespace slow

Picture extreme_picture(int w, int h, int bpc, std::uint32_t seed) {
    // Random mix of 0, max, max-1 and uniform samples in random blocks.
    Picture p(w, h, bpc, PixelFormat::yuv400);
    std::mt19937 rng(seed);
    const int top = (1 << bpc) - 1;
    std::uniform_int_distribution<int> any(0, top), kind(0, 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int k = ((x / 5) * 7 + (y / 3) * 13 + static_cast<int>(seed)) % 4;
            const int v = k == 0 ? any(rng) : k == 1 ? top : k == 2 ? (kind(rng) ? 0 : top) : top - 1;
            if (bpc == 8)
                p.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            else
                p.planes[0].row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
        }
    return p;
}

TEST(VifKernels, MatchSlowRestatementOnExtremeContent) {
    struct Case {
        int w, h, bpc;
        std::uint32_t seed;
        bool extreme;
    };
    const Case cases[] = {{16, 16, 8, 1, true},   {23, 17, 8, 2, false},  {40, 33, 10, 3, true},
                          {19, 21, 12, 4, false}, {32, 18, 16, 5, true},  {27, 26, 16, 6, false},
                          {17, 16, 16, 7, true},  {34, 20, 12, 8, true}};
    for (const Case& c : cases)
        for (double egl : {100.0, 1.0}) {
            const Picture ref = c.extreme ? extreme_picture(c.w, c.h, c.bpc, c.seed)
                                          : noise_picture(c.w, c.h, c.bpc, c.seed);
            const Picture dis = c.extreme ? extreme_picture(c.w, c.h, c.bpc, c.seed + 100)
                                          : noise_picture(c.w, c.h, c.bpc, c.seed + 100);
            const auto want = slow::scores(ref, dis, egl);
            const RecordingSink got =
                run_once(ref, dis, {{"vif_enhn_gain_limit", std::to_string(egl)}});
            const std::string sfx = egl == 1.0 ? "_egl_1" : "";
            for (int s = 0; s < 4; ++s)
                EXPECT_EQ(got.values.at(kScaleKeys[s] + sfx).at(0), want[s])
                    << c.w << "x" << c.h << " bpc " << c.bpc << " scale " << s << " egl " << egl;
        }
}

// VIF instances of one run that differ only in their gain limit share one
// pass of statistics (the first accumulates for the others and hands their
// sums over, IntegerVif::meet). Each must still write its own values: those
// of a run where it is alone, at every thread count; instances with other
// parameters (vif_skip_scale0) lead their own group.
TEST(VifShared, EachGainLimitGetsTheBitsOfItsOwnRun) {
    test::expect_alone_as_together(
        "p12_gravel_576x324_420p10_x265crf28",
        {"vif=debug=true", "vif=vif_enhn_gain_limit=1.0:debug=true", "vif=vif_enhn_gain_limit=1.5",
         "vif=vif_skip_scale0=true",
         "vif=vif_skip_scale0=true:vif_enhn_gain_limit=1.2:debug=true"});
}

}  // namespace
}  // namespace vmafpp
