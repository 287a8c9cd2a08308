// --backend vulkan end to end: the CLI against libvmaf 3.2.0's goldens on a
// few corpus pairs (lavapipe is slow on the 2-core CI machine: each pair
// costs seconds, so a subset covering 8, 12 and 16 bits, a tiny picture and
// the extra models), and the extractors with device twins against the CPU
// scalar on generated noise over a scan of widths and heights at every bit
// depth, all keys (debug on), bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
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

struct DeviceRun {
    const char* pair;
    const char* golden;
    const char* args;
};

// 8, 10, 12 and 16 bits, 4:2:0 and 4:4:4, a 48x48 picture, the gain-limit
// runs and the 4k, neg and bootstrap models.
const DeviceRun kRuns[] = {
    {"p08_brick_176x144_420p8_bilinear2x", "default.json", "--threads 1"},
    {"p08_brick_176x144_420p8_bilinear2x", "gain_1.2.json",
     "-n --cpumask 4294967295 --feature adm=adm_enhn_gain_limit=1.2 --feature vif --feature motion"},
    {"p08_brick_176x144_420p8_bilinear2x", "gain_1.5.json",
     "-n --cpumask 4294967295 --feature adm=adm_enhn_gain_limit=1.5 --feature vif --feature motion"},
    {"p22_rocket_48x48_420p8_x264crf32_small", "default.json", "--threads 2"},
    {"p13_moon_352x288_444p10_x264crf30", "default.json", "--threads 2"},
    {"p14_grass_352x288_420p12_x265crf30", "default.json", "--threads 2"},
    {"p15_chelsea_176x144_420p16_gblur", "default.json", "--threads 1"},
    {"p01_astronaut_576x324_420p8_x264crf23", "model_vmaf_v0.6.1neg.json",
     "--threads 2 -m version=vmaf_v0.6.1neg"},
    {"p01_astronaut_576x324_420p8_x264crf23", "model_vmaf_4k_v0.6.1.json",
     "--threads 2 -m version=vmaf_4k_v0.6.1"},
    {"p01_astronaut_576x324_420p8_x264crf23", "model_vmaf_b_v0.6.3.json",
     "--threads 2 -m version=vmaf_b_v0.6.3"},
};

TEST(VulkanGolden, CliOutputEqualsTheGoldens) {
    VMAFPP_NEED_DEVICE();
    int compared = 0;
    for (const DeviceRun& r : kRuns) {
        if (!test::has_golden(r.pair, r.golden)) {
            ADD_FAILURE() << r.pair << " has no " << r.golden;
            continue;
        }
        const json want = test::golden(r.pair, r.golden);
        const json got = test::cli_json(r.pair, std::string("--backend vulkan ") + r.args, "vulkan." + std::string(r.golden));
        compared += test::expect_same_json_values(got, want, std::string(r.pair) + " " + r.golden);
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

// Every width 17..260 at height 64 and every height 17..80 at width 64 for
// 8-bit pictures; every seventh size at 10, 12 and 16 bits (the
// shaders' bit-depth branches do not depend on the size). VMAFPP_SLOW_TESTS
// runs every size at every depth.
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
    const bool all = std::getenv("VMAFPP_SLOW_TESTS") != nullptr;
    int compared = 0;
    for (int bpc : {8, 10, 12, 16}) {
        const int step = bpc == 8 || all ? 1 : 7;
        for (int w = 17; w <= 260; w += step)
            for (const char* f : {"vif", "motion", "adm"}) compared += test::expect_device_equals_cpu(Backend::vulkan, f, w, 64, bpc);
        for (int h = 17; h <= 80; h += step)
            for (const char* f : {"vif", "motion", "adm"}) compared += test::expect_device_equals_cpu(Backend::vulkan, f, 64, h, bpc);
    }
    RecordProperty("values", std::to_string(compared));
}

#endif

}  // namespace
}  // namespace vmafpp
