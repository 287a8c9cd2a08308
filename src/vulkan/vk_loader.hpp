// The Vulkan loader, opened with dlopen on first use rather than linked: a
// process that never asks for --backend vulkan (and every program linking
// libvmafpp.a or libvmaf.so) starts without libvulkan.so.1, and a machine
// without it gets a one-line error instead of a failed start.
//
// Each core function vmafpp calls is a function pointer of the same name in
// vmafpp::vk, taken with dlsym from the loader, which exports every Vulkan
// 1.0/1.1 core function: the same entry points a link would bind.
#pragma once

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

// X(name) for each Vulkan function vk_context.cpp calls.
#define VMAFPP_VULKAN_FUNCTIONS(X)                                                       \
    X(vkCreateInstance) X(vkDestroyInstance) X(vkEnumeratePhysicalDevices)                 \
    X(vkGetPhysicalDeviceProperties) X(vkGetPhysicalDeviceFeatures)                        \
    X(vkGetPhysicalDeviceQueueFamilyProperties) X(vkGetPhysicalDeviceMemoryProperties)     \
    X(vkCreateDevice) X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkDeviceWaitIdle)           \
    X(vkQueueSubmit) X(vkCreateFence) X(vkDestroyFence) X(vkWaitForFences)                 \
    X(vkResetFences) X(vkCreateBuffer) X(vkDestroyBuffer)                                  \
    X(vkGetBufferMemoryRequirements) X(vkAllocateMemory) X(vkFreeMemory)                   \
    X(vkBindBufferMemory) X(vkMapMemory) X(vkUnmapMemory) X(vkCreateShaderModule)          \
    X(vkDestroyShaderModule) X(vkCreateDescriptorSetLayout)                                \
    X(vkDestroyDescriptorSetLayout) X(vkCreatePipelineLayout) X(vkDestroyPipelineLayout)   \
    X(vkCreateComputePipelines) X(vkDestroyPipeline) X(vkCreateDescriptorPool)             \
    X(vkDestroyDescriptorPool) X(vkResetDescriptorPool) X(vkAllocateDescriptorSets)        \
    X(vkUpdateDescriptorSets) X(vkCreateCommandPool) X(vkDestroyCommandPool)               \
    X(vkAllocateCommandBuffers) X(vkBeginCommandBuffer) X(vkEndCommandBuffer)              \
    X(vkResetCommandBuffer) X(vkCmdBindPipeline) X(vkCmdBindDescriptorSets)                \
    X(vkCmdPushConstants) X(vkCmdDispatch) X(vkCmdPipelineBarrier) X(vkCmdCopyBuffer)

namespace vmafpp::vk {

#define VMAFPP_VK_DECLARE(name) extern PFN_##name name;
VMAFPP_VULKAN_FUNCTIONS(VMAFPP_VK_DECLARE)
#undef VMAFPP_VK_DECLARE

// Opens libvulkan.so.1 and fills every pointer above, once per process.
// Throws vmafpp::Error (one line) when the loader or a function is missing.
void load_vulkan();

// In an AddressSanitizer build, keeps every library now loaded (the driver
// the loader opened for an instance) loaded until exit, so LeakSanitizer
// names the driver's leaks (tests/lsan.supp); nothing elsewhere.
void keep_drivers_loaded();

}  // namespace vmafpp::vk
