// The one list of the backends vmafpp knows, in the order --version and
// error messages list them: the CPU, then one line per device backend. A
// device backend's registration (its BackendInfo: device list, frame store,
// twin factories) is made in its own folder; this list only says whether the
// build has it. Adding a backend: its folder (src/<name>/, with
// `device::BackendInfo <name>::backend()`), its line here, a Backend value in
// vmafpp/compute.hpp if callers should name it, and its folder in
// src/CMakeLists.txt. This is the only file outside the backends' folders
// that tests VMAFPP_HAVE_<backend>.
#include <utility>
#include <vector>

#include "device/backend.hpp"

namespace vmafpp {

#if VMAFPP_HAVE_VULKAN
namespace vk {
device::BackendInfo backend();  // src/vulkan/vk_backend.cpp
}
#endif
#if VMAFPP_HAVE_CUDA
namespace cuda {
device::BackendInfo backend();  // src/cuda/cuda_backend.cpp
}
#endif

namespace device {

namespace {

// Every extractor runs its CPU kernels at the session's SIMD level.
BackendInfo cpu_backend() {
    return BackendInfo("cpu", [] { return std::string("0: the CPU\n"); }, nullptr);
}

// A known backend this build lacks: --backend names it "not built".
[[maybe_unused]] BackendInfo not_built(const char* name) {
    BackendInfo b;
    b.name = name;
    return b;
}

}  // namespace

std::vector<std::pair<Backend, BackendInfo>> known_backends() {
    std::vector<std::pair<Backend, BackendInfo>> out;
    out.emplace_back(Backend::cpu, cpu_backend());
#if VMAFPP_HAVE_VULKAN
    out.emplace_back(Backend::vulkan, vk::backend());
#else
    out.emplace_back(Backend::vulkan, not_built("vulkan"));
#endif
#if VMAFPP_HAVE_CUDA
    out.emplace_back(Backend::cuda, cuda::backend());
#else
    out.emplace_back(Backend::cuda, not_built("cuda"));
#endif
    return out;
}

}  // namespace device
}  // namespace vmafpp
