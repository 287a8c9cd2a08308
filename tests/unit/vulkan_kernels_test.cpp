// The Vulkan device twins against the scalar kernels (a checkasm-like
// harness): every shader's integers on generated and hostile inputs, the
// gain-limit product on the device against the double product, and a scan
// of every embedded SPIR-V module for the Float64 capability. On a machine
// without a Vulkan device (or a build without the backend) the tests skip;
// CI and this project's machines run them on Mesa's lavapipe.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "adm/adm.hpp"
#include "adm/adm_gain_limit.hpp"
#include "adm/adm_kernels.hpp"
#include "adm/adm_shared.h"
#include "motion/motion_kernels.hpp"
#include "motion/motion_shared.h"
#include "speed/speed_shared.h"
#include "vif/vif_shared.h"
#include "vif/vif_kernels.hpp"
#include "support/device_checks.hpp"
#include "support/device_inputs.hpp"
#include "support/feature_run.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

#if VMAFPP_HAVE_VULKAN
#include "vulkan/vk_context.hpp"
#include "vulkan/vk_twins.hpp"
#endif

namespace vmafpp {
namespace {

using namespace devtest;

#if VMAFPP_HAVE_VULKAN

// Whether device 0 can run the shaders; the reason otherwise.
bool device_ready(std::string* why) {
    try {
        const auto devices = vk::list_devices();
        if (devices.empty()) {
            *why = "no Vulkan device";
            return false;
        }
        if (!devices[0].int64) {
            *why = "device 0 lacks shaderInt64";
            return false;
        }
        return true;
    } catch (const Error& e) {
        *why = e.what();
        return false;
    }
}

// Holds device 0's context for the whole test program: a twin made while
// another holds it reuses the device and its compiled pipelines.
std::shared_ptr<vk::Context> keep_device() {
    static std::shared_ptr<vk::Context> ctx = vk::context_for(0);
    return ctx;
}

#define VMAFPP_NEED_DEVICE()                                           \
    do {                                                               \
        std::string why_;                                              \
        if (!device_ready(&why_)) GTEST_SKIP() << "skipped: " << why_; \
        keep_device();                                                 \
    } while (0)

// SPIR-V: a 5-word header, then instructions whose first word is
// (word count << 16) | opcode. OpCapability is opcode 17, Float64 is 10.
TEST(VulkanSpirv, NoShaderDeclaresFloat64) {
    int shaders = 0;
    for (const vk::EmbeddedShader& s : vk::embedded_spirv()) {
        ++shaders;
        ASSERT_GE(s.count, 5u) << s.name;
        ASSERT_EQ(s.words[0], 0x07230203u) << s.name << ": not SPIR-V";
        int capabilities = 0;
        for (std::size_t i = 5; i < s.count;) {
            const std::uint32_t op = s.words[i] & 0xffffu, n = s.words[i] >> 16;
            ASSERT_GT(n, 0u) << s.name << ": malformed instruction at word " << i;
            if (op == 17) {
                ++capabilities;
                EXPECT_NE(s.words[i + 1], 10u) << s.name << " declares OpCapability Float64";
            }
            i += n;
        }
        EXPECT_GT(capabilities, 0) << s.name << ": no OpCapability found; the parse is wrong";
    }
    EXPECT_GE(shaders, 6) << "the embedded table lost shaders";
}

// Every shader's SPIR-V against the C++ side of its pipeline: the binding
// count vk_twins.cpp gives it and the size of the *_shared.h struct it
// pushes (Context::kernel runs the same check before making a pipeline);
// and a mismatch is refused.
TEST(VulkanSpirv, EveryPipelineMatchesItsShadersInterface) {
    const struct {
        const char* shader;
        int bindings;
        std::size_t push;
    } kPipelines[] = {
        {"motion", 3, sizeof(motion::MotionPush)},
        {"vif_stat_vertical", 2, sizeof(vif::VifStatPush)},
        {"vif_stat_horizontal", 2, sizeof(vif::VifSigmaPush)},
        {"vif_reduce_vertical", 2, sizeof(vif::VifReducePush)},
        {"vif_reduce_horizontal", 2, sizeof(vif::VifReduceRowPush)},
        {"adm_dwt", 2, sizeof(adm::AdmDwtPush)},
        {"adm_decouple", 2, sizeof(adm::AdmDecouplePush)},
        {"adm_cm", 2, sizeof(adm::AdmPoolPush)},
        {"adm_den", 2, sizeof(adm::AdmPoolPush)},
        {"adm_gain_limit", 2, sizeof(adm::AdmGainPush)},
        // SpEED's and CAMBI's push blocks are 8 or 4 int32 (12 for the
        // c-values walk), declared in vk_speed_twin.cpp / vk_cambi_twin.cpp.
        {"speed_picture", 5, 32},
        {"speed_vertical", 3, 32},
        {"speed_horizontal", 4, 32},
        {"speed_scale", 4, sizeof(speed::SpeedScalePush)},
        {"cambi_load", 5, 32},
        {"cambi_dither", 2, 16},
        {"cambi_mask", 2, 16},
        {"cambi_decimate", 4, 16},
        {"cambi_mode", 2, 16},
        {"cambi_c_values", 6, 48},
    };
    EXPECT_EQ(std::size(kPipelines), vk::embedded_spirv().size()) << "a shader is not listed here";
    for (const auto& p : kPipelines) {
        const auto push = static_cast<std::uint32_t>(p.push);
        EXPECT_NO_THROW(vk::check_interface(p.shader, p.bindings, push)) << p.shader;
        EXPECT_THROW(vk::check_interface(p.shader, p.bindings + 1, push), Error) << p.shader;
        EXPECT_THROW(vk::check_interface(p.shader, p.bindings, push + 4), Error) << p.shader;
    }
}

// adm_gain_limit_product() on the device against (int64_t)((double)rst * gain)
// on the seeds' sweep: every sample in [-300000, 300000] at 1.2, 1.5, 100, 1
// and the neighbours of 1, and random limits in [1, 100) with random
// samples over the whole int32 range.
TEST(VulkanGainProduct, MatchesTheDoubleProductOnTheDevice) {
    VMAFPP_NEED_DEVICE();
    const std::uint64_t compared = check_gain_products(
        [](const std::int32_t* rst, std::size_t n, double gain, std::int64_t* out) {
            const adm::GainLimitFixed f = adm::gain_limit_fixed(gain);
            vk::gain_products_on_device(0, rst, n, f.m, f.s, out);
        });
    RecordProperty("pairs", std::to_string(compared));
}

TEST(VulkanMotion, SadMatchesTheScalarKernel) {
    VMAFPP_NEED_DEVICE();
    check_motion_twins([](int w, int h, int bpc) { return vk::make_motion_twin(0, w, h, bpc); });
}

TEST(VulkanVif, StatisticsAndReductionsMatchTheScalarKernels) {
    VMAFPP_NEED_DEVICE();
    check_vif_twins([](int w, int h, int bpc) { return vk::make_vif_twin(0, w, h, bpc); });
}


// The ADM twin (DWT, decouple with the angle test and the gain product,
// masking with the int32 centre tap and the exact excess, denominator) on
// the seeds' pictures, every gain limit of the goldens and 100, against the
// CPU scalar: every debug value of every scale, bit for bit.
TEST(VulkanAdm, SeedsPicturesMatchTheCpuScalar) {
    VMAFPP_NEED_DEVICE();
    const FeatureInfo* info = find_feature("adm");
    int compared = 0;
    const int sizes[][2] = {{24, 24}, {64, 64}, {96, 64}, {67, 21}};
    for (Trap trap : {Trap::flat_patches, Trap::stripes, Trap::impulses, Trap::blocks, Trap::contrast})
        for (int bpc : {8, 10, 16})
            for (const auto& wh : sizes)
                for (const char* gain : {"1", "1.2", "1.5", "100"}) {
                    std::mt19937 rng(static_cast<unsigned>(wh[0] * 131 + bpc));
                    const Picture ref = trap_picture(trap, wh[0], wh[1], bpc, false, rng);
                    const Picture dis = trap_picture(trap, wh[0], wh[1], bpc, true, rng);
                    OptionValues opts =
                        test::options_for(*info, {{"debug", "true"}, {"adm_enhn_gain_limit", gain}});
                    const FrameGeometry geo{wh[0], wh[1], bpc, PixelFormat::yuv400};
                    Compute cpu;
                    cpu.simd = SimdLevel::scalar;
                    Compute dev = cpu;
                    dev.backend = Backend::vulkan;
                    test::RecordingSink a, b;
                    info->create(opts, geo, cpu)->extract(ref, dis, 0, a);
                    info->create(opts, geo, dev)->extract(ref, dis, 0, b);
                    for (const auto& [key, frames] : a.values) {
                        ++compared;
                        EXPECT_EQ(b.values[key][0], frames.at(0))
                            << "trap " << static_cast<int>(trap) << " " << wh[0] << "x" << wh[1]
                            << " bpc " << bpc << " gain " << gain << " " << key << ": device "
                            << test::g17(b.values[key][0]) << " cpu " << test::g17(frames.at(0));
                    }
                }
    RecordProperty("values", std::to_string(compared));
}

// The ADM twin's decouple, denominator and masking shaders on hostile
// bands of every scale against the scalar kernels (device_checks.hpp).
TEST(VulkanAdm, StagesOnHostileBandsMatchTheScalarKernels) {
    VMAFPP_NEED_DEVICE();
    check_adm_twins_on_bands([](int w, int h, int bpc, const adm::AdmDeviceParams* p, double gain,
                                bool skip0, bool skip_aim) {
        return vk::make_adm_twin(0, w, h, bpc, p, gain, skip0, skip_aim);
    });
}

#else

TEST(VulkanSpirv, NoShaderDeclaresFloat64) {
    GTEST_SKIP() << "skipped: this vmafpp was built without the Vulkan backend";
}

#endif

}  // namespace
}  // namespace vmafpp
