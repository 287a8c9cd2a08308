// SpEED's Vulkan twin (src/vulkan/vk_speed_twin.cpp) against the scalar
// picture preparation on the cases of support/speed_cases.hpp. Skips
// without a Vulkan device.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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
