// --backend cuda end to end: the CLI against libvmaf 3.2.0's goldens on every
// corpus pair, and the extractors with device twins against the CPU scalar
// on generated noise over a scan of widths and heights at every bit depth,
// all keys (debug on), bit for bit. Skipped without a CUDA device, where
// CudaCli.NoDeviceIsAOneLineError runs instead.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "adm/adm_twin.hpp"
#include "device/backend.hpp"
#include "motion/motion_twin.hpp"
#include "vif/vif_twin.hpp"
#include "support/backend_run.hpp"
#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "support/score_runs.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/reader.hpp"
#include "vmafpp/vmafpp.hpp"

#if VMAFPP_HAVE_CUDA
#include "cuda/cuda_twins.hpp"
#endif

namespace vmafpp {
namespace {

using nlohmann::json;

#if VMAFPP_HAVE_CUDA

bool device_ready(std::string* why) {
    try {
        if (cuda::device_count() > 0) return true;
        *why = "no CUDA device";
    } catch (const Error& e) {
        *why = e.what();
    }
    return false;
}

#define VMAFPP_NEED_DEVICE()                                           \
    do {                                                               \
        std::string why_;                                              \
        if (!device_ready(&why_)) GTEST_SKIP() << "skipped: " << why_; \
    } while (0)

struct DeviceRun {
    const char* golden;
    const char* args;
};

// Every golden of the ADM, VIF and motion twins: the default model, the
// gain-limit runs and the extra models, on every target pair that has it
// (8, 10, 12 and 16 bits, 4:2:0, 4:2:2 and 4:4:4, 48x48 to 1920x1080).
const DeviceRun kRuns[] = {
    {"default.json", "--threads 1"},
    {"gain_1.2.json",
     "-n --cpumask 4294967295 --feature adm=adm_enhn_gain_limit=1.2 --feature vif --feature "
     "motion"},
    {"gain_1.5.json",
     "-n --cpumask 4294967295 --feature adm=adm_enhn_gain_limit=1.5 --feature vif --feature "
     "motion"},
    {"model_vmaf_v0.6.1neg.json", "--threads 2 -m version=vmaf_v0.6.1neg"},
    {"model_vmaf_4k_v0.6.1.json", "--threads 2 -m version=vmaf_4k_v0.6.1"},
    {"model_vmaf_b_v0.6.3.json", "--threads 2 -m version=vmaf_b_v0.6.3"},
};

TEST(CudaGolden, CliOutputEqualsTheGoldens) {
    VMAFPP_NEED_DEVICE();
    int compared = 0, runs = 0;
    for (const std::string& pair : test::corpus_pairs()) {
        // p21 (18x18): libvmaf reads memory it never wrote; not a reference.
        if (pair.rfind("p21_", 0) == 0) continue;
        for (const DeviceRun& r : kRuns) {
            if (!test::has_golden(pair, r.golden)) continue;
            ++runs;
            const json want = test::golden(pair, r.golden);
            const json got = test::cli_json(pair, std::string("--backend cuda ") + r.args, "cuda." + std::string(r.golden));
            compared += test::expect_same_json_values(got, want, pair + " " + r.golden);
        }
    }
    RecordProperty("runs", std::to_string(runs));
    RecordProperty("values", std::to_string(compared));
    EXPECT_GT(runs, 60);
}

// The CLI's device errors and notes: --list-devices lists device 0, a
// missing device index is refused with one line and a non-zero exit, and a
// feature without a device twin runs on the CPU with one note on stderr.
TEST(CudaCli, ListsDevicesRefusesMissingOnesAndNotesCpuFallbackOnce) {
    VMAFPP_NEED_DEVICE();
    std::string out;
    EXPECT_EQ(test::run_command(std::string(VMAFPP_CLI) + " --backend cuda --list-devices", &out),
              0);
    EXPECT_EQ(out.rfind("0: ", 0), 0u) << out;

    const std::string pair = "p22_rocket_48x48_420p8_x264crf32_small";
    const std::string io = " -r '" + test::clip(pair, "ref").string() + "' -d '" +
                           test::clip(pair, "dis").string() + "' -q --json -o '" +
                           (test::work_dir() / "cuda_cli.json").string() + "'";
    EXPECT_NE(test::run_command(std::string(VMAFPP_CLI) + " --backend cuda --device 99" + io, &out),
              0);
    EXPECT_NE(out.find("--backend cuda: no device 99"), std::string::npos) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;

    EXPECT_EQ(test::run_command(std::string(VMAFPP_CLI) +
                                    " --backend cuda --threads 2 -n "
                                    "--feature psnr --feature vif" +
                                    io,
                                &out),
              0)
        << out;
    const std::string note = "vmafpp: psnr has no cuda twin; it runs on the CPU";
    ASSERT_NE(out.find(note), std::string::npos) << out;
    EXPECT_EQ(out.find(note), out.rfind(note)) << "noted more than once: " << out;
    EXPECT_EQ(out.find("vif has no cuda twin"), std::string::npos) << out;
}

// The slots of a session's frame store in the size scans: the pipeline's
// count at --threads 0 (one frame in flight plus motion's two of history).
constexpr unsigned kStoreSlots = 3;

// ADM at the gain limits 1, 1.2, 1.5 and 100 over a coarser size scan,
// through the session's frame store (the path of every CLI run).
TEST(CudaSizes, AdmGainLimitsEqualTheCpuScalar) {
    VMAFPP_NEED_DEVICE();
    int compared = 0;
    for (const char* gain : {"1", "1.2", "1.5", "100"})
        for (int bpc : {8, 10, 12, 16})
            for (int w = 17; w <= 260; w += 27)
                compared += test::expect_device_equals_cpu(Backend::cuda, "adm", w, 40, bpc, gain,
                                                           kStoreSlots);
    RecordProperty("values", std::to_string(compared));
}

// Every width 17..260 at height 64 and every height 17..80 at width 64, at
// 8, 10, 12 and 16 bits, through the session's frame store (every plane
// size and row length against the store's packed layout and the gap before
// the distorted plane).
TEST(CudaSizes, MotionVifAndAdmEqualTheCpuScalar) {
    VMAFPP_NEED_DEVICE();
    int compared = 0;
    for (int bpc : {8, 10, 12, 16}) {
        for (int w = 17; w <= 260; ++w)
            for (const char* f : {"vif", "motion", "adm"})
                compared +=
                    test::expect_device_equals_cpu(Backend::cuda, f, w, 64, bpc, "", kStoreSlots);
        for (int h = 17; h <= 80; ++h)
            for (const char* f : {"vif", "motion", "adm"})
                compared +=
                    test::expect_device_equals_cpu(Backend::cuda, f, 64, h, bpc, "", kStoreSlots);
    }
    RecordProperty("values", std::to_string(compared));
}

// Every option of the three extractors that reaches a device twin or its
// host side (ADM's CSF modes, weights, skips and gain limit; VIF's gain limit
// and skip; motion's five-frame window, moving average, blend and fps
// weight), over 7 noise frames, device against the CPU scalar, every key;
// the twins handed the pictures and reading them from a frame store.
TEST(CudaOptions, EveryOptionEqualsTheCpuScalar) {
    VMAFPP_NEED_DEVICE();
    using Set = std::vector<std::pair<std::string, std::string>>;
    const std::pair<const char*, Set> runs[] = {
        {"adm", {{"adm_csf_mode", "1"}}},
        {"adm", {{"adm_csf_mode", "2"}, {"adm_enhn_gain_limit", "1.2"}}},
        {"adm", {{"adm_csf_mode", "3"}, {"adm_norm_view_dist", "5"}}},
        {"adm", {{"adm_skip_aim", "true"}, {"adm_skip_scale0", "true"}}},
        {"adm", {{"adm_noise_weight", "0.5"}, {"adm_dlm_weight", "0.8"}, {"adm_min_val", "0.1"}}},
        {"adm", {{"adm_csf_scale", "2"}, {"adm_csf_diag_scale", "0.5"}, {"adm_ref_display_height", "2160"}}},
        {"vif", {{"vif_enhn_gain_limit", "1"}}},
        {"vif", {{"vif_enhn_gain_limit", "1.5"}, {"vif_skip_scale0", "true"}}},
        {"motion", {{"motion_five_frame_window", "true"}}},
        {"motion", {{"motion_moving_average", "true"}, {"motion_blend_factor", "0.5"}}},
        {"motion", {{"motion_fps_weight", "2"}, {"motion_max_val", "3"}}},
    };
    int compared = 0;
    for (unsigned slots : {0u, kStoreSlots}) {
        for (int bpc : {8, 10, 12})
            for (const auto& [feature, set] : runs) {
                const FeatureInfo* info = find_feature(feature);
                Set all = set;
                all.emplace_back("debug", "true");
                const OptionValues opts = test::options_for(*info, all);
                test::RecordingSink sa, sb;
                test::run_scalar_and_device(
                    Backend::cuda, *info, opts, FrameGeometry{97, 61, bpc, PixelFormat::yuv420}, 7,
                    [](unsigned f) { return 3 + f % 3; }, [](unsigned f) { return 500 + f; }, sa,
                    sb, slots);
                EXPECT_EQ(sa.order, sb.order) << feature;
                for (const auto& [key, frames] : sa.values)
                    for (const auto& [f, v] : frames) {
                        ++compared;
                        // Bit for bit: a NaN (a skipped scale's 0 / 0) equals its own bits.
                        EXPECT_EQ(std::bit_cast<std::uint64_t>(sb.values[key][f]),
                                  std::bit_cast<std::uint64_t>(v))
                            << feature << " bpc " << bpc << " slots " << slots << " " << key
                            << " frame " << f << ": device " << test::g17(sb.values[key][f])
                            << " cpu " << test::g17(v);
                    }
            }
    }
    RecordProperty("values", std::to_string(compared));
    EXPECT_GT(compared, 1000);
}

// The session's frame store with frames in flight: each frame uploaded once
// on the store's stream, the next frame's upload overlapping the workers'
// compute, the twins' streams waiting for its event. At --threads 0, 3 and
// 8, and at 3 with every upload held back 2 ms on the device
// (VMAFPP_CUDA_UPLOAD_DELAY_US), so that a twin that did not wait for its
// frame's upload would read the slot's previous frame; with ADM at gain
// limit 1.2 and the five-frame motion window (reading two frames back), on
// 8, 10 and 16-bit pairs: the goldens, and the window against the CPU
// scalar.
TEST(CudaFrameStore, FramesInFlightGiveTheGoldens) {
    VMAFPP_NEED_DEVICE();
    struct Unset {
        ~Unset() { unsetenv("VMAFPP_CUDA_UPLOAD_DELAY_US"); }
    } unset;
    struct Run {
        const char* threads;
        const char* delay_us;  // nullptr: none
    };
    int compared = 0;
    for (const char* pair :
         {"p22_rocket_48x48_420p8_x264crf32_small", "p13_moon_352x288_444p10_x264crf30",
          "p15_chelsea_176x144_420p16_gblur"})
        for (const Run& r :
             {Run{"0", nullptr}, Run{"3", nullptr}, Run{"8", nullptr}, Run{"3", "2000"}}) {
            // Inherited by the CLI child.
            if (r.delay_us)
                ASSERT_EQ(setenv("VMAFPP_CUDA_UPLOAD_DELAY_US", r.delay_us, 1), 0);
            else
                unsetenv("VMAFPP_CUDA_UPLOAD_DELAY_US");
            const std::string what = std::string(pair) + " threads " + r.threads +
                                     (r.delay_us ? " delayed uploads" : "");
            const json got =
                test::cli_json(pair,
                               std::string("--backend cuda --device_only --threads ") + r.threads +
                                   " --feature adm=adm_enhn_gain_limit=1.2"
                                   " --feature motion=motion_five_frame_window=true:debug=true",
                               std::string("cuda.store.t") + r.threads + (r.delay_us ? "d" : ""));
            compared +=
                test::expect_same_json_values(got, test::golden(pair, "default.json"), what);
            compared += test::expect_same_json_values(got, test::golden(pair, "gain_1.2.json"),
                                                      what + " gain_1.2");
            const json cpu =
                test::cli_json(pair,
                               std::string("-n --cpumask 4294967295 --threads ") + r.threads +
                                   " --feature motion=motion_five_frame_window=true:debug=true",
                               std::string("cpu.motion5.t") + r.threads);
            compared += test::expect_same_json_values(got, cpu, what + " five-frame motion");
        }
    RecordProperty("values", std::to_string(compared));
    EXPECT_GT(compared, 1000);
}

ScoreRun score_in_process(const std::string& pair, Backend backend, unsigned threads) {
    auto ref = open_video(test::clip(pair, "ref").string());
    auto dis = open_video(test::clip(pair, "dis").string());
    ScoreConfig cfg;
    cfg.no_prediction = true;
    cfg.features = {"adm=debug=true", "vif=debug=true",
                    "motion=motion_five_frame_window=true:debug=true"};
    cfg.compute.backend = backend;
    cfg.compute.device_only = backend != Backend::cpu;
    cfg.compute.cpumask = 4294967295u;  // the CPU scalar
    cfg.threads = threads;
    return score(*ref, *dis, cfg);
}

// Two CUDA sessions at once in this process, on two threads, each with four
// workers over its own frame store (so two upload streams and ten compute
// streams share the device), 8 and 16 bits: every value equals the CPU
// scalar's. In this process, so that scripts/device-cuda can run it under
// compute-sanitizer (memcheck, racecheck, synccheck).
TEST(CudaFrameStore, TwoThreadedSessionsEqualTheCpuScalar) {
    VMAFPP_NEED_DEVICE();
    const std::string a = "p08_brick_176x144_420p8_bilinear2x";
    const std::string b = "p15_chelsea_176x144_420p16_gblur";
    const ScoreRun want_a = score_in_process(a, Backend::cpu, 4);
    const ScoreRun want_b = score_in_process(b, Backend::cpu, 4);
    std::unique_ptr<ScoreRun> got_a, got_b;
    std::exception_ptr error_a, error_b;
    auto session = [](const std::string& pair, std::unique_ptr<ScoreRun>* out,
                      std::exception_ptr* error) {
        try {
            *out = std::make_unique<ScoreRun>(score_in_process(pair, Backend::cuda, 4));
        } catch (...) {
            *error = std::current_exception();
        }
    };
    std::thread ta(session, a, &got_a, &error_a);
    std::thread tb(session, b, &got_b, &error_b);
    ta.join();
    tb.join();
    for (const std::exception_ptr& e : {error_a, error_b}) {
        if (!e) continue;
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& x) {
            FAIL() << x.what();
        }
    }
    ASSERT_TRUE(got_a && got_b);
    EXPECT_EQ(got_a->compute.backend, Backend::cuda);
    test::expect_same_run(want_a, *got_a, a);
    test::expect_same_run(want_b, *got_b, b);
    EXPECT_GT(want_a.values.keys().size(), 15u);
}

// A frame not (or no longer) in the store is an internal error, never
// stale data; a twin is refused a store of another geometry.
TEST(CudaFrameStore, AFrameNotInTheStoreIsAnError) {
    VMAFPP_NEED_DEVICE();
    Compute c;
    c.backend = Backend::cuda;
    const FrameGeometry g{64, 48, 10, PixelFormat::yuv420};
    c.frames = device::make_frame_store(c, g, 2);
    ASSERT_TRUE(c.frames);
    const auto vif = device::make_twin<vif::VifTwin>(c, g.width, g.height, g.bpc, std::nullopt);
    EXPECT_THROW(vif->run_frame(0, false), Error);
    for (unsigned f = 0; f < 3; ++f)
        c.frames->put(f, test::noise_picture(g.width, g.height, g.bpc, g.format, f),
                      test::noise_picture(g.width, g.height, g.bpc, g.format, 100 + f));
    EXPECT_NO_THROW(vif->run_frame(2, false));
    EXPECT_NO_THROW(vif->run_frame(1, false));
    EXPECT_THROW(vif->run_frame(0, false), Error);  // its slot holds frame 2
    EXPECT_THROW(device::make_twin<vif::VifTwin>(c, g.width + 2, g.height, g.bpc, std::nullopt), Error);
    EXPECT_THROW(device::make_twin<motion::MotionTwin>(c, g.width, g.height, 8), Error);
}

// Without a device (no driver, or none): --backend cuda is refused with one
// line naming the reason, never a crash, and --list-devices says the same.
TEST(CudaCli, NoDeviceIsAOneLineError) {
    std::string why;
    if (device_ready(&why)) GTEST_SKIP() << "skipped: a CUDA device exists";
    const std::string pair = "p22_rocket_48x48_420p8_x264crf32_small";
    const std::string io = " -r '" + test::clip(pair, "ref").string() + "' -d '" +
                           test::clip(pair, "dis").string() + "' -q --json -o '" +
                           (test::work_dir() / "cuda_nodev.json").string() + "'";
    std::string out;
    EXPECT_NE(test::run_command(std::string(VMAFPP_CLI) + " --backend cuda" + io, &out), 0);
    EXPECT_NE(out.find("--backend cuda: no CUDA device ("), std::string::npos) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
    EXPECT_NE(test::run_command(std::string(VMAFPP_CLI) + " --backend cuda --list-devices", &out),
              0);
    EXPECT_NE(out.find("--backend cuda: no CUDA device ("), std::string::npos) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
}

#endif

}  // namespace
}  // namespace vmafpp
