#include "vmafpp/compute.hpp"

#include <string>

#include "vmafpp/error.hpp"
#if VMAFPP_HAVE_VULKAN
#include "vulkan/vk_context.hpp"
#endif
#if VMAFPP_HAVE_CUDA
#include "cuda/cuda_twins.hpp"
#endif

namespace vmafpp {

namespace {

constexpr Backend kKnownBackends[] = {Backend::cpu, Backend::vulkan, Backend::cuda};

bool is_built(Backend backend) {
    // The Vulkan and CUDA backends are optional (src/vulkan, cmake/cuda.cmake).
    return backend == Backend::cpu || (backend == Backend::vulkan && VMAFPP_HAVE_VULKAN) ||
           (backend == Backend::cuda && VMAFPP_HAVE_CUDA);
}

std::string built_list() {
    std::string out;
    for (Backend b : built_backends()) out += (out.empty() ? "" : ", ") + std::string(backend_name(b));
    return out;
}

// "vulkan or cuda": the device backends this build has, for --device_only's error.
std::string device_list() {
    std::string out;
    for (Backend b : built_backends())
        if (b != Backend::cpu) out += (out.empty() ? "" : " or ") + std::string(backend_name(b));
    return out.empty() ? "none: this vmafpp is built without Vulkan and CUDA" : out;
}

}  // namespace

const char* backend_name(Backend backend) {
    switch (backend) {
        case Backend::vulkan: return "vulkan";
        case Backend::cuda: return "cuda";
        case Backend::cpu: break;
    }
    return "cpu";
}

std::vector<Backend> built_backends() {
    std::vector<Backend> out;
    for (Backend b : kKnownBackends)
        if (is_built(b)) out.push_back(b);
    return out;
}

Backend parse_backend(std::string_view name) {
    for (Backend b : kKnownBackends) {
        if (name != backend_name(b)) continue;
        if (!is_built(b))
            throw Error("backend " + std::string(name) + " is not built into this vmafpp (built: " +
                        built_list() + ")");
        return b;
    }
    throw Error("unknown backend \"" + std::string(name) + "\" (built: " + built_list() + ")");
}

std::string describe_devices(Backend backend) {
    if (!is_built(backend))
        throw Error("backend " + std::string(backend_name(backend)) +
                    " is not built into this vmafpp (built: " + built_list() + ")");
#if VMAFPP_HAVE_VULKAN
    if (backend == Backend::vulkan) return vk::describe_devices();
#endif
#if VMAFPP_HAVE_CUDA
    if (backend == Backend::cuda) return cuda::describe_devices();
#endif
    return "0: the CPU\n";
}

Compute Compute::best_cpu() {
    Compute c;
    c.simd = simd_level(0);
    return c;
}

Compute resolve_compute(const ComputeConfig& config) {
    if (!is_built(config.backend))
        throw Error("backend " + std::string(backend_name(config.backend)) +
                    " is not built into this vmafpp (built: " + built_list() + ")");
    Compute c;
    c.simd = simd_level(config.cpumask);
    // libvmaf: a non-zero gpumask keeps every extractor on the CPU.
    c.backend = config.gpumask != 0 ? Backend::cpu : config.backend;
    c.device = c.backend == Backend::cpu ? 0 : config.device;
    if (config.device_only) {
        if (config.backend == Backend::cpu)
            throw Error("--device_only needs a device backend (--backend " + device_list() + ")");
        if (config.gpumask != 0)
            throw Error("--device_only: --gpumask " + std::to_string(config.gpumask) +
                        " keeps every extractor on the CPU");
        c.device_only = true;
    }
    return c;
}

}  // namespace vmafpp
