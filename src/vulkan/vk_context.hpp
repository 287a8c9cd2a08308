// A small Vulkan compute context (libplacebo-like, one dispatch helper):
// the instance and the chosen physical device with its compute queue
// (Context, shared per device index by every extractor of a process),
// persistently mapped storage buffers (Buffer), one pipeline per embedded
// shader (Context::kernel) and a recording of dispatches with a fence
// (Stream). Every Vulkan failure becomes a one-line vmafpp::Error: no
// driver, no device, device lost, out of device memory, no shaderInt64.
//
// Buffers live in host-visible, host-coherent memory (device-local too where
// the device offers it): uploads and readbacks are memcpy into the mapping;
// a device-local Buffer (the frame store's on a discrete GPU) is filled by a
// copy from a host-visible staging Buffer instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "vulkan/vk_loader.hpp"

namespace vmafpp::vk {

// One SPIR-V module compiled at build time (build/shaders/<name>.spv).
struct EmbeddedShader {
    const char* name;
    const std::uint32_t* words;
    std::size_t count;
};
std::span<const EmbeddedShader> embedded_spirv();

// What a compute shader's SPIR-V declares of its interface
// (vk_spirv.cpp): how many descriptor bindings (storage buffers, set 0) and
// the size in bytes of its push-constant block (0 without one).
struct ShaderInterface {
    int bindings = 0;
    std::uint32_t push_bytes = 0;
};
ShaderInterface shader_interface(const EmbeddedShader& shader);
// Throws the internal error "vulkan: <name> declares ..." unless the
// embedded shader `name` has exactly `bindings` bindings and a push-constant
// block of `push_bytes` bytes: the C++ side of every pipeline
// (Context::kernel's arguments, the sizeof of the *_shared.h struct it
// pushes) is checked against the shader before the pipeline is made.
void check_interface(const std::string& name, int bindings, std::uint32_t push_bytes);

struct DeviceInfo {
    unsigned index = 0;
    std::string name;
    std::string type;  // "discrete GPU", "CPU", ...
    std::uint32_t api_version = 0;
    bool int64 = false;  // shaderInt64, which every vmafpp shader needs
};
// The devices the loader reports, in its order (the --device index).
// Throws vmafpp::Error when there is no Vulkan driver at all.
std::vector<DeviceInfo> list_devices();
// One line per device: "<index>: <name> (<type>, Vulkan x.y[, no shaderInt64])".
std::string describe_devices();

class Context;

// A pipeline: one shader with `bindings` storage buffers (bindings 0..n-1)
// and `push_bytes` of push constants.
struct Kernel {
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    int bindings = 0;
    std::uint32_t push_bytes = 0;
};

class Context {
public:
    explicit Context(unsigned device);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    // The pipeline of the embedded shader `name`, made on first use.
    const Kernel& kernel(const std::string& name, int bindings, std::uint32_t push_bytes);

    const DeviceInfo& info() const { return info_; }
    VkDevice device() const { return device_; }
    std::uint32_t queue_family() const { return queue_family_; }
    // Submits one command buffer and waits for its fence (the queue is
    // shared, so submissions are serialised).
    void submit_and_wait(VkCommandBuffer cmd, VkFence fence);
    // Submits one command buffer that signals `fence`, without waiting.
    void submit(VkCommandBuffer cmd, VkFence fence);
    // A memory type for a mapped storage buffer of these requirements.
    std::uint32_t memory_type(std::uint32_t type_bits) const;
    // The device-local memory type of these requirements (host-visible or not).
    std::uint32_t device_memory_type(std::uint32_t type_bits) const;
    // Whether the host writes the device's own memory (every device-local
    // memory type is host-visible: lavapipe, integrated GPUs), so that
    // pictures need no staging copy. VMAFPP_VULKAN_UPLOAD=staging or direct
    // overrides it (the tests run the staging path on lavapipe).
    bool unified_memory() const;

private:
    DeviceInfo info_;
    VkInstance instance_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    std::uint32_t queue_family_ = 0;
    VkPhysicalDeviceMemoryProperties memory_{};
    std::mutex queue_mutex_;
    std::mutex kernel_mutex_;
    std::map<std::string, Kernel> kernels_;
};

// The context of device `index`, shared while anyone holds it.
std::shared_ptr<Context> context_for(unsigned index);

// A storage buffer mapped for its whole life, or (Memory::device_local) one
// in device-local memory that the host cannot map, filled by copies.
class Buffer {
public:
    enum class Memory { mapped, device_local };
    Buffer(std::shared_ptr<Context> ctx, std::size_t bytes, Memory memory = Memory::mapped);
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    void* data() const { return map_; }
    template <class T>
    T* as() const { return static_cast<T*>(map_); }
    std::size_t size() const { return bytes_; }
    VkBuffer handle() const { return buffer_; }

private:
    std::shared_ptr<Context> ctx_;
    std::size_t bytes_;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    void* map_ = nullptr;
};

// One command buffer of dispatches, each followed by a full compute
// barrier, submitted and waited for at once.
class Stream {
public:
    explicit Stream(std::shared_ptr<Context> ctx);
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    void begin();
    void dispatch(const Kernel& k, std::initializer_list<const Buffer*> buffers, const void* push,
                  std::uint32_t gx, std::uint32_t gy = 1, std::uint32_t gz = 1);
    void submit_and_wait();
    Context& context() const { return *ctx_; }

private:
    std::shared_ptr<Context> ctx_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptors_ = VK_NULL_HANDLE;
    bool recording_ = false;
};

// ceil(n / d) workgroups.
constexpr std::uint32_t groups(std::uint32_t n, std::uint32_t d) { return (n + d - 1) / d; }

}  // namespace vmafpp::vk
