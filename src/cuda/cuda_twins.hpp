// The CUDA backend: device twins of integer motion, VIF, ADM, SpEED and CAMBI (the
// interfaces of src/<feature>/<feature>_twin.hpp) and the device list,
// registered by cuda_backend.cpp. Included only
// where VMAFPP_HAVE_CUDA is set; the kernels (cuda_twins.cu) are thin loops
// over the per-thread functions in src/<feature>/*_cuda_math.cuh.
//
// Every CUDA failure becomes a one-line vmafpp::Error; without a driver or
// a device: "--backend cuda: no CUDA device (<the runtime's reason>)".
// Each twin owns its stream, device buffers and pinned host buffers, all
// allocated when it is made (nothing per frame; the pictures of the calls
// with host pointers on the first such call), and selects its device on
// every call (the current device is per host thread). A session's pictures
// reach the device once per frame through its frame store, on the store's
// own stream; a twin's stream waits for a frame's upload by an event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "adm/adm_twin.hpp"
#include "cambi/cambi_twin.hpp"
#include "device/backend.hpp"
#include "motion/motion_twin.hpp"
#include "speed/speed_twin.hpp"
#include "vif/vif_twin.hpp"

namespace vmafpp::cuda {

// The number of CUDA devices; throws vmafpp::Error when the runtime cannot
// reach a driver.
int device_count();
// One line per device: "<index>: <name> (compute capability x.y, N MiB)".
std::string describe_devices();

// The session's frame store on `device` (device::FrameStore): `slots`
// device buffers, a ring indexed by frame % slots, each a frame's reference
// luma from byte 0 and its distorted luma from the next multiple of 256
// bytes, rows w samples apart. put() packs the lumas into one of two pinned
// staging buffers (made once) and queues their copy on the store's own
// stream, with an event the reading twins' streams wait for
// (cudaStreamWaitEvent): the upload of frame n + 1 runs while the twins
// compute frame n. VMAFPP_CUDA_UPLOAD_DELAY_US=N (a test knob) idles the
// upload stream N microseconds before each copy.
std::shared_ptr<device::FrameStore> make_frame_store(unsigned device, const FrameGeometry& g,
                                                     unsigned slots);

// `frames`: the session's store (from make_frame_store on the same device
// and geometry), for sad_of_frames / run_frame; without it only sad / run.
std::unique_ptr<motion::MotionTwin> make_motion_twin(
    unsigned device, int w, int h, int bpc, std::shared_ptr<device::FrameStore> frames = nullptr);
// With accumulate_gain_limit, the twin also runs vif_accumulate on the device
// (VifTwin::sums) and reads back only the sums.
std::unique_ptr<vif::VifTwin> make_vif_twin(
    unsigned device, int w, int h, int bpc,
    std::optional<double> accumulate_gain_limit = std::nullopt,
    std::shared_ptr<device::FrameStore> frames = nullptr);
std::unique_ptr<adm::AdmTwin> make_adm_twin(
    unsigned device, int w, int h, int bpc, const adm::AdmDeviceParams scales[adm::kScales],
    double gain_limit, bool skip_scale0, bool skip_aim,
    std::shared_ptr<device::FrameStore> frames = nullptr);

// SpEED's picture preparation (cuda_speed_twin.cu) for `gsm`'s geometry and
// options (any prescale method); `difference`:
// speed_temporal's a - b.
std::unique_ptr<speed::SpeedTwin> make_speed_twin(unsigned device, const speed::Gsm& gsm,
                                                   bool difference);

// CAMBI's per-pixel stages and c-values (cuda_cambi_twin.cu) for pictures
// up to alloc_w x alloc_h scored with `setup` (its tables are copied).
std::unique_ptr<cambi::CambiTwin> make_cambi_twin(unsigned device, int alloc_w, int alloc_h,
                                                   const cambi::ContrastSetup& setup);

// The gain product of the decouple kernel (adm_cuda_math.cuh gain_product)
// on the device, for the test that sweeps it against the host's double
// product: out[i] = trunc(fl(rst[i] * gain)).
void gain_products_on_device(unsigned device, const std::int32_t* rst, std::size_t n, double gain,
                             std::int64_t* out);

}  // namespace vmafpp::cuda
