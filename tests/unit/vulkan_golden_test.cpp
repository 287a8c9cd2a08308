// --backend vulkan end to end: the CLI against every target golden of
// libvmaf 3.2.0 that the device twins compute (one run per corpus pair), the
// CLI's device errors, notes and --device_only, and the extractors with device twins against the CPU
// scalar on generated noise over a scan of widths and heights at every bit
// depth, all keys (debug on), bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "support/backend_run.hpp"
#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/feature.hpp"

#if VMAFPP_HAVE_VULKAN
#include "vulkan/vk_context.hpp"
#endif

namespace vmafpp {
namespace {

using nlohmann::json;

#if VMAFPP_HAVE_VULKAN

bool device_ready(std::string* why) {
    try {
        const auto devices = vk::list_devices();
        if (devices.empty() || !devices[0].int64) {
            *why = devices.empty() ? "no Vulkan device" : "device 0 lacks shaderInt64";
            return false;
        }
        return true;
    } catch (const Error& e) {
        *why = e.what();
        return false;
    }
}

#define VMAFPP_NEED_DEVICE()                                           \
    do {                                                               \
        std::string why_;                                              \
        if (!device_ready(&why_)) GTEST_SKIP() << "skipped: " << why_; \
    } while (0)

// Every target golden of the twins' features (default.json, gain_1.2.json,
// gain_1.5.json and, on p01, p03 and p19, the neg, 4k and bootstrap models)
// from ONE --device_only CLI run per pair: the default model's features,
// ADM at the two gain limits and the extra models (named, so that their keys
// differ) are all computed at once, every frame uploaded once, and each
// golden's keys are then compared, all of them, bit for bit. --device_only
// proves every extractor ran on the device. lavapipe is slow (about 1.7 s
// per megapixel-frame on 2 cores), so one ctest test per pair lets ctest -j2
// run two at a time.
struct Golden {
    const char* file;
    const char* model_name;  // the run's name for the golden's "vmaf" keys; nullptr: none
    bool every_pair;         // else only the pairs with extra-model goldens
};
const Golden kGoldens[] = {
    {"default.json", "vmaf", true},
    {"gain_1.2.json", nullptr, true},
    {"gain_1.5.json", nullptr, true},
    {"model_vmaf_v0.6.1neg.json", "neg", false},
    {"model_vmaf_4k_v0.6.1.json", "4k", false},
    {"model_vmaf_b_v0.6.3.json", "b", false},
};

class VulkanGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(VulkanGolden, EveryGoldenFromOneDeviceOnlyRun) {
    VMAFPP_NEED_DEVICE();
    const std::string& pair = GetParam();
    const bool extra_models = test::has_golden(pair, "model_vmaf_v0.6.1neg.json");
    std::string args =
        "--backend vulkan --device_only --threads 1 --feature adm=adm_enhn_gain_limit=1.2 "
        "--feature adm=adm_enhn_gain_limit=1.5";
    if (extra_models)
        args += " -m version=vmaf_v0.6.1 -m version=vmaf_v0.6.1neg:name=neg"
                " -m version=vmaf_4k_v0.6.1:name=4k -m version=vmaf_b_v0.6.3:name=b";
    const json got = test::cli_json(pair, args, "vulkan.all");
    int compared = 0, files = 0;
    for (const Golden& g : kGoldens) {
        if (!g.every_pair && !extra_models) continue;
        if (!test::has_golden(pair, g.file)) {
            ADD_FAILURE() << pair << " has no " << g.file;
            continue;
        }
        json want = test::golden(pair, g.file);
        if (g.model_name) want = test::with_model_named(want, g.model_name);
        compared += test::expect_same_json_values(got, want, pair + " " + g.file);
        ++files;
    }
    RecordProperty("goldens", std::to_string(files));
    RecordProperty("values", std::to_string(compared));
    EXPECT_GT(compared, 100);
}

INSTANTIATE_TEST_SUITE_P(Corpus, VulkanGolden, ::testing::ValuesIn(test::target_pairs()),
                         [](const auto& info) { return info.param; });

// The session's frame store (each frame uploaded once, shared by every
// twin, the next frame's upload overlapping the workers' compute) on its
// other path: VMAFPP_VULKAN_UPLOAD=staging makes lavapipe fill device-local
// buffers through staging copies, as on a discrete GPU. At --threads 0 and 3
// (the ring holds the frames in flight plus motion's history), with the
// five-frame motion window reading two frames back: the goldens of 8, 10 and
// 16-bit pairs, and the window against the CPU scalar.
TEST(VulkanFrameStore, StagingUploadsGiveTheGoldensAtAnyThreadCount) {
    VMAFPP_NEED_DEVICE();
    // Inherited by the CLI children (this process runs this one test).
    ASSERT_EQ(setenv("VMAFPP_VULKAN_UPLOAD", "staging", 1), 0);
    struct Unset {
        ~Unset() { unsetenv("VMAFPP_VULKAN_UPLOAD"); }
    } unset;
    int compared = 0;
    for (const char* pair : {"p22_rocket_48x48_420p8_x264crf32_small",
                             "p13_moon_352x288_444p10_x264crf30", "p15_chelsea_176x144_420p16_gblur"})
        for (const char* threads : {"0", "3"}) {
            const json got = test::cli_json(
                pair,
                std::string("--backend vulkan --device_only --threads ") + threads +
                    " --feature adm=adm_enhn_gain_limit=1.2 --feature motion=motion_five_frame_window=true:debug=true",
                std::string("vulkan.staging.t") + threads);
            compared += test::expect_same_json_values(got, test::golden(pair, "default.json"),
                                                      std::string(pair) + " staging threads " + threads);
            compared += test::expect_same_json_values(
                got, test::golden(pair, "gain_1.2.json"),
                std::string(pair) + " gain_1.2 staging threads " + threads);
            const json cpu = test::cli_json(
                pair, std::string("-n --cpumask 4294967295 --threads ") + threads +
                          " --feature motion=motion_five_frame_window=true:debug=true",
                std::string("cpu.motion5.t") + threads);
            compared += test::expect_same_json_values(got, cpu, std::string(pair) + " five-frame motion");
        }
    RecordProperty("values", std::to_string(compared));
    EXPECT_GT(compared, 1000);
}

// The CLI's device errors and notes: --list-devices lists device 0, a
// missing device index is refused with one line and a non-zero exit, and a
// feature without a device twin runs on the CPU with one note on stderr.
TEST(VulkanCli, ListsDevicesRefusesMissingOnesAndNotesCpuFallbackOnce) {
    VMAFPP_NEED_DEVICE();
    std::string out;
    EXPECT_EQ(test::run_command(std::string(VMAFPP_CLI) + " --backend vulkan --list-devices", &out), 0);
    EXPECT_EQ(out.rfind("0: ", 0), 0u) << out;

    const std::string pair = "p22_rocket_48x48_420p8_x264crf32_small";
    const std::string io = " -r '" + test::clip(pair, "ref").string() + "' -d '" +
                           test::clip(pair, "dis").string() + "' -q --json -o '" +
                           (test::work_dir() / "vulkan_cli.json").string() + "'";
    EXPECT_NE(test::run_command(std::string(VMAFPP_CLI) + " --backend vulkan --device 99" + io, &out), 0);
    EXPECT_NE(out.find("vulkan: no device 99"), std::string::npos) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;

    EXPECT_EQ(test::run_command(std::string(VMAFPP_CLI) + " --backend vulkan --threads 2 -n "
                                "--feature psnr --feature vif" + io, &out), 0) << out;
    const std::string note = "vmafpp: psnr has no vulkan twin; it runs on the CPU";
    ASSERT_NE(out.find(note), std::string::npos) << out;
    EXPECT_EQ(out.find(note), out.rfind(note)) << "noted more than once: " << out;
    EXPECT_EQ(out.find("vif has no vulkan twin"), std::string::npos) << out;
}

// --device_only: a feature without a device twin (asked for with --feature
// or needed by a model) is refused with one line and a non-zero exit and no
// output file, before any frame is scored; with only twinned features the
// run succeeds and names no CPU fallback.
TEST(VulkanCli, DeviceOnlyRefusesAFeatureWithoutATwin) {
    VMAFPP_NEED_DEVICE();
    const std::string pair = "p22_rocket_48x48_420p8_x264crf32_small";
    const auto out_file = test::work_dir() / "vulkan_device_only.json";
    const std::string io = " -r '" + test::clip(pair, "ref").string() + "' -d '" +
                           test::clip(pair, "dis").string() + "' -q --json -o '" +
                           out_file.string() + "'";
    const std::string cli = std::string(VMAFPP_CLI) + " --backend vulkan --device_only";
    for (const char* features : {"-n --feature vif --feature psnr", "--feature float_ssim"}) {
        std::filesystem::remove(out_file);
        std::string out;
        EXPECT_NE(test::run_command(cli + " --threads 2 " + features + io, &out), 0) << features;
        const std::string refused = std::string("vmafpp: --device_only: ") +
                                    (features[1] == 'n' ? "psnr" : "float_ssim") +
                                    " has no vulkan twin";
        EXPECT_EQ(out.rfind(refused, 0), 0u) << features << ": " << out;
        EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
        EXPECT_FALSE(std::filesystem::exists(out_file)) << features << ": an output was written";
    }
    std::string out;
    EXPECT_EQ(test::run_command(cli + " --threads 2 -n --feature vif --feature adm --feature motion" + io, &out), 0) << out;
    EXPECT_EQ(out.find("twin"), std::string::npos) << out;
    EXPECT_TRUE(std::filesystem::exists(out_file));
}

// Every width 17..260 at height 64 and every height 17..80 at width 64, at
// 8, 10, 12 and 16 bits (about 18 s on lavapipe on 2 cores).
// ADM at the gain limits 1, 1.2, 1.5 and 100 over a coarser size scan.
TEST(VulkanSizes, AdmGainLimitsEqualTheCpuScalar) {
    VMAFPP_NEED_DEVICE();
    const auto keep = vk::context_for(0);
    int compared = 0;
    for (const char* gain : {"1", "1.2", "1.5", "100"})
        for (int bpc : {8, 10, 12, 16})
            for (int w = 17; w <= 260; w += 27) compared += test::expect_device_equals_cpu(Backend::vulkan, "adm", w, 40, bpc, gain);
    RecordProperty("values", std::to_string(compared));
}

TEST(VulkanSizes, MotionVifAndAdmEqualTheCpuScalar) {
    VMAFPP_NEED_DEVICE();
    // One device and its compiled pipelines for every size.
    const auto keep = vk::context_for(0);
    int compared = 0;
    for (int bpc : {8, 10, 12, 16}) {
        for (int w = 17; w <= 260; ++w)
            for (const char* f : {"vif", "motion", "adm"}) compared += test::expect_device_equals_cpu(Backend::vulkan, f, w, 64, bpc);
        for (int h = 17; h <= 80; ++h)
            for (const char* f : {"vif", "motion", "adm"}) compared += test::expect_device_equals_cpu(Backend::vulkan, f, 64, h, bpc);
    }
    RecordProperty("values", std::to_string(compared));
}

#endif

}  // namespace
}  // namespace vmafpp
