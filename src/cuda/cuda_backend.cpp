// The CUDA backend's registration (device/backend.hpp): its device list,
// its frame store and a factory per twin it implements. The registry's list
// (src/device/backend_list.cpp) calls backend() when the build has CUDA.
#include "cuda/cuda_twins.hpp"
#include "device/backend.hpp"

namespace vmafpp::cuda {

device::BackendInfo backend() {
    device::BackendInfo b("cuda", describe_devices, make_frame_store);
    b.add_device_twin<motion::MotionTwin, true>(make_motion_twin);
    // With a gain limit the twin accumulates on the device (VifTwin::sums).
    b.add_device_twin<vif::VifTwin, true>(make_vif_twin);
    b.add_device_twin<adm::AdmTwin, true>(make_adm_twin);
    b.add_device_twin<speed::SpeedTwin>(make_speed_twin);
    b.add_device_twin<cambi::CambiTwin>(make_cambi_twin);
    return b;
}

}  // namespace vmafpp::cuda
