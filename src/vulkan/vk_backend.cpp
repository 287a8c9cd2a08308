// The Vulkan backend's registration (device/backend.hpp): its device list,
// its frame store and a factory per twin it implements. The registry's list
// (src/device/backend_list.cpp) calls backend() when the build has Vulkan.
#include "device/backend.hpp"
#include "vulkan/vk_cambi_twin.hpp"
#include "vulkan/vk_context.hpp"
#include "vulkan/vk_speed_twin.hpp"
#include "vulkan/vk_twins.hpp"

namespace vmafpp::vk {

device::BackendInfo backend() {
    device::BackendInfo b("vulkan", describe_devices, make_frame_store);
    b.add_twin<MotionTwin>([](const Compute& c, int w, int h, int bpc) {
        return make_motion_twin(c.device, w, h, bpc, c.frames);
    });
    // The shaders leave vif_accumulate to the host (VifTwin::sigma).
    b.add_twin<VifTwin>([](const Compute& c, int w, int h, int bpc, std::optional<double>) {
        return make_vif_twin(c.device, w, h, bpc, c.frames);
    });
    b.add_twin<AdmTwin>([](const Compute& c, int w, int h, int bpc,
                           const adm::AdmDeviceParams* scales, double gain_limit, bool skip_scale0,
                           bool skip_aim) {
        return make_adm_twin(c.device, w, h, bpc, scales, gain_limit, skip_scale0, skip_aim,
                             c.frames);
    });
    // SpEED and CAMBI upload their own planes (chroma, resized luma).
    b.add_twin<speed::SpeedTwin>([](const Compute& c, const speed::Gsm& gsm, bool difference) {
        return make_speed_twin(c.device, gsm, difference);
    });
    b.add_twin<cambi::CambiTwin>([](const Compute& c, int alloc_w, int alloc_h,
                                    const cambi::ContrastSetup& setup) {
        return make_cambi_twin(c.device, alloc_w, alloc_h, setup);
    });
    return b;
}

}  // namespace vmafpp::vk
