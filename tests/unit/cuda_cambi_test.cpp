// CAMBI's CUDA twin (src/cuda/cuda_cambi_twin.cu) against the scalar on the
// cases of support/cambi_cases.hpp, twice:
// - CudaEmulation.Cambi*: the per-thread functions its kernels call
//   (cambi/cambi_cuda_math.cuh) over the whole grid on the host
//   (support/cuda_grid_emulation.hpp's EmulatedCambi), the scores through
//   the extractor on its emulation_backend(); no GPU needed.
// - CudaDevice.Cambi*: the twin itself on device 0; skips where the build
//   lacks the backend or the machine a CUDA device.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "device/backend.hpp"
#include "support/cambi_cases.hpp"
#include "support/cuda_grid_emulation.hpp"
#include "vmafpp/error.hpp"

#if VMAFPP_HAVE_CUDA
#include "cuda/cuda_twins.hpp"
#endif

namespace vmafpp {
namespace {

using namespace devtest;

CambiMaker emulated_cambi() {
    return [](int w, int h, const cambi::ContrastSetup& setup) {
        return std::make_unique<EmulatedCambi>(w, h, setup);
    };
}

TEST(CudaEmulation, CambiCValuesOfEveryScaleMatchTheScalarKernels) {
    expect_c_values_of_every_scale(emulated_cambi());
}

TEST(CudaEmulation, CambiCValuesWhoseProductsPassTwoToThe24MatchTheScalar) {
    expect_c_values_past_two_to_the_24(emulated_cambi());
}

TEST(CudaEmulation, CambiScoresAtEveryDepthMatchTheScalar) {
    expect_scores_at_every_depth(emulation_backend());
}

TEST(CudaEmulation, CambiOptionsOfTheModelsAndPresetsMatchTheScalar) {
    expect_scores_with_the_options(emulation_backend());
}

TEST(CudaEmulation, CambiASampleAboveTheBitDepthIsRefusedAsTheScalarDoes) {
    expect_a_sample_above_the_depth_refused(emulation_backend());
}

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

#define VMAFPP_NEED_CUDA()                                             \
    do {                                                               \
        std::string why_;                                              \
        if (!device_ready(&why_)) GTEST_SKIP() << "skipped: " << why_; \
    } while (0)

CambiMaker cuda_cambi() {
    return [](int w, int h, const cambi::ContrastSetup& setup) {
        return cuda::make_cambi_twin(0, w, h, setup);
    };
}

TEST(CudaDevice, CambiCValuesOfEveryScaleMatchTheScalarKernels) {
    VMAFPP_NEED_CUDA();
    expect_c_values_of_every_scale(cuda_cambi());
}

TEST(CudaDevice, CambiCValuesWhoseProductsPassTwoToThe24MatchTheScalar) {
    VMAFPP_NEED_CUDA();
    expect_c_values_past_two_to_the_24(cuda_cambi());
}

TEST(CudaDevice, CambiScoresAtEveryDepthMatchTheScalar) {
    VMAFPP_NEED_CUDA();
    expect_scores_at_every_depth(Backend::cuda);
}

TEST(CudaDevice, CambiOptionsOfTheModelsAndPresetsMatchTheScalar) {
    VMAFPP_NEED_CUDA();
    expect_scores_with_the_options(Backend::cuda);
}

TEST(CudaDevice, CambiUltraHdMatchesTheScalar) {
    VMAFPP_NEED_CUDA();
    expect_scores_equal(Backend::cuda, 3840, 2160, 10, CambiPattern::mixed, CambiPattern::stripes, {}, 1);
}

TEST(CudaDevice, CambiASampleAboveTheBitDepthIsRefusedAsTheScalarDoes) {
    VMAFPP_NEED_CUDA();
    expect_a_sample_above_the_depth_refused(Backend::cuda);
}

#else

TEST(CudaDevice, CambiCValuesOfEveryScaleMatchTheScalarKernels) {
    GTEST_SKIP() << "skipped: this vmafpp was built without the CUDA backend";
}

#endif

}  // namespace
}  // namespace vmafpp
