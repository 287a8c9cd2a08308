// libvmaf 3.2.0's ciede extractor: ciede2000 of features_other.json bit for
// bit on every target pair that has it, and its behaviour outside the
// corpus (identical pictures, chroma expansion, refusals).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ciede/ciede_kernels.hpp"
#include "support/feature_run.hpp"
#include "support/simd_run.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {
namespace {

using namespace ciede;  // the kernels (src/ciede/ciede_kernels.hpp)

using test::g17;

// Pairs whose features_other.json has ciede2000 (p20 does not: libvmaf
// reads past its chroma planes there).
std::vector<std::string> ciede_pairs() { return test::pairs_with_key("features_other.json", "ciede2000"); }

class CiedeGolden : public ::testing::TestWithParam<std::string> {};

// Every frame's ciede2000 at every level this machine has (scalar, and the
// AVX2 and AVX-512 twins); libvmaf writes a non-finite value (identical
// frames: log10(0)) as null.
TEST_P(CiedeGolden, Ciede2000OfFeaturesOtherJsonBitExact) {
    int compared = 0;
    for (const SimdLevel level : test::machine_levels()) {
        SCOPED_TRACE(simd_level_name(level));
        const int n = test::expect_golden_keys(test::run_pair_at(GetParam(), "ciede", {}, level),
                                               GetParam(), "features_other.json", {"ciede2000"});
        EXPECT_GT(n, 0);
        compared += n;
    }
    if (test::machine_levels().size() < kSimdLevelCount)
        std::printf("[   NOTE   ] levels above %s skipped: this CPU lacks them\n",
                    simd_level_name(test::machine_levels().back()));
    RecordProperty("values_compared", compared);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CiedeGolden, ::testing::ValuesIn(ciede_pairs()));


double score_one(const Picture& ref, const Picture& dis) {
    const FeatureInfo* info = find_feature("ciede");
    auto fex = info->create(OptionValues(info->options),
                            FrameGeometry{ref.width, ref.height, ref.bpc, ref.format});
    test::RecordingSink sink;
    fex->extract(ref, dis, 0, sink);
    return sink.values.at("ciede2000").at(0);
}

TEST(Ciede, RegisteredWithLibvmafNamesAndReadsChroma) {
    const FeatureInfo* info = find_feature("ciede");
    ASSERT_NE(info, nullptr);
    ASSERT_EQ(info->provided.size(), 1u);
    EXPECT_EQ(info->provided[0].output_name(), "ciede2000");
    EXPECT_EQ(find_feature_providing("ciede2000"), info);
    ASSERT_TRUE(info->reads_chroma);
    EXPECT_TRUE(info->reads_chroma(OptionValues(info->options)));
    EXPECT_FALSE(info->temporal);
}

TEST(Ciede, IdenticalPicturesScorePlusInfinity) {
    for (PixelFormat fmt : {PixelFormat::yuv420, PixelFormat::yuv422, PixelFormat::yuv444})
        for (int bpc : {8, 10, 12, 16}) {
            const Picture p = test::noise_picture(40, 24, bpc, fmt, 7);
            const double v = score_one(p, p);
            EXPECT_TRUE(std::isinf(v) && v > 0) << "bpc " << bpc << ": " << g17(v);
        }
}

TEST(Ciede, DifferentPicturesScoreFinite) {
    for (PixelFormat fmt : {PixelFormat::yuv420, PixelFormat::yuv422, PixelFormat::yuv444})
        for (int bpc : {8, 10, 12, 16}) {
            const double v =
                score_one(test::noise_picture(40, 24, bpc, fmt, 1), test::noise_picture(40, 24, bpc, fmt, 2));
            EXPECT_TRUE(std::isfinite(v)) << "bpc " << bpc << ": " << g17(v);
        }
}

// libvmaf's 4:2:2 expansion halves the row index and keeps the column, so
// output row i reads chroma rows i/2 and i/2 + 1 only: the last chroma rows
// of a 4:2:2 picture never count, the first ones do.
TEST(Ciede, ChromaExpansionOf422FollowsLibvmaf) {
    const int w = 64, h = 16;  // chroma 32x16, libvmaf stride 32
    const Picture ref = test::noise_picture(w, h, 8, PixelFormat::yuv422, 3);
    Picture last = ref;
    last.planes[1].row<std::uint8_t>(h - 1)[5] ^= 0x40;  // row 15: never read
    last.planes[2].row<std::uint8_t>(h - 2)[7] ^= 0x40;  // row 14: never read
    const double untouched = score_one(ref, last);
    EXPECT_TRUE(std::isinf(untouched)) << g17(untouched);
    Picture next = ref;
    // Row 8, column 0 of U is what output rows 14 and 15 read at column 32.
    next.planes[1].row<std::uint8_t>(8)[0] ^= 0x40;
    EXPECT_TRUE(std::isfinite(score_one(ref, next)));
}

TEST(Ciede, RefusesWhatLibvmafCannotScore) {
    const FeatureInfo* info = find_feature("ciede");
    const OptionValues o(info->options);
    auto refuses = [&](FrameGeometry g, const std::string& needle) {
        test::expect_refused(*info, o, g, needle);
    };
    refuses({64, 64, 8, PixelFormat::yuv400}, "4:0:0");
    refuses({64, 64, 9, PixelFormat::yuv420}, "8, 10, 12 and 16");
    refuses({64, 64, 14, PixelFormat::yuv444}, "8, 10, 12 and 16");
    refuses({1, 64, 8, PixelFormat::yuv420}, "at least 1x1");
    refuses({64, 1, 8, PixelFormat::yuv420}, "at least 1x1");
    EXPECT_NO_THROW(info->create(o, {1, 1, 8, PixelFormat::yuv444}));
    EXPECT_NO_THROW(info->create(o, {2, 2, 8, PixelFormat::yuv420}));
}

// The same luma with other chroma gives another value (what
// FeatureRegistry.ChromaDeclarations checks of a chroma reader).
TEST(Ciede, ValueDependsOnChroma) {
    const Picture ref = test::noise_picture(176, 144, 8, PixelFormat::yuv420, 21);
    Picture dis = test::noise_picture(176, 144, 8, PixelFormat::yuv420, 22);
    Picture dis2 = test::noise_picture(176, 144, 8, PixelFormat::yuv420, 23);
    dis2.planes[0] = dis.planes[0];
    EXPECT_NE(score_one(ref, dis), score_one(ref, dis2));
}

// Odd 4:2:0 sizes, where libvmaf reads past its V plane on the last row:
// vmafpp's value is its own but deterministic.
TEST(Ciede, OddSizesAreDeterministic) {
    const Picture a = test::noise_picture(33, 19, 8, PixelFormat::yuv420, 11);
    const Picture b = test::noise_picture(33, 19, 8, PixelFormat::yuv420, 12);
    const double v1 = score_one(a, b), v2 = score_one(a, b);
    EXPECT_TRUE(std::isfinite(v1));
    EXPECT_EQ(v1, v2);
}

TEST(CiedeKernels, LabOfWhiteBlackAndGrey) {
    // Limited-range white, black and mid grey at each depth.
    for (int bpc : {8, 10, 12, 16}) {
        const double s = 1 << (bpc - 8);
        const ciede::Lab white = ciede::lab_from_yuv(235 * s, 128 * s, 128 * s, bpc);
        EXPECT_NEAR(white.l, 100.0, 0.05) << bpc;
        EXPECT_NEAR(white.a, 0.0, 0.05) << bpc;
        EXPECT_NEAR(white.b, 0.0, 0.05) << bpc;
        const ciede::Lab black = ciede::lab_from_yuv(16 * s, 128 * s, 128 * s, bpc);
        EXPECT_NEAR(black.l, 0.0, 1e-4) << bpc;
        const ciede::Lab grey = ciede::lab_from_yuv(125.5 * s, 128 * s, 128 * s, bpc);
        EXPECT_GT(grey.l, 50.0);
        EXPECT_LT(grey.l, 60.0);
    }
}

TEST(CiedeKernels, DeltaEIsZeroForEqualColoursAndGrowsWithLightness) {
    const ciede::Lab a{50.0f, 10.0f, -20.0f};
    EXPECT_EQ(ciede::delta_e_2000(a, a), 0.0f);
    const ciede::Lab b{51.0f, 10.0f, -20.0f}, c{55.0f, 10.0f, -20.0f};
    const float db = ciede::delta_e_2000(a, b), dc = ciede::delta_e_2000(a, c);
    EXPECT_GT(db, 0.0f);
    EXPECT_GT(dc, db);
    // Pure lightness difference: |dL| / (kL * S_L), kL = 0.65.
    const double lm = 50.5 - 50.0;
    const double s_l = 1 + 0.015 * lm * lm / std::sqrt(20 + lm * lm);
    EXPECT_NEAR(db, 1.0 / (0.65 * s_l), 1e-5);
}

}  // namespace
}  // namespace vmafpp

namespace vmafpp {
namespace {

using namespace ciede;  // the kernels (src/ciede/ciede_kernels.hpp)

// The shortcut of the row kernel: delta_e_2000 of a colour with itself is
// +0 (bitwise), for random triples of every bit depth, including samples
// outside the nominal range (the whole 0 .. 2^bpc - 1).
TEST(CiedeIdentical, DeltaEOfAColourWithItselfIsPlusZero) {
    std::mt19937_64 rng(20261203);
    for (int bpc : {8, 10, 12, 16}) {
        const std::uint32_t max = (1u << bpc) - 1;
        for (int i = 0; i < 200000; ++i) {
            const auto y = rng() % (max + 1), u = rng() % (max + 1), v = rng() % (max + 1);
            const ciede::Lab c = ciede::lab_from_yuv(double(y), double(u), double(v), bpc);
            const float d = ciede::delta_e_2000(c, c);
            ASSERT_EQ(std::bit_cast<std::uint32_t>(d), 0u)
                << "bpc " << bpc << " yuv " << y << " " << u << " " << v << ": " << d;
        }
    }
}

// The remembered conversion has the computed one's bits, also after
// collisions replace slots (a narrow range of triples, many repeats), and
// after 8-bit blocks are forgotten (64 x 256 chroma pairs of 16 luma groups,
// more than twice the pool).
TEST(CiedeIdentical, LabCacheGivesTheComputedBits) {
    std::mt19937_64 rng(7);
    static_assert(64 * 256 * (256 / ciede::LabBlocks::kBlockValues) >=
                  2 * ciede::LabBlocks::kCapacity);
    for (int bpc : {8, 10, 16}) {
        ciede::LabCache cache(bpc);
        const std::uint32_t max = (1u << bpc) - 1;
        for (int i = 0; i < 300000; ++i) {
            const auto y = std::uint16_t(rng() % (max + 1));
            const auto u = std::uint16_t(rng() % 64), v = std::uint16_t(rng() % (max + 1));
            const ciede::Lab want = ciede::lab_from_yuv(y, u, v, bpc);
            const ciede::Lab got = cache.lab(y, u, v);
            ASSERT_EQ(std::bit_cast<std::uint32_t>(got.l), std::bit_cast<std::uint32_t>(want.l));
            ASSERT_EQ(std::bit_cast<std::uint32_t>(got.a), std::bit_cast<std::uint32_t>(want.a));
            ASSERT_EQ(std::bit_cast<std::uint32_t>(got.b), std::bit_cast<std::uint32_t>(want.b));
        }
    }
}

}  // namespace
}  // namespace vmafpp
