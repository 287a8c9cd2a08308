// SpEED's Vulkan twin (src/vulkan/vk_speed_twin.cpp) against the scalar
// picture preparation on the cases of support/speed_cases.hpp. Skips
// without a Vulkan device.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/backend_run.hpp"
#include "support/speed_cases.hpp"
#include "vmafpp/error.hpp"

#if VMAFPP_HAVE_VULKAN
#include "vulkan/vk_context.hpp"
#include "vulkan/vk_speed_twin.hpp"
#endif

namespace vmafpp {
namespace {

#if VMAFPP_HAVE_VULKAN

using namespace devtest;

SpeedMaker vulkan_speed() {
    return [](const speed::Gsm& gsm, bool difference) {
        return vk::make_speed_twin(0, gsm, difference);
    };
}

bool device_ready(std::string* why) {
    try {
        if (vk::list_devices().empty()) {
            *why = "no Vulkan device";
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

void expect_cases(const std::vector<SpeedCase>& cases) {
    for (const SpeedCase& c : cases) EXPECT_EQ(compare_speed(c, vulkan_speed()), "") << describe(c);
}

TEST(VulkanSpeed, PlanesAtEveryDepthMatchTheScalar) {
    VMAFPP_NEED_DEVICE();
    expect_cases(speed_plane_cases());
}

TEST(VulkanSpeed, TemporalDifferencesMatchTheScalar) {
    VMAFPP_NEED_DEVICE();
    expect_cases(speed_temporal_cases());
}

TEST(VulkanSpeed, PrescalesMatchTheScalar) {
    VMAFPP_NEED_DEVICE();
    expect_cases(speed_prescale_cases());
}

// speed_scale.comp: bicubic and lanczos4 (its integer division) up and down.
TEST(VulkanSpeed, BicubicAndLanczosPrescalesMatchTheScalar) {
    VMAFPP_NEED_DEVICE();
    expect_cases(speed_kernel_prescale_cases());
}

// No corpus golden uses a bicubic or lanczos4 prescale (libvmaf's models
// use bilinear), so the CLI's --device_only run of both, up (1.2, 1.5, 2)
// and down (0.7), on an 8-bit and a 16-bit corpus pair, is compared with
// the CPU scalar's run, every value at 17 digits (about 20 s, 11 CPU-s, on lavapipe
// on a loaded 2-core machine; the CPU's lanczos4 weights, sines in double,
// cost as much as lavapipe's 81 taps).
TEST(VulkanSpeed, BicubicAndLanczosDeviceOnlyRunsEqualTheCpuScalar) {
    VMAFPP_NEED_DEVICE();
    const std::string features =
        " -n --feature speed_chroma=speed_prescale=1.5:speed_prescale_method=bicubic"
        " --feature speed_chroma=speed_prescale=1.2:speed_prescale_method=lanczos4"
        " --feature speed_temporal=speed_prescale=0.7:speed_prescale_method=lanczos4"
        " --feature speed_temporal=speed_prescale=2:speed_prescale_method=bicubic";
    int compared = 0;
    for (const char* pair : {"p01_astronaut_576x324_420p8_x264crf23", "p15_chelsea_176x144_420p16_gblur"}) {
        const nlohmann::json cpu = test::cli_json(pair, "--cpumask 4294967295" + features, "kspeed.cpu");
        const nlohmann::json dev =
            test::cli_json(pair, "--backend vulkan --device_only --threads 2" + features, "kspeed.vulkan");
        compared += test::expect_same_json_values(dev, cpu, pair, true);
    }
    EXPECT_GT(compared, 150);
}

// The largest pictures the models score, once each (about a second on lavapipe).
TEST(VulkanSpeed, UltraHdMatchesTheScalar) {
    VMAFPP_NEED_DEVICE();
    expect_cases(speed_ultra_hd_cases());
}

#else

TEST(VulkanSpeed, PlanesAtEveryDepthMatchTheScalar) {
    GTEST_SKIP() << "skipped: this vmafpp was built without the Vulkan backend";
}

#endif

}  // namespace
}  // namespace vmafpp
