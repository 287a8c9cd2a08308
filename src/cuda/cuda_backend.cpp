// The CUDA backend's registration (device/backend.hpp): its device list,
// its frame store and a factory per twin it implements. The registry's list
// (src/device/backend_list.cpp) calls backend() when the build has CUDA.
#include "cuda/cuda_twins.hpp"
#include "device/backend.hpp"

namespace vmafpp::cuda {

device::BackendInfo backend() {
    device::BackendInfo b("cuda", describe_devices, make_frame_store);
    b.add_twin<motion::MotionTwin>([](const Compute& c, int w, int h, int bpc) {
        return make_motion_twin(c.device, w, h, bpc, c.frames);
    });
    // With a gain limit the twin accumulates on the device (VifTwin::sums).
    b.add_twin<vif::VifTwin>(
        [](const Compute& c, int w, int h, int bpc, std::optional<double> gain_limit) {
            return make_vif_twin(c.device, w, h, bpc, gain_limit, c.frames);
        });
    b.add_twin<adm::AdmTwin>([](const Compute& c, int w, int h, int bpc,
                                const adm::AdmDeviceParams* scales, double gain_limit,
                                bool skip_scale0, bool skip_aim) {
        return make_adm_twin(c.device, w, h, bpc, scales, gain_limit, skip_scale0, skip_aim,
                             c.frames);
    });
    b.add_twin<speed::SpeedTwin>([](const Compute& c, const speed::Gsm& gsm, bool difference) {
        return make_speed_twin(c.device, gsm, difference);
    });
    b.add_twin<cambi::CambiTwin>([](const Compute& c, int alloc_w, int alloc_h,
                                    const cambi::ContrastSetup& setup) {
        return make_cambi_twin(c.device, alloc_w, alloc_h, setup);
    });
    return b;
}

}  // namespace vmafpp::cuda
