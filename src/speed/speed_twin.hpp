// SpEED's device twin (speed_chroma, speed_temporal): the picture
// preparation, which reads every sample of the plane, runs on the device;
// the model fit (Gsm::estimate: the 25x25 covariance, whose double sums
// must follow the scalar's row-major order, the eigenvalues, the solve and
// the entropies) stays on the host, on the prepared picture the twin hands
// back. Every value the device computes is a binary32 of the scalar's own
// float arithmetic (libvmaf computes the preparation in float, nothing in
// double): additions, subtractions and multiplications in the scalar's
// order, which Vulkan rounds correctly and `precise` keeps unfused; the
// division by 2^(bpc-8) as the exact multiplication by its reciprocal; the
// prescale's coordinates (double then float in the scalar) and the bicubic
// and lanczos4 weights (lanczos' a double expression narrowed to float)
// computed on the host with the scalar's own functions into tables; the
// lanczos4 value / weight_sum a correctly rounded division (IEEE on CUDA,
// in integers in the shader: speed_shared.h's speed_divide_bits, proven
// there). A device backend registers its implementation under `kind`
// (device::BackendInfo::add_twin). Vulkan: src/vulkan/vk_speed_twin.cpp,
// CUDA: src/cuda/cuda_speed_twin.cu.
#pragma once

#include <functional>
#include <memory>
#include <string_view>

#include "device/backend.hpp"
#include "speed/speed_gsm.hpp"

namespace vmafpp::speed {

// Gsm::prepare on the device (Gsm::Preparer::prepare): the float picture
// of the samples (a - b for a difference), prescaled, blurred and decimated
// by 16, minus its local mean: op_h rows of op_w floats.
class SpeedTwin : public Gsm::Preparer {
public:
    static constexpr std::string_view kind = "speed";
    // Made for compute's device for `gsm`'s geometry and options (any
    // prescale); `difference`: speed_temporal's a - b.
    using Factory = std::function<std::unique_ptr<SpeedTwin>(const Compute& compute, const Gsm& gsm,
                                                             bool difference)>;
};

// The twin of `compute`'s backend for `gsm`, or nullptr (the CPU). Every
// prescale method (nearest, bilinear, bicubic, lanczos4) runs on the device.
inline std::unique_ptr<SpeedTwin> make_speed_twin(const Compute& compute, const Gsm& gsm,
                                                  const char* feature) {
    if (compute.backend == Backend::cpu) return nullptr;
    return device::make_twin<SpeedTwin>(compute, gsm, std::string_view(feature) == "speed_temporal");
}

}  // namespace vmafpp::speed
