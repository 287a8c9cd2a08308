#include "vulkan/vk_context.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "vmafpp/error.hpp"

namespace vmafpp::vk {

namespace {

// The most descriptor sets one Stream records before it is submitted.
constexpr std::uint32_t kMaxSets = 64;
constexpr std::uint32_t kMaxBindings = 8;

[[noreturn]] void fail(VkResult r, const std::string& what) {
    switch (r) {
        case VK_ERROR_DEVICE_LOST:
            throw Error("vulkan: device lost during " + what);
        case VK_ERROR_OUT_OF_DEVICE_MEMORY:
            throw Error("vulkan: out of device memory during " + what);
        case VK_ERROR_OUT_OF_HOST_MEMORY:
            throw Error("vulkan: out of host memory during " + what);
        case VK_ERROR_INCOMPATIBLE_DRIVER:
            throw Error("vulkan: no Vulkan driver found (install a Vulkan ICD, e.g. "
                        "mesa-vulkan-drivers for lavapipe)");
        case VK_ERROR_INITIALIZATION_FAILED:
            throw Error("vulkan: initialisation failed during " + what);
        default:
            throw Error("vulkan: " + what + " failed (VkResult " + std::to_string(r) + ")");
    }
}

void check(VkResult r, const std::string& what) {
    if (r != VK_SUCCESS) fail(r, what);
}

VkInstance make_instance() {
    load_vulkan();
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vmafpp";
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    check(vkCreateInstance(&ci, nullptr, &instance), "vkCreateInstance");
    keep_drivers_loaded();
    return instance;
}

const char* type_name(VkPhysicalDeviceType t) {
    switch (t) {
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
        default: return "other";
    }
}

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
    std::uint32_t n = 0;
    check(vkEnumeratePhysicalDevices(instance, &n, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> out(n);
    if (n) check(vkEnumeratePhysicalDevices(instance, &n, out.data()), "vkEnumeratePhysicalDevices");
    out.resize(n);
    return out;
}

DeviceInfo info_of(VkPhysicalDevice pd, unsigned index) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(pd, &p);
    VkPhysicalDeviceFeatures f;
    vkGetPhysicalDeviceFeatures(pd, &f);
    return {index, p.deviceName, type_name(p.deviceType), p.apiVersion, f.shaderInt64 == VK_TRUE};
}


// VMAFPP_VULKAN_SHADER_DIR (a test hook): a module <dir>/<name>.spv there
// replaces the embedded one, so that tests can load a deliberately wrong
// shader and see --self-test and the kernel tests catch it. Empty: none.
std::vector<std::uint32_t> replacement_spirv(const std::string& name) {
    const char* dir = std::getenv("VMAFPP_VULKAN_SHADER_DIR");
    if (!dir || !*dir) return {};
    std::ifstream in(std::string(dir) + "/" + name + ".spv", std::ios::binary);
    if (!in) return {};
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.empty() || bytes.size() % 4 != 0)
        throw Error("vulkan: " + std::string(dir) + "/" + name + ".spv is not SPIR-V");
    std::vector<std::uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    std::fprintf(stderr, "vmafpp: vulkan shader %s replaced by %s/%s.spv\n", name.c_str(), dir,
                 name.c_str());
    return words;
}
}  // namespace

std::vector<DeviceInfo> list_devices() {
    VkInstance instance = make_instance();
    std::vector<DeviceInfo> out;
    const auto devices = physical_devices(instance);
    for (unsigned i = 0; i < devices.size(); ++i) out.push_back(info_of(devices[i], i));
    vkDestroyInstance(instance, nullptr);
    return out;
}

std::string describe_devices() {
    std::string out;
    for (const DeviceInfo& d : list_devices()) {
        out += std::to_string(d.index) + ": " + d.name + " (" + d.type + ", Vulkan " +
               std::to_string(VK_API_VERSION_MAJOR(d.api_version)) + "." +
               std::to_string(VK_API_VERSION_MINOR(d.api_version)) +
               (d.int64 ? "" : ", no shaderInt64: unusable") + ")\n";
    }
    if (out.empty()) out = "no Vulkan device found\n";
    return out;
}

Context::Context(unsigned index) {
    instance_ = make_instance();
    try {
        const auto devices = physical_devices(instance_);
        if (devices.empty()) throw Error("vulkan: no Vulkan device found");
        if (index >= devices.size())
            throw Error("vulkan: no device " + std::to_string(index) + " (found " +
                        std::to_string(devices.size()) +
                        "; vmafpp --list-devices lists them)");
        physical_ = devices[index];
        info_ = info_of(physical_, index);
        if (!info_.int64)
            throw Error("vulkan: device " + std::to_string(index) + " (" + info_.name +
                        ") lacks shaderInt64, which the vmafpp shaders need");
        std::uint32_t nq = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(physical_, &nq, nullptr);
        std::vector<VkQueueFamilyProperties> families(nq);
        vkGetPhysicalDeviceQueueFamilyProperties(physical_, &nq, families.data());
        bool found = false;
        for (std::uint32_t q = 0; q < nq && !found; ++q)
            if (families[q].queueFlags & VK_QUEUE_COMPUTE_BIT) {
                queue_family_ = q;
                found = true;
            }
        if (!found)
            throw Error("vulkan: device " + std::to_string(index) + " (" + info_.name +
                        ") has no compute queue");
        const float priority = 1.0f;
        VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        qi.queueFamilyIndex = queue_family_;
        qi.queueCount = 1;
        qi.pQueuePriorities = &priority;
        VkPhysicalDeviceFeatures features{};
        features.shaderInt64 = VK_TRUE;
        VkDeviceCreateInfo di{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        di.queueCreateInfoCount = 1;
        di.pQueueCreateInfos = &qi;
        di.pEnabledFeatures = &features;
        check(vkCreateDevice(physical_, &di, nullptr, &device_), "vkCreateDevice");
        vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
        vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
    } catch (...) {
        vkDestroyInstance(instance_, nullptr);
        throw;
    }
}

Context::~Context() {
    vkDeviceWaitIdle(device_);
    for (auto& [name, k] : kernels_) {
        vkDestroyPipeline(device_, k.pipeline, nullptr);
        vkDestroyPipelineLayout(device_, k.layout, nullptr);
        vkDestroyDescriptorSetLayout(device_, k.set_layout, nullptr);
    }
    vkDestroyDevice(device_, nullptr);
    vkDestroyInstance(instance_, nullptr);
}

const Kernel& Context::kernel(const std::string& name, int bindings, std::uint32_t push_bytes) {
    std::lock_guard lock(kernel_mutex_);
    if (auto it = kernels_.find(name); it != kernels_.end()) return it->second;
    const EmbeddedShader* shader = nullptr;
    for (const EmbeddedShader& s : embedded_spirv())
        if (name == s.name) shader = &s;
    if (!shader) throw Error("vulkan: no embedded shader \"" + name + "\"");
    check_interface(name, bindings, push_bytes);
    // The test hook of --self-test: a planted wrong module must be caught.
    const std::vector<std::uint32_t> replaced = replacement_spirv(name);
    EmbeddedShader replacement{shader->name, replaced.data(), replaced.size()};
    if (!replaced.empty()) shader = &replacement;

    Kernel k;
    k.bindings = bindings;
    k.push_bytes = push_bytes;
    std::vector<VkDescriptorSetLayoutBinding> b(static_cast<std::size_t>(bindings));
    for (int i = 0; i < bindings; ++i) {
        b[i].binding = static_cast<std::uint32_t>(i);
        b[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        b[i].descriptorCount = 1;
        b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.bindingCount = static_cast<std::uint32_t>(bindings);
    li.pBindings = b.data();
    check(vkCreateDescriptorSetLayout(device_, &li, nullptr, &k.set_layout), "descriptor layout");
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
    VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &k.set_layout;
    pli.pushConstantRangeCount = push_bytes ? 1 : 0;
    pli.pPushConstantRanges = &range;
    check(vkCreatePipelineLayout(device_, &pli, nullptr, &k.layout), "pipeline layout");
    VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mi.codeSize = shader->count * 4;
    mi.pCode = shader->words;
    VkShaderModule module = VK_NULL_HANDLE;
    check(vkCreateShaderModule(device_, &mi, nullptr, &module), "shader module " + name);
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = module;
    ci.stage.pName = "main";
    ci.layout = k.layout;
    const VkResult r = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &ci, nullptr, &k.pipeline);
    vkDestroyShaderModule(device_, module, nullptr);
    check(r, "compute pipeline " + name);
    return kernels_.emplace(name, k).first->second;
}

void Context::submit_and_wait(VkCommandBuffer cmd, VkFence fence) {
    submit(cmd, fence);
    check(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    check(vkResetFences(device_, 1, &fence), "vkResetFences");
}

void Context::submit(VkCommandBuffer cmd, VkFence fence) {
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    std::lock_guard lock(queue_mutex_);
    check(vkQueueSubmit(queue_, 1, &si, fence), "vkQueueSubmit");
}

std::uint32_t Context::device_memory_type(std::uint32_t type_bits) const {
    for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
        if ((type_bits & (1u << i)) &&
            (memory_.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
            return i;
    return memory_type(type_bits);
}

bool Context::unified_memory() const {
    if (const char* env = std::getenv("VMAFPP_VULKAN_UPLOAD")) {
        if (std::strcmp(env, "staging") == 0) return false;
        if (std::strcmp(env, "direct") == 0) return true;
    }
    const VkMemoryPropertyFlags mappable = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
        const VkMemoryPropertyFlags f = memory_.memoryTypes[i].propertyFlags;
        if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && !(f & mappable)) return false;
    }
    return true;
}

std::uint32_t Context::memory_type(std::uint32_t type_bits) const {
    const VkMemoryPropertyFlags need =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int best = -1;
    for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
        if (!(type_bits & (1u << i))) continue;
        const VkMemoryPropertyFlags f = memory_.memoryTypes[i].propertyFlags;
        if ((f & need) != need) continue;
        // Device-local and mappable (resizable BAR, unified memory) first.
        if (best < 0 || (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) best = static_cast<int>(i);
        if (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) break;
    }
    if (best < 0) throw Error("vulkan: device " + info_.name + " has no host-visible memory");
    return static_cast<std::uint32_t>(best);
}

std::shared_ptr<Context> context_for(unsigned index) {
    static std::mutex mutex;
    static std::map<unsigned, std::weak_ptr<Context>> contexts;
    std::lock_guard lock(mutex);
    if (auto c = contexts[index].lock()) return c;
    auto c = std::make_shared<Context>(index);
    contexts[index] = c;
    return c;
}

Buffer::Buffer(std::shared_ptr<Context> ctx, std::size_t bytes, Memory memory)
    : ctx_(std::move(ctx)), bytes_(bytes < 16 ? 16 : bytes) {
    VkDevice dev = ctx_->device();
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = bytes_;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    check(vkCreateBuffer(dev, &bi, nullptr, &buffer_), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, buffer_, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    try {
        ai.memoryTypeIndex = memory == Memory::mapped ? ctx_->memory_type(req.memoryTypeBits)
                                                      : ctx_->device_memory_type(req.memoryTypeBits);
        check(vkAllocateMemory(dev, &ai, nullptr, &memory_),
              "allocation of " + std::to_string(req.size) + " bytes");
        check(vkBindBufferMemory(dev, buffer_, memory_, 0), "vkBindBufferMemory");
        if (memory == Memory::mapped)
            check(vkMapMemory(dev, memory_, 0, VK_WHOLE_SIZE, 0, &map_), "vkMapMemory");
    } catch (...) {
        if (memory_) vkFreeMemory(dev, memory_, nullptr);
        vkDestroyBuffer(dev, buffer_, nullptr);
        throw;
    }
    if (map_) std::memset(map_, 0, bytes_);
}

Buffer::~Buffer() {
    if (map_) vkUnmapMemory(ctx_->device(), memory_);
    vkFreeMemory(ctx_->device(), memory_, nullptr);
    vkDestroyBuffer(ctx_->device(), buffer_, nullptr);
}

Stream::Stream(std::shared_ptr<Context> ctx) : ctx_(std::move(ctx)) {
    VkDevice dev = ctx_->device();
    VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pi.queueFamilyIndex = ctx_->queue_family();
    check(vkCreateCommandPool(dev, &pi, nullptr, &pool_), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool_;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(dev, &ai, &cmd_), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vkCreateFence(dev, &fi, nullptr, &fence_), "vkCreateFence");
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kMaxSets * kMaxBindings};
    VkDescriptorPoolCreateInfo di{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    di.maxSets = kMaxSets;
    di.poolSizeCount = 1;
    di.pPoolSizes = &size;
    check(vkCreateDescriptorPool(dev, &di, nullptr, &descriptors_), "vkCreateDescriptorPool");
}

Stream::~Stream() {
    VkDevice dev = ctx_->device();
    vkDestroyDescriptorPool(dev, descriptors_, nullptr);
    vkDestroyFence(dev, fence_, nullptr);
    vkDestroyCommandPool(dev, pool_, nullptr);
}

void Stream::begin() {
    check(vkResetDescriptorPool(ctx_->device(), descriptors_, 0), "vkResetDescriptorPool");
    check(vkResetCommandBuffer(cmd_, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cmd_, &bi), "vkBeginCommandBuffer");
    // Host writes to the mapped buffers before the submission are visible
    // to the device (a queue submission is a host-write barrier). Copies
    // submitted earlier to the queue (the frame store's uploads on a discrete
    // GPU) are finished and visible before the first dispatch reads.
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 1, &mb, 0, nullptr, 0, nullptr);
    recording_ = true;
}

void Stream::dispatch(const Kernel& k, std::initializer_list<const Buffer*> buffers,
                      const void* push, std::uint32_t gx, std::uint32_t gy, std::uint32_t gz) {
    if (static_cast<int>(buffers.size()) != k.bindings || k.bindings > static_cast<int>(kMaxBindings))
        throw Error("vulkan: a dispatch binds the wrong number of buffers");
    VkDevice dev = ctx_->device();
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = descriptors_;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &k.set_layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    check(vkAllocateDescriptorSets(dev, &ai, &set), "vkAllocateDescriptorSets");
    VkDescriptorBufferInfo infos[kMaxBindings];
    VkWriteDescriptorSet writes[kMaxBindings];
    std::uint32_t n = 0;
    for (const Buffer* b : buffers) {
        infos[n] = {b->handle(), 0, VK_WHOLE_SIZE};
        writes[n] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[n].dstSet = set;
        writes[n].dstBinding = n;
        writes[n].descriptorCount = 1;
        writes[n].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[n].pBufferInfo = &infos[n];
        ++n;
    }
    vkUpdateDescriptorSets(dev, n, writes, 0, nullptr);
    vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
    vkCmdBindDescriptorSets(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &set, 0, nullptr);
    if (k.push_bytes) vkCmdPushConstants(cmd_, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, k.push_bytes, push);
    vkCmdDispatch(cmd_, gx, gy, gz);
    // Every later dispatch (and the host, after the fence) sees the writes.
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb,
                         0, nullptr, 0, nullptr);
}

void Stream::submit_and_wait() {
    recording_ = false;
    check(vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");
    ctx_->submit_and_wait(cmd_, fence_);
}

}  // namespace vmafpp::vk
