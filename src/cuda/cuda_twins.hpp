// The CUDA backend: device twins of integer motion, VIF and ADM
// (device/device_twins.hpp interfaces) and the device list. Included only
// where VMAFPP_HAVE_CUDA is set; the kernels (cuda_twins.cu) are thin loops
// over the per-thread functions in src/<feature>/*_cuda_math.cuh.
//
// Every CUDA failure becomes a one-line vmafpp::Error; without a driver or
// a device: "--backend cuda: no CUDA device (<the runtime's reason>)".
// Each twin owns its stream, device buffers and pinned host buffers, all
// allocated when it is made (nothing per frame), and selects its device on
// every call (the current device is per host thread).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "device/device_twins.hpp"

namespace vmafpp::cuda {

// The number of CUDA devices; throws vmafpp::Error when the runtime cannot
// reach a driver.
int device_count();
// One line per device: "<index>: <name> (compute capability x.y, N MiB)".
std::string describe_devices();

std::unique_ptr<device::MotionTwin> make_motion_twin(unsigned device, int w, int h, int bpc);
// With accumulate_gain_limit, the twin also runs vif_accumulate on the device
// (VifTwin::sums) and reads back only the sums.
std::unique_ptr<device::VifTwin> make_vif_twin(
    unsigned device, int w, int h, int bpc,
    std::optional<double> accumulate_gain_limit = std::nullopt);
std::unique_ptr<device::AdmTwin> make_adm_twin(unsigned device, int w, int h, int bpc,
                                               const adm::AdmDeviceParams scales[adm::kScales],
                                               double gain_limit, bool skip_scale0, bool skip_aim);

// The gain product of the decouple kernel (adm_cuda_math.cuh gain_product)
// on the device, for the test that sweeps it against the host's double
// product: out[i] = trunc(fl(rst[i] * gain)).
void gain_products_on_device(unsigned device, const std::int32_t* rst, std::size_t n, double gain,
                             std::int64_t* out);

}  // namespace vmafpp::cuda
