// SpEED's CUDA twin (src/cuda/cuda_speed_twin.cu) against the scalar picture
// preparation on the cases of support/speed_cases.hpp, twice:
// - CudaEmulation.Speed*: the per-thread functions its kernels call
//   (speed/speed_cuda_math.cuh) over the whole grid on the host
//   (support/cuda_grid_emulation.hpp); no GPU needed.
// - CudaDevice.Speed*: the twin itself on device 0; skips where the build
//   lacks the backend or the machine a CUDA device.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/cambi_cases.hpp"
#include "support/cuda_grid_emulation.hpp"
#include "support/speed_cases.hpp"
#include "vmafpp/error.hpp"

#if VMAFPP_HAVE_CUDA
#include "cuda/cuda_twins.hpp"
#endif

namespace vmafpp {
namespace {

using namespace devtest;

void expect_cases(const std::vector<SpeedCase>& cases, const SpeedMaker& make) {
    for (const SpeedCase& c : cases) EXPECT_EQ(compare_speed(c, make), "") << describe(c);
}

SpeedMaker emulated_speed() {
    return [](const speed::Gsm& gsm, bool difference) {
        return std::make_unique<EmulatedSpeed>(gsm, difference);
    };
}

TEST(CudaEmulation, SpeedPlanesAtEveryDepthMatchTheScalar) {
    expect_cases(speed_plane_cases(), emulated_speed());
}

TEST(CudaEmulation, SpeedTemporalDifferencesMatchTheScalar) {
    expect_cases(speed_temporal_cases(), emulated_speed());
}

TEST(CudaEmulation, SpeedPrescalesMatchTheScalar) {
    expect_cases(speed_prescale_cases(), emulated_speed());
}

TEST(CudaEmulation, SpeedBicubicAndLanczosPrescalesMatchTheScalar) {
    expect_cases(speed_kernel_prescale_cases(), emulated_speed());
}

// speed_chroma's and speed_temporal's scores through the extractors on
// `backend` against the CPU scalar: 8, 10 and 16 bits, odd sizes, the
// models' bilinear prescales, nearest, bicubic, lanczos4, a kernel scale of 2.
void expect_speed_scores(Backend backend) {
    using P = CambiPattern;
    for (const char* f : {"speed_chroma", "speed_temporal"}) {
        expect_feature_scores_equal(f, backend, 323, 247, 8, P::mixed, P::noise, {}, 3);
        expect_feature_scores_equal(f, backend, 323, 247, 10, P::ramp, P::mixed, {}, 3);
        expect_feature_scores_equal(f, backend, 323, 247, 16, P::extremes, P::mixed, {}, 3);
        expect_feature_scores_equal(f, backend, 640, 362, 10, P::mixed, P::noise,
                                    {{"speed_prescale", "0.5"}, {"speed_prescale_method", "bilinear"}}, 3);
        expect_feature_scores_equal(f, backend, 401, 301, 8, P::noise, P::mixed,
                                    {{"speed_prescale", "0.6"}, {"speed_prescale_method", "nearest"}}, 3);
        expect_feature_scores_equal(f, backend, 400, 360, 10, P::mixed, P::mixed,
                                    {{"speed_kernelscale", "2.0"}}, 3);
        expect_feature_scores_equal(f, backend, 257, 163, 10, P::noise, P::mixed,
                                    {{"speed_prescale", "1.5"}, {"speed_prescale_method", "bicubic"}}, 3);
        expect_feature_scores_equal(f, backend, 401, 301, 16, P::mixed, P::extremes,
                                    {{"speed_prescale", "0.7"}, {"speed_prescale_method", "lanczos4"}}, 3);
    }
}

TEST(CudaEmulation, SpeedScoresThroughTheExtractorsMatchTheScalar) {
    expect_speed_scores(emulation_backend());
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

SpeedMaker cuda_speed() {
    return [](const speed::Gsm& gsm, bool difference) {
        return cuda::make_speed_twin(0, gsm, difference);
    };
}

TEST(CudaDevice, SpeedPlanesAtEveryDepthMatchTheScalar) {
    VMAFPP_NEED_CUDA();
    expect_cases(speed_plane_cases(), cuda_speed());
}

TEST(CudaDevice, SpeedTemporalDifferencesMatchTheScalar) {
    VMAFPP_NEED_CUDA();
    expect_cases(speed_temporal_cases(), cuda_speed());
}

TEST(CudaDevice, SpeedPrescalesMatchTheScalar) {
    VMAFPP_NEED_CUDA();
    expect_cases(speed_prescale_cases(), cuda_speed());
}

TEST(CudaDevice, SpeedBicubicAndLanczosPrescalesMatchTheScalar) {
    VMAFPP_NEED_CUDA();
    expect_cases(speed_kernel_prescale_cases(), cuda_speed());
}

TEST(CudaDevice, SpeedScoresThroughTheExtractorsMatchTheScalar) {
    VMAFPP_NEED_CUDA();
    expect_speed_scores(Backend::cuda);
}

TEST(CudaDevice, SpeedUltraHdMatchesTheScalar) {
    VMAFPP_NEED_CUDA();
    expect_cases(speed_ultra_hd_cases(), cuda_speed());
}

#else

TEST(CudaDevice, SpeedPlanesAtEveryDepthMatchTheScalar) {
    GTEST_SKIP() << "skipped: this vmafpp was built without the CUDA backend";
}

#endif

}  // namespace
}  // namespace vmafpp
