#include "vulkan/vk_loader.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "vmafpp/error.hpp"

namespace vmafpp::vk {

#define VMAFPP_VK_DEFINE(name) PFN_##name name = nullptr;
VMAFPP_VULKAN_FUNCTIONS(VMAFPP_VK_DEFINE)
#undef VMAFPP_VK_DEFINE

namespace {

// The loader's soname: the ABI every Vulkan loader since 1.0 keeps.
constexpr const char* kLoader = "libvulkan.so.1";

// Empty when every function was found, else the error line.
std::string open_loader() {
    void* handle = ::dlopen(kLoader, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = ::dlerror();
        return std::string("vulkan: cannot load the Vulkan loader ") + kLoader +
               " (install libvulkan1): " + (why ? why : "unknown error");
    }
    // The handle stays open for the life of the process: the pointers
    // below and the driver's threads depend on it.
#define VMAFPP_VK_LOAD(name)                                                              \
    name = reinterpret_cast<PFN_##name>(::dlsym(handle, #name));                          \
    if (!name) return std::string("vulkan: ") + kLoader + " lacks " #name;
    VMAFPP_VULKAN_FUNCTIONS(VMAFPP_VK_LOAD)
#undef VMAFPP_VK_LOAD
    return {};
}

}  // namespace

void load_vulkan() {
    static const std::string error = open_loader();
    if (!error.empty()) throw Error(error);
}

}  // namespace vmafpp::vk
