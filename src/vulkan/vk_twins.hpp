// The device twins of the integer extractors' kernels on the Vulkan
// backend (the interfaces are src/<feature>/<feature>_twin.hpp's; the
// extractors reach these through the registration in vk_backend.cpp). A twin returns exactly the
// integers of the scalar kernels; the extractor keeps its own double
// finalisation, so the scores are the scalar's bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "adm/adm_twin.hpp"
#include "device/backend.hpp"
#include "motion/motion_twin.hpp"
#include "vif/vif_twin.hpp"

namespace vmafpp::vk {

using adm::AdmTwin;
using device::TwinTimes;
using motion::MotionTwin;
using vif::VifTwin;

// The session's frame store on `device` (device::FrameStore): `slots`
// buffers, each a frame's reference luma from sample 0 and its distorted luma
// from the next multiple of 4 samples, rows w samples apart (the layout the
// twins' shaders read). Filled by memcpy where the host writes device memory
// (Context::unified_memory), else through a staging buffer and a copy on the
// queue that the twins' later submissions wait for.
std::shared_ptr<device::FrameStore> make_frame_store(unsigned device, const FrameGeometry& g,
                                                     unsigned slots);

// `frames`: the session's store (from make_frame_store on the same device),
// for sad_of_frames / run_frame; without it only sad / run.
std::unique_ptr<MotionTwin> make_motion_twin(unsigned device, int w, int h, int bpc,
                                             std::shared_ptr<device::FrameStore> frames = nullptr);
std::unique_ptr<VifTwin> make_vif_twin(unsigned device, int w, int h, int bpc,
                                       std::shared_ptr<device::FrameStore> frames = nullptr);
std::unique_ptr<AdmTwin> make_adm_twin(unsigned device, int w, int h, int bpc,
                                       const adm::AdmDeviceParams scales[adm::kScales],
                                       double gain_limit, bool skip_scale0, bool skip_aim,
                                       std::shared_ptr<device::FrameStore> frames = nullptr);

// The gain-limit product adm_gain_limit_product() on the device, for the
// test that sweeps it against the double product: out[i] =
// trunc(fl(rst[i] * gain)) with the limit given as m * 2^-s
// (adm::gain_limit_fixed).
void gain_products_on_device(unsigned device, const std::int32_t* rst, std::size_t n,
                             std::uint64_t m, int s, std::int64_t* out);

}  // namespace vmafpp::vk
