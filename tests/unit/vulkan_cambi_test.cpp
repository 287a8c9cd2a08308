// CAMBI's Vulkan twin (src/vulkan/vk_cambi_twin.cpp) against the scalar on
// the cases of support/cambi_cases.hpp. Skips without a Vulkan device.
#include <gtest/gtest.h>

#include <string>

#include "support/cambi_cases.hpp"
#include "vmafpp/error.hpp"

#if VMAFPP_HAVE_VULKAN
#include "vulkan/vk_cambi_twin.hpp"
#include "vulkan/vk_context.hpp"
#endif

namespace vmafpp {
namespace {

#if VMAFPP_HAVE_VULKAN

using namespace devtest;

CambiMaker vulkan_cambi() {
    return [](int w, int h, const cambi::ContrastSetup& setup) {
        return vk::make_cambi_twin(0, w, h, setup);
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

TEST(VulkanCambi, CValuesOfEveryScaleMatchTheScalarKernels) {
    VMAFPP_NEED_DEVICE();
    expect_c_values_of_every_scale(vulkan_cambi());
}

TEST(VulkanCambi, CValuesWhoseProductsPassTwoToThe24MatchTheScalar) {
    VMAFPP_NEED_DEVICE();
    expect_c_values_past_two_to_the_24(vulkan_cambi());
}

TEST(VulkanCambi, ScoresAtEveryDepthMatchTheScalar) {
    VMAFPP_NEED_DEVICE();
    expect_scores_at_every_depth(Backend::vulkan);
}

TEST(VulkanCambi, OptionsOfTheModelsAndPresetsMatchTheScalar) {
    VMAFPP_NEED_DEVICE();
    expect_scores_with_the_options(Backend::vulkan);
}

// The largest pictures the models score, one frame (the window of 65,
// whose products pass 2^24; about 40 s of CPU on lavapipe and the scalar).
TEST(VulkanCambi, UltraHdMatchesTheScalar) {
    VMAFPP_NEED_DEVICE();
    expect_scores_equal(Backend::vulkan, 3840, 2160, 10, CambiPattern::mixed, CambiPattern::stripes, {}, 1);
}

TEST(VulkanCambi, ASampleAboveTheBitDepthIsRefusedAsTheScalarDoes) {
    VMAFPP_NEED_DEVICE();
    expect_a_sample_above_the_depth_refused(Backend::vulkan);
}

#else

TEST(VulkanCambi, CValuesOfEveryScaleMatchTheScalarKernels) {
    GTEST_SKIP() << "skipped: this vmafpp was built without the Vulkan backend";
}

#endif

}  // namespace
}  // namespace vmafpp
