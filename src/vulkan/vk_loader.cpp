#include "vulkan/vk_loader.hpp"

#include <dlfcn.h>
#include <link.h>

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

#if defined(__SANITIZE_ADDRESS__)
#define VMAFPP_VK_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VMAFPP_VK_UNDER_ASAN 1
#endif
#endif

void keep_drivers_loaded() {
#if VMAFPP_VK_UNDER_ASAN
    // The loader unloads the driver (lavapipe, mesa) when the instance is
    // destroyed, and LeakSanitizer then reports the driver's own leaks as an
    // `<unknown module>` that no suppression can name. Here every library
    // the process holds (the driver among them) is made RTLD_NODELETE, so a
    // leak keeps its module name and tests/lsan.supp can suppress the
    // driver's while ours are reported as before. Sanitizer builds only.
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void*) {
            if (info->dlpi_name && *info->dlpi_name) {
                // RTLD_NOLOAD: only a library already loaded; the handle's
                // reference is dropped at once, the NODELETE flag stays.
                if (void* h = ::dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE))
                    ::dlclose(h);
            }
            return 0;
        },
        nullptr);
#endif
}

void load_vulkan() {
    static const std::string error = open_loader();
    if (!error.empty()) throw Error(error);
}

}  // namespace vmafpp::vk
