// SpEED's device twin (speed_chroma, speed_temporal): the picture
// preparation, which reads every sample of the plane, runs on the device;
// the model fit (Gsm::estimate: the 25x25 covariance, whose double sums
// must follow the scalar's row-major order, the eigenvalues, the solve and
// the entropies) stays on the host, on the prepared picture the twin hands
// back. Vulkan: src/vulkan/vk_speed_twin.cpp.
#pragma once

#include <cstddef>
#include <memory>

#include "speed/speed_gsm.hpp"
#include "vmafpp/compute.hpp"

namespace vmafpp::device {

// Gsm::prepare on the device (Gsm::Preparer::prepare): the float picture
// of the samples (a - b for a difference), prescaled, blurred and decimated
// by 16, minus its local mean: op_h rows of op_w floats.
using SpeedTwin = speed::Gsm::Preparer;

// The twin of `compute`'s device backend for `gsm`'s geometry and options,
// or nullptr on the CPU. Throws vmafpp::Error for options the twin does not
// compute on the device (a bicubic or lanczos4 prescale) when the session
// is --device_only; otherwise those run on the CPU (nullptr).
std::unique_ptr<SpeedTwin> make_speed_twin(const Compute& compute, const speed::Gsm& gsm,
                                           const char* feature);

// Whether the twin computes this prescale on the device: nearest and
// bilinear (libvmaf's models use bilinear), or none.
bool speed_twin_scales(const speed::Gsm& gsm);

}  // namespace vmafpp::device
