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
    b.add_device_twin<MotionTwin, true>(make_motion_twin);
    // The shaders leave vif_accumulate to the host (VifTwin::sigma).
    b.add_twin<VifTwin>([](const Compute& c, int w, int h, int bpc, std::optional<double>) {
        return make_vif_twin(c.device, w, h, bpc, c.frames);
    });
    b.add_device_twin<AdmTwin, true>(make_adm_twin);
    // SpEED and CAMBI upload their own planes (chroma, resized luma).
    b.add_device_twin<speed::SpeedTwin>(make_speed_twin);
    b.add_device_twin<cambi::CambiTwin>(make_cambi_twin);
    return b;
}

}  // namespace vmafpp::vk
