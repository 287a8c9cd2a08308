// libvmaf 3.2.0's cambi extractor: the cambi value of every
// features_other.json and every value of cambi_opts.json bit for bit, at
// every SIMD level this machine has, and its behaviour outside the corpus
// (refusals, options, heatmaps).
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cambi/cambi_kernels.hpp"
#include "support/feature_run.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/cpu.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {
namespace {

using test::g17;

// The levels this machine runs.
std::vector<SimdLevel> levels() {
    std::vector<SimdLevel> out;
    for (SimdLevel l : kSimdLevels)
        if ((detected_cpu_flags() & simd_level_flags(l)) == simd_level_flags(l)) out.push_back(l);
    return out;
}

// run_pair at one SIMD level.
test::RecordingSink run_at(const std::string& pair, SimdLevel level,
                           const std::vector<std::pair<std::string, std::string>>& set = {}) {
    const FeatureInfo* info = find_feature("cambi");
    auto ref = open_video(test::clip(pair, "ref").string());
    auto dis = open_video(test::clip(pair, "dis").string());
    const VideoInfo& vi = ref->info();
    Compute c;
    c.simd = level;
    auto fex = info->create(test::options_for(*info, set),
                            FrameGeometry{vi.width, vi.height, vi.bpc, vi.format}, c);
    test::RecordingSink sink;
    Picture r, d;
    unsigned frame = 0;
    while (ref->read(r)) {
        if (!dis->read(d)) throw Error("distorted clip is shorter");
        fex->extract(r, d, frame++, sink);
    }
    fex->flush(sink);
    return sink;
}

class CambiGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(CambiGolden, CambiOfFeaturesOtherJsonBitExactAtEveryLevel) {
    int compared = 0;
    for (SimdLevel l : levels()) {
        SCOPED_TRACE(simd_level_name(l));
        const auto sink = run_at(GetParam(), l);
        EXPECT_EQ(sink.order, std::vector<std::string>{"cambi"});
        compared += test::expect_golden_keys(sink, GetParam(), "features_other.json", {"cambi"});
    }
    RecordProperty("values_compared", compared);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CambiGolden,
                         ::testing::ValuesIn(test::pairs_with_key("features_other.json", "cambi")));

const std::string kOptsKey = "cambi_mlc_3_topk_0.2_tvit_0.012_ws_45";

class CambiOptsGolden : public ::testing::TestWithParam<std::string> {};

// -n --feature cambi=full_ref=true:topk=0.2:window_size=45:tvi_threshold=0.012:max_log_contrast=3
TEST_P(CambiOptsGolden, FullReferenceWithOptionsBitExactAtEveryLevel) {
    const std::vector<std::string> keys = {kOptsKey, "cambi_source", "cambi_full_reference"};
    int compared = 0;
    for (SimdLevel l : levels()) {
        SCOPED_TRACE(simd_level_name(l));
        const auto sink = run_at(GetParam(), l,
                                 {{"full_ref", "true"},
                                  {"topk", "0.2"},
                                  {"window_size", "45"},
                                  {"tvi_threshold", "0.012"},
                                  {"max_log_contrast", "3"}});
        EXPECT_EQ(sink.order, keys);
        compared += test::expect_golden_keys(sink, GetParam(), "cambi_opts.json", keys);
    }
    RecordProperty("values_compared", compared);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CambiOptsGolden,
                         ::testing::ValuesIn(test::pairs_with_key("cambi_opts.json", kOptsKey)));

// The options the vmaf_v1.0.16 models give cambi (1080p and larger take the
// high-resolution speed-up), against the cambi values of those models'
// goldens.
const std::string kModelKey = "cambi_hrs_1080_cmxv_17_vlt_0.06";

struct ModelGolden {
    std::string pair, file;
};

std::vector<ModelGolden> model_goldens() {
    std::vector<ModelGolden> out;
    for (const char* f : {"model_vmaf_v1.0.16_3d0h.json", "model_vmaf_v1.0.16_3d0h_2160.json",
                          "model_vmaf_v1.0.16_hfr_3d0h.json"})
        for (const auto& p : test::pairs_with_key(f, kModelKey)) out.push_back({p, f});
    return out;
}

class CambiModelGolden : public ::testing::TestWithParam<ModelGolden> {};

TEST_P(CambiModelGolden, V1016ModelOptionsBitExactAtEveryLevel) {
    int compared = 0;
    for (SimdLevel l : levels()) {
        SCOPED_TRACE(simd_level_name(l));
        const auto sink = run_at(GetParam().pair, l,
                                 {{"cambi_high_res_speedup", "1080"},
                                  {"cambi_vis_lum_threshold", "0.06"},
                                  {"cambi_max_val", "17.0"}});
        compared += test::expect_golden_keys(sink, GetParam().pair, GetParam().file, {kModelKey});
    }
    RecordProperty("values_compared", compared);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CambiModelGolden, ::testing::ValuesIn(model_goldens()),
                         [](const auto& info) {
                             std::string n = info.param.pair.substr(0, 3) + "_" + info.param.file;
                             for (char& c : n)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return n;
                         });

const FeatureInfo& cambi_info_ref() {
    const FeatureInfo* info = find_feature("cambi");
    if (!info) throw Error("no cambi");
    return *info;
}

TEST(Cambi, RegisteredWithLibvmafNamesLumaOnly) {
    const FeatureInfo& info = cambi_info_ref();
    EXPECT_EQ(find_feature_providing("Cambi_feature_cambi_score"), &info);
    EXPECT_EQ(find_feature_providing("cambi"), &info);
    EXPECT_FALSE(info.temporal);
    EXPECT_FALSE(info.reads_chroma);
    OptionValues o(info.options);
    o.set("eotf", "pq");
    o.set("cambi_high_res_speedup", "1080");
    o.set("cambi_vis_lum_threshold", "1.5");
    EXPECT_EQ(info.key(o, "Cambi_feature_cambi_score"), "cambi_hrs_1080_vlt_1.5_eotf_pq");
}

TEST(Cambi, RefusesWhatLibvmafCannotScore) {
    const FeatureInfo& info = cambi_info_ref();
    const OptionValues o(info.options);
    test::expect_refused(info, o, {215, 215, 8, PixelFormat::yuv420}, "minimum of 216");
    test::expect_refused(info, o, {176, 144, 16, PixelFormat::yuv420}, "minimum of 216");
    test::expect_refused(info, o, {64, 64, 8, PixelFormat::yuv420}, "minimum of 216");
    // 3840x64: the coarsest scale is 240x4, its window 43 wide.
    test::expect_refused(info, o, {3840, 64, 8, PixelFormat::yuv420}, "coarsest scale");
    OptionValues pq(info.options);
    pq.set("eotf", "hlg");
    test::expect_refused(info, pq, {352, 288, 8, PixelFormat::yuv420}, "unknown eotf");
    // 216x1: 14x1 at the coarsest scale, for a window of 3.
    test::expect_refused(info, o, {216, 1, 8, PixelFormat::yuv420}, "minimum of 2 per side");
    EXPECT_NO_THROW(info.create(o, {216, 40, 8, PixelFormat::yuv420}));
    EXPECT_NO_THROW(info.create(o, {40, 216, 10, PixelFormat::yuv444}));
    EXPECT_NO_THROW(info.create(o, {352, 288, 16, PixelFormat::yuv400}));
}

test::RecordingSink score_one(const OptionValues& o, const Picture& ref, const Picture& dis,
                              SimdLevel level = SimdLevel::scalar) {
    Compute c;
    c.simd = level;
    auto fex = cambi_info_ref().create(o, FrameGeometry{ref.width, ref.height, ref.bpc, ref.format},
                                       c);
    test::RecordingSink sink;
    fex->extract(ref, dis, 0, sink);
    return sink;
}

// Bands: ramps whose steps are a few pixels wide score above 0; a
// flat picture scores 0.
Picture banded(int w, int h, int bpc, int step) {
    Picture p(w, h, bpc, PixelFormat::yuv420);
    for (int k = 0; k < p.plane_count(); ++k) {
        Plane& pl = p.planes[k];
        for (int y = 0; y < pl.height(); ++y)
            for (int x = 0; x < pl.width(); ++x) {
                // Steps of one 10-bit level (one level below 10 bits).
                const int unit = bpc > 10 ? 1 << (bpc - 10) : 1;
                const int v = ((16 << (bpc - 8)) + x / step * unit) & ((1 << bpc) - 1);
                if (bpc > 8)
                    pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
                else
                    pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            }
    }
    return p;
}

TEST(Cambi, BandsScoreAndFlatDoesNot) {
    const OptionValues o(cambi_info_ref().options);
    for (int bpc : {8, 9, 10, 12, 16}) {
        const Picture b = banded(320, 240, bpc, 24);
        const double v = score_one(o, b, b).values.at("cambi").at(0);
        EXPECT_GT(v, 0.0) << bpc;
        EXPECT_TRUE(std::isfinite(v)) << bpc;
        const Picture flat = banded(320, 240, bpc, 100000);
        EXPECT_EQ(score_one(o, flat, flat).values.at("cambi").at(0), 0.0) << bpc;
    }
}

TEST(Cambi, FullReferenceIsTheClippedDifference) {
    OptionValues o(cambi_info_ref().options);
    o.set("full_ref", "true");
    const Picture ref = banded(320, 240, 10, 60);
    const Picture dis = banded(320, 240, 10, 20);
    const auto s = score_one(o, ref, dis);
    const double d = s.values.at("cambi").at(0), r = s.values.at("cambi_source").at(0);
    EXPECT_EQ(s.values.at("cambi_full_reference").at(0), std::max(0.0, d - r));
    const auto swapped = score_one(o, dis, ref);
    EXPECT_EQ(swapped.values.at("cambi").at(0), r);
    EXPECT_EQ(swapped.values.at("cambi_full_reference").at(0), std::max(0.0, r - d));
}

TEST(Cambi, MaxValClips) {
    OptionValues o(cambi_info_ref().options);
    const Picture b = banded(320, 240, 8, 24);
    const double v = score_one(o, b, b).values.at("cambi").at(0);
    o.set("cambi_max_val", g17(v / 2));
    EXPECT_EQ(score_one(o, b, b).values.at("cambi_cmxv_" + [&] {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", v / 2);
        return std::string(buf);
    }()).at(0), std::stod(g17(v / 2)));
}

// Encoding-size scaling and the other options give defined, finite values.
TEST(Cambi, EveryOptionScores) {
    const Picture b = banded(640, 360, 10, 24);
    const std::vector<std::vector<std::pair<std::string, std::string>>> sets = {
        {{"enc_width", "320"}, {"enc_height", "180"}},
        {{"enc_width", "480"}, {"enc_height", "270"}, {"enc_bitdepth", "8"}},
        {{"full_ref", "true"}, {"src_width", "480"}, {"src_height", "270"}},
        {{"eotf", "pq"}},
        {{"cambi_eotf", "pq"}},
        {{"cambi_vis_lum_threshold", "10"}},
        {{"max_log_contrast", "5"}, {"window_size", "15"}},
        {{"max_log_contrast", "0"}, {"window_size", "127"}},
        {{"cambi_topk", "1"}},
        {{"cambi_high_res_speedup", "1080"}},
    };
    for (const auto& set : sets) {
        const OptionValues o = test::options_for(cambi_info_ref(), set);
        const auto s = score_one(o, b, b);
        ASSERT_FALSE(s.order.empty());
        for (const auto& [k, frames] : s.values)
            EXPECT_TRUE(std::isfinite(frames.at(0))) << k << " " << set[0].first;
    }
}

// The heatmap files: libvmaf's names, 16-bit c-values of each scale, one
// picture per frame at its frame's offset.
TEST(Cambi, HeatmapsAreWrittenPerScaleAndFrame) {
    const auto dir = std::filesystem::path(VMAFPP_TEST_WORK_DIR) / "cambi_heatmaps";
    std::filesystem::remove_all(dir);
    OptionValues o(cambi_info_ref().options);
    o.set("heatmaps_path", dir.string());
    const Picture b = banded(320, 240, 8, 24);
    {
        auto fex = cambi_info_ref().create(o, FrameGeometry{320, 240, 8, PixelFormat::yuv420});
        test::RecordingSink sink;
        fex->extract(b, b, 1, sink);
        fex->extract(b, b, 0, sink);
    }
    int w = 320, h = 240;
    for (int s = 0; s < cambi::kScales; ++s) {
        const auto f = dir / ("cambi_heatmap_scale_" + std::to_string(s) + "_" + std::to_string(w) +
                              "x" + std::to_string(h) + "_16b.gray");
        ASSERT_TRUE(std::filesystem::exists(f)) << f;
        EXPECT_EQ(std::filesystem::file_size(f), static_cast<std::uintmax_t>(w) * h * 2 * 2) << f;
        std::ifstream in(f, std::ios::binary);
        std::vector<std::uint16_t> px(static_cast<std::size_t>(w) * h * 2);
        in.read(reinterpret_cast<char*>(px.data()), static_cast<std::streamsize>(px.size() * 2));
        bool any = false;
        for (std::size_t i = 0; i < px.size() / 2; ++i) {
            EXPECT_EQ(px[i], px[i + px.size() / 2]);
            any = any || px[i] != 0;
        }
        if (s == 0) {
            EXPECT_TRUE(any);
        }
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
    }
}

// A visibility threshold above every tvi leaves no value whose banding
// counts (libvmaf's band size wraps around): 0, not a crash.
TEST(Cambi, VisibilityAboveEveryThresholdScoresZero) {
    OptionValues o(cambi_info_ref().options);
    o.set("tvi_threshold", "1");
    o.set("cambi_vis_lum_threshold", "100");
    const Picture b = banded(320, 240, 10, 24);
    EXPECT_EQ(score_one(o, b, b).values.at("cambi_vlt_100_tvit_1").at(0), 0.0);
}

TEST(Cambi, RejectsSamplesAboveTheBitDepth) {
    const OptionValues o(cambi_info_ref().options);
    Picture b = banded(320, 240, 10, 24);
    b.planes[0].row<std::uint16_t>(3)[5] = 1024;
    EXPECT_THROW(score_one(o, b, b), Error);
}

// Every level returns the scalar's bits on noise and bands, odd sizes too.
TEST(Cambi, LevelsAgreeWithScalarOnGeneratedPictures) {
    const OptionValues o(cambi_info_ref().options);
    for (auto [w, h] : {std::pair{320, 240}, {333, 217}, {217, 40}, {40, 300}}) {
        for (int bpc : {8, 10}) {
            const Picture n = test::noise_picture(w, h, bpc, PixelFormat::yuv420, 7);
            const Picture b = banded(w, h, bpc, 9);
            for (const Picture* p : {&n, &b}) {
                const double want = score_one(o, *p, *p).values.at("cambi").at(0);
                for (SimdLevel l : levels())
                    EXPECT_EQ(score_one(o, *p, *p, l).values.at("cambi").at(0), want)
                        << w << "x" << h << " bpc " << bpc << " " << simd_level_name(l);
            }
        }
    }
}

// The fast pooling returns the reference's bits: c-values as the kernel
// makes them (weight * p0 * p in float times the reciprocal), many zeros or
// few, every topk; and values it cannot prove exact take the reference.
TEST(CambiKernels, PoolingMatchesLibvmafsQuickSelect) {
    const float* recip = cambi::reciprocal_table();
    std::mt19937 rng(5);
    int cases = 0;
    for (int round = 0; round < 360; ++round) {
        // The last 60 rounds: pictures large enough, and values large
        // enough, for totals past 2^53 units (2^29), where exactness
        // depends on the k-th value's exponent; some mix in small values.
        const bool large = round >= 300;
        const int w = 1 + static_cast<int>(rng() % (large ? 1000 : 300));
        const int h = 1 + static_cast<int>(rng() % (large ? 600 : 200));
        const int zero_percent = static_cast<int>(rng() % 101);
        // Every third round few distinct values: ties across the k-th largest.
        const int max_count = 1 + static_cast<int>(rng() % (round % 3 == 0 ? 4 : 2000));
        std::vector<float> c(static_cast<std::size_t>(w) * h);
        for (float& v : c) {
            if (static_cast<int>(rng() % 100) < zero_percent) {
                v = 0.0f;
                continue;
            }
            const int wt = 1 + static_cast<int>(rng() % 9);
            int p0 = 1 + static_cast<int>(rng() % max_count);
            int p = 1 + static_cast<int>(rng() % max_count);
            if (large && rng() % 16 != 0) p0 = p = 1000 + static_cast<int>(rng() % 1100);
            v = static_cast<float>(wt * p0 * p) * recip[(p0 + p) % cambi::kReciprocalCount];
        }
        if (round % 50 == 7) c[rng() % c.size()] = 0.25f;  // not provably exact
        for (double topk : {0.0001, 0.2, 0.6, 1.0, static_cast<double>(rng() % 1000) / 1000 + 0.0001}) {
            std::vector<float> a = c, b = c, scratch;
            const double fast = cambi::spatial_pooling(a.data(), topk, w, h, scratch);
            const double ref = cambi::pooling_quick_select(b.data(), topk, w, h);
            ASSERT_EQ(fast, ref) << w << "x" << h << " topk " << topk << ": " << g17(fast) << " vs "
                                 << g17(ref);
            // The sums as each level's c_values gathers them, row by row.
            for (SimdLevel l : levels()) {
                cambi::CValueSums sums;
                for (int y = 0; y < h; ++y)
                    cambi::cambi_kernels_for(l).c_value_sums(c.data() + static_cast<std::size_t>(y) * w, w, sums);
                std::vector<float> d = c;
                const double with_sums = cambi::spatial_pooling(d.data(), topk, w, h, sums, scratch);
                ASSERT_EQ(with_sums, ref) << w << "x" << h << " topk " << topk << " "
                                          << simd_level_name(l) << ": " << g17(with_sums) << " vs "
                                          << g17(ref);
            }
            ++cases;
        }
    }
    RecordProperty("cases", cases);
}

TEST(CambiKernels, ReciprocalTableIsLibvmafs) {
    const float* t = cambi::reciprocal_table();
    EXPECT_EQ(t[0], 0.0f);
    EXPECT_EQ(t[1], 1.0f);
    EXPECT_EQ(t[3], 0.333333333f);
    // One of the entries that differ from 1.0f / 82.
    EXPECT_EQ(t[82], 0.0121951224f);
    EXPECT_NE(t[82], 1.0f / 82.0f);
    EXPECT_EQ(t[4225], 0.000236686391f);
}

// reciprocal_table computes the 9-significant-digit round trip in doubles:
// every entry against the round trip itself, by snprintf and strtof.
TEST(CambiKernels, ReciprocalTableIsTheNineDigitRoundTrip) {
    const float* t = cambi::reciprocal_table();
    int differ_from_division = 0;
    for (int i = 1; i < cambi::kReciprocalCount; ++i) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.9g", 1.0 / i);
        const float want = std::strtof(buf, nullptr);
        ASSERT_EQ(std::memcmp(&t[i], &want, sizeof want), 0) << "entry " << i << ": " << t[i] << " vs " << buf;
        if (want != 1.0f / static_cast<float>(i)) ++differ_from_division;
    }
    EXPECT_EQ(differ_from_division, 42);
}

}  // namespace
}  // namespace vmafpp
