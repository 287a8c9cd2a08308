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
// prescale's coordinates (double then float in the scalar) computed on the
// host with the scalar's expressions into tables. A device backend registers
// its implementation under `kind` (device::BackendInfo::add_twin). Vulkan:
// src/vulkan/vk_speed_twin.cpp.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "device/backend.hpp"
#include "speed/speed_gsm.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::speed {

// Gsm::prepare on the device (Gsm::Preparer::prepare): the float picture
// of the samples (a - b for a difference), prescaled, blurred and decimated
// by 16, minus its local mean: op_h rows of op_w floats.
class SpeedTwin : public Gsm::Preparer {
public:
    static constexpr std::string_view kind = "speed";
    // Made for compute's device for `gsm`'s geometry and options (its
    // prescale one twin_scales accepts); `difference`: speed_temporal's a - b.
    using Factory = std::function<std::unique_ptr<SpeedTwin>(const Compute& compute, const Gsm& gsm,
                                                             bool difference)>;
};

// Whether the twins compute this prescale on the device: nearest and
// bilinear (libvmaf's models use bilinear), or none.
inline bool twin_scales(const Gsm& gsm) {
    const Dimensions& d = gsm.dims();
    const Params& p = gsm.params();
    return prescale_is_identity(p.prescale) || (d.scaled_w == d.width && d.scaled_h == d.height) ||
           p.method == ScaleMethod::nearest || p.method == ScaleMethod::bilinear;
}

// The twin of `compute`'s backend for `gsm`, or nullptr (the CPU). A
// bicubic or lanczos4 prescale runs on the CPU; with --device_only it is
// refused (vmafpp::Error).
inline std::unique_ptr<SpeedTwin> make_speed_twin(const Compute& compute, const Gsm& gsm,
                                                  const char* feature) {
    if (compute.backend == Backend::cpu) return nullptr;
    if (!twin_scales(gsm)) {
        if (compute.device_only)
            throw Error(std::string("--device_only: ") + feature +
                        "'s bicubic and lanczos4 prescale have no " + backend_name(compute.backend) +
                        " twin (nearest and bilinear have)");
        return nullptr;
    }
    return device::make_twin<SpeedTwin>(compute, gsm, std::string_view(feature) == "speed_temporal");
}

}  // namespace vmafpp::speed
