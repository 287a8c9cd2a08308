// The factories of SpEED's and CAMBI's device twins (see feature_twins.hpp).
#include "device/feature_twins.hpp"

#include <string>

#include "cambi/cambi_twin.hpp"
#include "device/device_twins.hpp"
#include "speed/speed_twin.hpp"
#include "vmafpp/error.hpp"

#if VMAFPP_HAVE_VULKAN
#include "vulkan/vk_cambi_twin.hpp"
#include "vulkan/vk_speed_twin.hpp"
#endif

namespace vmafpp::device {

bool is_feature_twin(std::string_view feature) {
    return feature == "speed_chroma" || feature == "speed_temporal" || feature == "cambi";
}

bool has_feature_twin(Backend backend, std::string_view feature) {
    return is_feature_twin(feature) && backend == Backend::vulkan;
}

bool speed_twin_scales(const speed::Gsm& gsm) {
    const speed::Dimensions& d = gsm.dims();
    const speed::Params& p = gsm.params();
    return speed::prescale_is_identity(p.prescale) || (d.scaled_w == d.width && d.scaled_h == d.height) ||
           p.method == speed::ScaleMethod::nearest || p.method == speed::ScaleMethod::bilinear;
}

std::unique_ptr<SpeedTwin> make_speed_twin(const Compute& compute, const speed::Gsm& gsm,
                                           const char* feature) {
    if (!has_twin(compute.backend, feature)) return nullptr;
    if (!speed_twin_scales(gsm)) {
        if (compute.device_only)
            throw Error(std::string("--device_only: ") + feature +
                        "'s bicubic and lanczos4 prescale have no " + backend_name(compute.backend) +
                        " twin (nearest and bilinear have)");
        return nullptr;
    }
#if VMAFPP_HAVE_VULKAN
    if (compute.backend == Backend::vulkan)
        return vk::make_speed_twin(compute.device, gsm, std::string_view(feature) == "speed_temporal");
#endif
    return nullptr;
}

std::unique_ptr<CambiTwin> make_cambi_twin(const Compute& compute, int alloc_w, int alloc_h,
                                           const cambi::ContrastSetup& setup) {
    if (!has_twin(compute.backend, "cambi")) return nullptr;
#if VMAFPP_HAVE_VULKAN
    if (compute.backend == Backend::vulkan)
        return vk::make_cambi_twin(compute.device, alloc_w, alloc_h, setup);
#endif
    (void)alloc_w, (void)alloc_h, (void)setup;
    return nullptr;
}

}  // namespace vmafpp::device
