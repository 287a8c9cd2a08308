#include "device/device_twins.hpp"

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "vmafpp/error.hpp"

#include "device/feature_twins.hpp"

#if VMAFPP_HAVE_VULKAN
#include "vulkan/vk_twins.hpp"
#endif
#if VMAFPP_HAVE_CUDA
#include "cuda/cuda_twins.hpp"
#endif

namespace vmafpp::device {

namespace {
[[noreturn]] void no_store(const char* twin) {
    throw Error(std::string("internal error: this ") + twin + " twin reads no frame store");
}
}  // namespace

std::uint64_t MotionTwin::sad_of_frames(unsigned, unsigned) { no_store("motion"); }
void VifTwin::run_frame(unsigned, bool) { no_store("vif"); }
void AdmTwin::run_frame(unsigned) { no_store("adm"); }

std::shared_ptr<FrameStore> make_frame_store(const Compute& compute, const FrameGeometry& geometry,
                                             unsigned slots) {
#if VMAFPP_HAVE_VULKAN
    if (compute.backend == Backend::vulkan)
        return vk::make_frame_store(compute.device, geometry.width, geometry.height, geometry.bpc,
                                    slots);
#endif
#if VMAFPP_HAVE_CUDA
    if (compute.backend == Backend::cuda)
        return cuda::make_frame_store(compute.device, geometry.width, geometry.height, geometry.bpc,
                                      slots);
#endif
    (void)compute, (void)geometry, (void)slots;
    return nullptr;
}

std::unique_ptr<MotionTwin> make_motion_twin(const Compute& compute, int w, int h, int bpc) {
#if VMAFPP_HAVE_VULKAN
    if (compute.backend == Backend::vulkan) return vk::make_motion_twin(compute.device, w, h, bpc, compute.frames);
#endif
#if VMAFPP_HAVE_CUDA
    if (compute.backend == Backend::cuda)
        return cuda::make_motion_twin(compute.device, w, h, bpc, compute.frames);
#endif
    (void)compute, (void)w, (void)h, (void)bpc;
    return nullptr;
}

std::unique_ptr<VifTwin> make_vif_twin(const Compute& compute, int w, int h, int bpc,
                                       std::optional<double> accumulate_gain_limit) {
#if VMAFPP_HAVE_VULKAN
    if (compute.backend == Backend::vulkan) return vk::make_vif_twin(compute.device, w, h, bpc, compute.frames);
#endif
#if VMAFPP_HAVE_CUDA
    if (compute.backend == Backend::cuda)
        return cuda::make_vif_twin(compute.device, w, h, bpc, accumulate_gain_limit,
                                   compute.frames);
#endif
    (void)compute, (void)w, (void)h, (void)bpc, (void)accumulate_gain_limit;
    return nullptr;
}

std::unique_ptr<AdmTwin> make_adm_twin(const Compute& compute, int w, int h, int bpc,
                                       const adm::AdmDeviceParams scales[adm::kScales],
                                       double gain_limit, bool skip_scale0, bool skip_aim) {
#if VMAFPP_HAVE_VULKAN
    if (compute.backend == Backend::vulkan)
        return vk::make_adm_twin(compute.device, w, h, bpc, scales, gain_limit, skip_scale0,
                                 skip_aim, compute.frames);
#endif
#if VMAFPP_HAVE_CUDA
    if (compute.backend == Backend::cuda)
        return cuda::make_adm_twin(compute.device, w, h, bpc, scales, gain_limit, skip_scale0,
                                   skip_aim, compute.frames);
#endif
    (void)compute, (void)w, (void)h, (void)bpc, (void)scales, (void)gain_limit, (void)skip_scale0,
        (void)skip_aim;
    return nullptr;
}

bool has_twin(std::string_view feature) {
    return feature == "motion" || feature == "vif" || feature == "adm";
}

bool has_twin(Backend backend, std::string_view feature) {
    if (backend == Backend::cpu) return false;
    if (is_feature_twin(feature)) return has_feature_twin(backend, feature);
    return has_twin(feature);
}

void place_on_cpu_or_refuse(const Compute& compute, std::string_view feature) {
    if (compute.backend == Backend::cpu || has_twin(compute.backend, feature)) return;
    if (compute.device_only)
        throw Error("--device_only: " + std::string(feature) + " has no " +
                    backend_name(compute.backend) +
                    " twin (without --device_only it runs on the CPU)");
    static std::mutex mutex;
    static std::set<std::string, std::less<>> noted;
    std::lock_guard lock(mutex);
    const std::string key = std::string(backend_name(compute.backend)) + "/" + std::string(feature);
    if (!noted.insert(key).second) return;
    std::fprintf(stderr, "vmafpp: %.*s has no %s twin; it runs on the CPU\n",
                 static_cast<int>(feature.size()), feature.data(), backend_name(compute.backend));
}

}  // namespace vmafpp::device
