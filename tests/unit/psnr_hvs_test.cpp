// libvmaf 3.2.0's psnr_hvs extractor: psnr_hvs_y, _cb, _cr and psnr_hvs of
// features_other.json bit for bit on every target pair that has them, and
// its behaviour outside the corpus (the DCT, identical pictures, refusals).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "psnr_hvs/psnr_hvs_kernels.hpp"
#include "support/feature_run.hpp"
#include "support/simd_run.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {
namespace {

using namespace psnr_hvs;  // the kernels (src/psnr_hvs/psnr_hvs_kernels.hpp)

const std::vector<std::string> kKeys = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};

using test::g17;

// Pairs whose features_other.json has the psnr_hvs keys (p15 does not:
// libvmaf refuses 16 bits).
std::vector<std::string> psnr_hvs_pairs() { return test::pairs_with_key("features_other.json", "psnr_hvs"); }

class PsnrHvsGolden : public ::testing::TestWithParam<std::string> {};

// Every frame's four values; libvmaf writes a non-finite value (a plane
// without error: -log10(0)) as null.
// At every level this machine has: scalar, AVX2 and AVX-512 (whose twin
// the ICL level inherits).
TEST_P(PsnrHvsGolden, PsnrHvsKeysOfFeaturesOtherJsonBitExact) {
    int compared = 0;
    for (const SimdLevel level : test::machine_levels()) {
        const auto sink = test::run_pair(GetParam(), "psnr_hvs", {}, level);
        EXPECT_EQ(sink.order, kKeys);
        compared += test::expect_golden_keys(sink, GetParam(), "features_other.json", kKeys);
    }
    RecordProperty("values_compared", compared);
}

INSTANTIATE_TEST_SUITE_P(Corpus, PsnrHvsGolden, ::testing::ValuesIn(psnr_hvs_pairs()));


test::RecordingSink score_one(const Picture& ref, const Picture& dis) {
    const FeatureInfo* info = find_feature("psnr_hvs");
    auto fex = info->create(OptionValues(info->options),
                            FrameGeometry{ref.width, ref.height, ref.bpc, ref.format});
    test::RecordingSink sink;
    fex->extract(ref, dis, 0, sink);
    return sink;
}

TEST(PsnrHvs, RegisteredWithLibvmafNamesAndReadsChroma) {
    const FeatureInfo* info = find_feature("psnr_hvs");
    ASSERT_NE(info, nullptr);
    ASSERT_EQ(info->provided.size(), 4u);
    for (std::size_t i = 0; i < kKeys.size(); ++i)
        EXPECT_EQ(info->provided[i].output_name(), kKeys[i]);
    EXPECT_EQ(find_feature_providing("psnr_hvs_cb"), info);
    ASSERT_TRUE(info->reads_chroma);
    EXPECT_TRUE(info->reads_chroma(OptionValues(info->options)));
    EXPECT_FALSE(info->temporal);
}

TEST(PsnrHvs, IdenticalPicturesScorePlusInfinity) {
    for (PixelFormat fmt : {PixelFormat::yuv420, PixelFormat::yuv422, PixelFormat::yuv444})
        for (int bpc : {8, 9, 10, 12}) {
            const Picture p = test::noise_picture(32, 24, bpc, fmt, 5);
            const auto sink = score_one(p, p);
            for (const auto& key : kKeys) {
                const double v = sink.values.at(key).at(0);
                EXPECT_TRUE(std::isinf(v) && v > 0) << key << " bpc " << bpc << ": " << g17(v);
            }
        }
}

// psnr_hvs = -10 log10(0.8 y + 0.1 (cb + cr)) of the planes' raw scores.
TEST(PsnrHvs, CombinedValueWeighsThePlanes) {
    const Picture a = test::noise_picture(48, 32, 8, PixelFormat::yuv420, 1);
    const Picture b = test::noise_picture(48, 32, 8, PixelFormat::yuv420, 2);
    const auto sink = score_one(a, b);
    double raw[3];
    for (int p = 0; p < 3; ++p) raw[p] = std::pow(10.0, -sink.values.at(kKeys[p]).at(0) / 10);
    const double want = -10 * std::log10(raw[0] * .8 + .1 * (raw[1] + raw[2]));
    EXPECT_NEAR(sink.values.at("psnr_hvs").at(0), want, 1e-9);
}

TEST(PsnrHvs, RefusesWhatLibvmafCannotScore) {
    const FeatureInfo* info = find_feature("psnr_hvs");
    const OptionValues o(info->options);
    auto refuses = [&](FrameGeometry g, const std::string& needle) {
        test::expect_refused(*info, o, g, needle);
    };
    refuses({176, 144, 16, PixelFormat::yuv420}, "at most 12 bits");
    refuses({176, 144, 13, PixelFormat::yuv444}, "at most 12 bits");
    refuses({64, 64, 8, PixelFormat::yuv400}, "4:0:0");
    refuses({14, 14, 8, PixelFormat::yuv420}, "at least 8x8");   // chroma 7x7
    refuses({15, 64, 8, PixelFormat::yuv422}, "at least 8x8");   // chroma 7 wide
    refuses({7, 64, 8, PixelFormat::yuv444}, "at least 8x8");
    refuses({64, 7, 8, PixelFormat::yuv444}, "at least 8x8");
    EXPECT_NO_THROW(info->create(o, {16, 16, 8, PixelFormat::yuv420}));
    EXPECT_NO_THROW(info->create(o, {8, 8, 12, PixelFormat::yuv444}));
    EXPECT_NO_THROW(info->create(o, {16, 8, 11, PixelFormat::yuv422}));
}

TEST(PsnrHvs, SmallestPlanesScoreFinite) {
    const Picture a = test::noise_picture(16, 16, 8, PixelFormat::yuv420, 3);
    const Picture b = test::noise_picture(16, 16, 8, PixelFormat::yuv420, 4);
    const auto sink = score_one(a, b);
    for (const auto& key : kKeys) EXPECT_TRUE(std::isfinite(sink.values.at(key).at(0))) << key;
}

// The same luma with other chroma gives other chroma values (what
// FeatureRegistry.ChromaDeclarations checks of a chroma reader).
TEST(PsnrHvs, ValuesDependOnChroma) {
    const Picture ref = test::noise_picture(176, 144, 8, PixelFormat::yuv420, 21);
    Picture dis = test::noise_picture(176, 144, 8, PixelFormat::yuv420, 22);
    Picture dis2 = test::noise_picture(176, 144, 8, PixelFormat::yuv420, 23);
    dis2.planes[0] = dis.planes[0];
    const auto a = score_one(ref, dis), b = score_one(ref, dis2);
    EXPECT_EQ(a.values.at("psnr_hvs_y").at(0), b.values.at("psnr_hvs_y").at(0));
    EXPECT_NE(a.values.at("psnr_hvs_cb").at(0), b.values.at("psnr_hvs_cb").at(0));
    EXPECT_NE(a.values.at("psnr_hvs").at(0), b.values.at("psnr_hvs").at(0));
}

// Daala's DCT is close to the orthonormal 2-D DCT-II: a flat block has only
// a DC of 8 * value, and any block is within a few units of the exact one.
TEST(PsnrHvsKernels, Fdct8x8IsNearTheOrthonormalDct) {
    std::int32_t flat[64];
    for (auto& v : flat) v = 100;
    psnr_hvs::fdct8x8(flat);
    EXPECT_NEAR(flat[0], 800, 1);
    for (int k = 1; k < 64; ++k) EXPECT_EQ(flat[k], 0) << k;

    unsigned s = 9;
    for (int round = 0; round < 50; ++round) {
        std::int32_t block[64];
        double x[64];
        for (int k = 0; k < 64; ++k) {
            s = s * 1664525u + 1013904223u;
            block[k] = static_cast<std::int32_t>((s >> 8) & 4095);
            x[k] = block[k];
        }
        psnr_hvs::fdct8x8(block);
        const double pi = 3.14159265358979323846;
        for (int u = 0; u < 8; ++u)
            for (int v = 0; v < 8; ++v) {
                double sum = 0;
                for (int i = 0; i < 8; ++i)
                    for (int j = 0; j < 8; ++j)
                        sum += x[i * 8 + j] * std::cos((2 * i + 1) * u * pi / 16) *
                               std::cos((2 * j + 1) * v * pi / 16);
                const double cu = u ? std::sqrt(0.25) : std::sqrt(0.125);
                const double cv = v ? std::sqrt(0.25) : std::sqrt(0.125);
                EXPECT_NEAR(block[u * 8 + v], cu * cv * sum, 6) << u << "," << v;
            }
    }
}

TEST(PsnrHvsKernels, MaskIsTheSquaredScaledCsf) {
    psnr_hvs::Table8x8 mask;
    psnr_hvs::mask_table(psnr_hvs::kCsfLuma, mask);
    const double k = 0.3885746225901003;
    EXPECT_EQ(mask[0][0], static_cast<float>((psnr_hvs::kCsfLuma[0][0] * k) *
                                             (psnr_hvs::kCsfLuma[0][0] * k)));
    EXPECT_NEAR(mask[7][7], 0.109083846276 * 0.109083846276 * k * k, 1e-7);
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
            EXPECT_EQ(psnr_hvs::kCsfLuma[i][j], psnr_hvs::kCsfLuma[j][i]);
            EXPECT_EQ(psnr_hvs::kCsfCb[i][j], psnr_hvs::kCsfCb[j][i]);
            EXPECT_EQ(psnr_hvs::kCsfCr[i][j], psnr_hvs::kCsfCr[j][i]);
        }
}

}  // namespace
}  // namespace vmafpp
