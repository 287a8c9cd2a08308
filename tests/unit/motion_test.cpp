// Integer motion: libvmaf 3.2.0 goldens bit for bit, temporal semantics of
// every option, key order, scheduling independence, sizes.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "vmafpp/collector.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "engine/pipeline.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp {
namespace {

using test::RecordingSink;
using Options = std::vector<std::pair<std::string, std::string>>;

const char* const kSad = "VMAF_integer_feature_motion_sad_score";
const char* const kGoldenKeys[] = {"VMAF_integer_feature_motion_sad_score", "integer_motion2",
                                   "integer_motion3"};

class MotionGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(MotionGolden, DefaultJsonBitExact) {
    const std::string pair = GetParam();
    const RecordingSink got = test::run_pair(pair, "motion");
    EXPECT_EQ(got.order, (std::vector<std::string>(std::begin(kGoldenKeys), std::end(kGoldenKeys))));
    EXPECT_TRUE(got.duplicates.empty());
    const auto golden = test::golden(pair, "default.json");
    const auto& frames = golden["frames"];
    ASSERT_GT(frames.size(), 0u);
    for (const char* key : kGoldenKeys) {
        ASSERT_EQ(got.values.at(key).size(), frames.size()) << key;
        for (const auto& f : frames) {
            const unsigned n = f["frameNum"].get<unsigned>();
            EXPECT_EQ(got.values.at(key).at(n), f["metrics"][key].get<double>())
                << pair << " " << key << " frame " << n;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, MotionGolden, ::testing::ValuesIn(test::target_pairs()),
                         [](const auto& info) { return info.param.substr(0, 3); });

// --- synthetic sequences ----------------------------------------------------
//
// Flat frames make the expected values exact by hand: the filter taps sum to
// 65536, so a constant difference d between two 8-bit frames filters to
// 256 * d in both passes and the SAD score is |d| (|d| * 2^(8 - bpc) for
// bpc > 8).

Picture flat(int w, int h, int bpc, int value) {
    Picture p(w, h, bpc, PixelFormat::yuv420);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (bpc == 8)
                p.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(value);
            else
                p.planes[0].row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(value);
        }
    return p;
}

Picture textured(int w, int h, int bpc, std::uint32_t seed) {
    Picture p(w, h, bpc, PixelFormat::yuv420);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dist(0, (1 << bpc) - 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (bpc == 8)
                p.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(dist(rng));
            else
                p.planes[0].row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(dist(rng));
        }
    return p;
}

std::unique_ptr<FeatureExtractor> make(const Options& set, int w, int h, int bpc) {
    const FeatureInfo* info = find_feature("motion");
    return info->create(test::options_for(*info, set),
                        FrameGeometry{w, h, bpc, PixelFormat::yuv420});
}

RecordingSink run_frames(const std::vector<Picture>& frames, const Options& set = {}) {
    auto fex = make(set, frames[0].width, frames[0].height, frames[0].bpc);
    RecordingSink sink;
    for (unsigned i = 0; i < frames.size(); ++i) fex->extract(frames[i], frames[i], i, sink);
    fex->flush(sink);
    return sink;
}

std::vector<Picture> flat_sequence(const std::vector<int>& values, int bpc = 8) {
    std::vector<Picture> out;
    for (int v : values) out.push_back(flat(24, 20, bpc, v));
    return out;
}

std::vector<double> column(const RecordingSink& s, const std::string& key) {
    std::vector<double> out;
    for (const auto& [frame, v] : s.values.at(key)) out.push_back(v);
    return out;
}

using V = std::vector<double>;

TEST(Motion, RegisteredAsTemporalWithLibvmafOptions) {
    const FeatureInfo* info = find_feature("motion");
    ASSERT_NE(info, nullptr);
    EXPECT_TRUE(info->temporal);
    EXPECT_EQ(find_feature_providing("integer_motion2"), info);
    EXPECT_EQ(find_feature_providing(kSad), info);
    OptionValues o(info->options);
    EXPECT_EQ(o.number("motion_blend_factor"), 1.0);
    EXPECT_EQ(o.number("motion_blend_offset"), 40.0);
    EXPECT_EQ(o.number("motion_fps_weight"), 1.0);
    EXPECT_EQ(o.number("motion_max_val"), 10000.0);
    EXPECT_THROW(o.set("motion_blend_factor", "1.5"), Error);
    EXPECT_THROW(o.set("motion_fps_weight", "5.5"), Error);
    EXPECT_THROW(o.set("motion_blend_offset", "1001"), Error);
    EXPECT_THROW(o.set("motion_max_val", "-1"), Error);
    o.set("motion_five_frame_window", "true");
    o.set("motion_fps_weight", "0.5");
    o.set("motion_force_zero", "true");
    o.set("debug", "true");
    // Suffixes follow the option names' alphabetical order (five < force <
    // fps), as libvmaf sorts them; debug is not a feature parameter.
    EXPECT_EQ(info->key(o, "VMAF_integer_feature_motion2_score"), "integer_motion2_mffw_force_0_mfw_0.5");
    EXPECT_EQ(info->key(o, kSad), std::string(kSad) + "_mffw_force_0_mfw_0.5");
}

TEST(Motion, DefaultTemporalSemantics) {
    // sad = |v[i-1] - v[i]| = 0, 3, 7, 0, 5.
    const RecordingSink s = run_frames(flat_sequence({10, 13, 20, 20, 25}));
    EXPECT_EQ(s.order, (std::vector<std::string>{kSad, "integer_motion2", "integer_motion3"}));
    EXPECT_EQ(column(s, kSad), (V{0, 3, 7, 0, 5}));
    // min of this and the next frame's SAD; the last frame keeps its own.
    EXPECT_EQ(column(s, "integer_motion2"), (V{0, 3, 0, 0, 5}));
    // Frame 0 takes frame 1's SAD.
    EXPECT_EQ(column(s, "integer_motion3"), (V{3, 3, 0, 0, 5}));
}

TEST(Motion, DebugAddsIntegerMotionRightAfterSad) {
    const RecordingSink s = run_frames(flat_sequence({10, 13, 20}), {{"debug", "true"}});
    EXPECT_EQ(s.order, (std::vector<std::string>{kSad, "integer_motion", "integer_motion2",
                                                 "integer_motion3"}));
    EXPECT_EQ(column(s, "integer_motion"), column(s, kSad));
}

TEST(Motion, MovingAverage) {
    const RecordingSink s =
        run_frames(flat_sequence({10, 13, 20, 20, 25}), {{"motion_moving_average", "true"}});
    EXPECT_EQ(column(s, "integer_motion2_mma"), (V{0, 3, 0, 0, 5}));
    // (processed + previous processed) / 2, frame 0's being frame 1's SAD.
    EXPECT_EQ(column(s, "integer_motion3_mma"), (V{3, 3, 1.5, 0, 2.5}));
}

TEST(Motion, BlendAndMaxVal) {
    const RecordingSink s = run_frames(
        flat_sequence({10, 13, 20, 20, 25}),
        {{"motion_blend_factor", "0.5"}, {"motion_blend_offset", "2"}, {"motion_max_val", "4"}});
    const std::string sfx = "_mbf_0.5_mbo_2_mmxv_4";
    // The cap applies to the SAD score itself ...
    EXPECT_EQ(column(s, kSad + sfx), (V{0, 3, 4, 0, 4}));
    EXPECT_EQ(column(s, "integer_motion2" + sfx), (V{0, 3, 0, 0, 4}));
    // ... and to blend(x) = x / 2 + min(2, x) / 2.
    EXPECT_EQ(column(s, "integer_motion3" + sfx), (V{2.5, 2.5, 0, 0, 3}));
}

TEST(Motion, FpsWeightScalesTheSad) {
    const RecordingSink s =
        run_frames(flat_sequence({10, 13, 20}), {{"motion_fps_weight", "2"}});
    EXPECT_EQ(column(s, kSad + std::string("_mfw_2")), (V{0, 6, 14}));
}

TEST(Motion, FiveFrameWindow) {
    // sad = |v[i-2] - v[i]| from frame 2 on: 0, 0, 10, 7, 5, 11.
    const RecordingSink s =
        run_frames(flat_sequence({10, 13, 20, 20, 25, 31}), {{"motion_five_frame_window", "true"}});
    EXPECT_EQ(column(s, kSad + std::string("_mffw")), (V{0, 0, 10, 7, 5, 11}));
    // Frame 2: the next SAD only; then min(previous, next); the last its own.
    EXPECT_EQ(column(s, "integer_motion2_mffw"), (V{0, 0, 7, 5, 7, 11}));
    // Frames 0 and 1 take frame 2's SAD.
    EXPECT_EQ(column(s, "integer_motion3_mffw"), (V{10, 10, 7, 5, 7, 11}));
}

TEST(Motion, ForceZero) {
    const RecordingSink s =
        run_frames(flat_sequence({10, 13, 20}), {{"motion_force_zero", "true"}});
    EXPECT_EQ(column(s, kSad + std::string("_force_0")), (V{0, 0, 0}));
    EXPECT_EQ(column(s, "integer_motion2_force_0"), (V{0, 0, 0}));
    EXPECT_EQ(column(s, "integer_motion3_force_0"), (V{0, 0, 0}));
}

TEST(Motion, ShortStreams) {
    const RecordingSink one = run_frames(flat_sequence({10}));
    EXPECT_EQ(column(one, "integer_motion2"), (V{0}));
    EXPECT_EQ(column(one, "integer_motion3"), (V{0}));
    const RecordingSink two = run_frames(flat_sequence({10, 14}));
    EXPECT_EQ(column(two, "integer_motion2"), (V{0, 4}));
    EXPECT_EQ(column(two, "integer_motion3"), (V{4, 4}));
    // Five-frame window with two frames: no SAD yet, frame 0 stamps 0.
    const RecordingSink fw = run_frames(flat_sequence({10, 14}), {{"motion_five_frame_window", "1"}});
    EXPECT_EQ(column(fw, "integer_motion3_mffw"), (V{0, 0}));
    // No frame at all: flush writes nothing.
    auto fex = make({}, 16, 16, 8);
    RecordingSink none;
    fex->flush(none);
    EXPECT_TRUE(none.values.empty());
}

TEST(Motion, HighBitDepthScaling) {
    for (int bpc : {10, 12, 16}) {
        const RecordingSink s = run_frames(flat_sequence({1000, 1064}, bpc));
        // |d| * 2^(8 - bpc)
        EXPECT_EQ(column(s, kSad)[1], 64.0 / (1 << (bpc - 8))) << bpc;
    }
}

// The SAD of frame n depends on frames n-1 and n only: a fresh instance fed
// just those two (as frames 0 and 1) gives the same value, whatever came
// before.
TEST(Motion, SadDependsOnlyOnTheTwoFrames) {
    for (int bpc : {8, 10}) {
        std::vector<Picture> frames;
        for (std::uint32_t i = 0; i < 6; ++i) frames.push_back(textured(37, 29, bpc, 100 + i));
        const V all = column(run_frames(frames), kSad);
        for (unsigned n = 1; n < frames.size(); ++n) {
            std::vector<Picture> two;
            two.push_back(frames[n - 1]);
            two.push_back(frames[n]);
            EXPECT_EQ(column(run_frames(two), kSad)[1], all[n]) << n;
        }
    }
}

// Through the frame pipeline, with worker threads and --subsample, the
// temporal extractor still sees every frame in order: libvmaf's subsample3
// golden has the same motion values as default.json at the frames it keeps.
TEST(Motion, PipelineWithThreadsAndSubsampleMatchesGolden) {
    const std::string pair = "p01_astronaut_576x324_420p8_x264crf23";
    ASSERT_TRUE(test::has_golden(pair, "subsample3.json"));
    const FeatureInfo* info = find_feature("motion");
    for (unsigned threads : {0u, 2u}) {
        auto ref = open_video(test::clip(pair, "ref").string());
        auto dis = open_video(test::clip(pair, "dis").string());
        const VideoInfo& vi = ref->info();
        FeatureCollector out;
        PipelineOptions popts;
        popts.threads = threads;
        popts.subsample = 3;
        FramePipeline p({{info, OptionValues(info->options)}},
                        FrameGeometry{vi.width, vi.height, vi.bpc, vi.format}, popts, out);
        for (;;) {
            auto slot = p.acquire();
            if (!ref->read(slot->ref)) break;
            ASSERT_TRUE(dis->read(slot->dis));
            p.submit(std::move(slot));
        }
        p.finish();
        EXPECT_EQ(out.keys(),
                  (std::vector<std::string>(std::begin(kGoldenKeys), std::end(kGoldenKeys))));
        const auto golden = test::golden(pair, "subsample3.json");
        for (const auto& f : golden["frames"]) {
            const unsigned n = f["frameNum"].get<unsigned>();
            for (const char* key : kGoldenKeys)
                EXPECT_EQ(out.value(key, n), f["metrics"][key].get<double>())
                    << key << " frame " << n << " threads " << threads;
        }
    }
}

// p21 (18x18) is not a target because of ADM; motion there is well defined
// and libvmaf's default, scalar, AVX2 and no-thread runs all agree on it.
TEST(Motion, TinyPairP21AlsoBitExact) {
    const std::string pair = "p21_astronaut_18x18_420p8_x264crf30_tiny";
    const RecordingSink got = test::run_pair(pair, "motion");
    const auto golden = test::golden(pair, "default.json");
    for (const auto& f : golden["frames"])
        for (const char* key : kGoldenKeys)
            EXPECT_EQ(got.values.at(key).at(f["frameNum"].get<unsigned>()),
                      f["metrics"][key].get<double>()) << key;
}

TEST(Motion, RejectsAPictureOfAnotherGeometry) {
    auto fex = make({}, 16, 16, 8);
    RecordingSink sink;
    const Picture other = flat(17, 16, 8, 1);
    EXPECT_THROW(fex->extract(other, other, 0, sink), Error);
}

TEST(Motion, FramesMustArriveInOrder) {
    auto fex = make({}, 16, 16, 8);
    RecordingSink sink;
    const Picture a = flat(16, 16, 8, 1);
    fex->extract(a, a, 0, sink);
    EXPECT_THROW(fex->extract(a, a, 2, sink), Error);
}

TEST(Motion, MinimumSizeIs3x3) {
    const FeatureInfo* info = find_feature("motion");
    const OptionValues o(info->options);
    try {
        info->create(o, FrameGeometry{2, 9, 8, PixelFormat::yuv420});
        ADD_FAILURE() << "2x9 accepted";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "motion: picture 2x9 is too small, the minimum is 3x3");
    }
    EXPECT_THROW(info->create(o, FrameGeometry{9, 2, 8, PixelFormat::yuv420}), Error);
    // 3x3 and other tiny sizes: well defined (sanitizers check the reads).
    for (int bpc : {8, 16})
        for (auto [w, h] : {std::pair{3, 3}, std::pair{4, 7}, std::pair{5, 3}}) {
            std::vector<Picture> f;
            for (std::uint32_t i = 0; i < 3; ++i) f.push_back(textured(w, h, bpc, i));
            const RecordingSink s = run_frames(f);
            EXPECT_EQ(s.values.at(kSad).size(), 3u);
            EXPECT_GT(column(s, kSad)[1], 0.0);
        }
}

}  // namespace
}  // namespace vmafpp
