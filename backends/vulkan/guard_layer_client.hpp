// The backend's side of VK_LAYER_OPRIG_guard_bands (guard_layer/): makes the
// loader see the layer, enables it on the backend's instance, and tells it
// which buffers are tensors with guard bands, so that a kernel's storage-buffer
// binding of a tensor reaches into the red zone behind it and an
// out-of-bounds store there is caught (backends/vulkan/README.md).
#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

namespace oprig::vulkan {

class GuardLayerClient {
 public:
  // Before vkCreateInstance: appends the layer's name to `layers` when it can
  // be enabled; else *why says why not. The folder: $OPRIG_VULKAN_GUARD_LAYER
  // ("off" disables the layer), else ../lib/oprig/vulkan_layer beside the
  // binary (installed), else the build tree's.
  bool request(std::vector<const char*>& layers, std::string* why);
  // After vkCreateInstance with the layer enabled: binds to it.
  void attach(VkDeviceSize max_storage_buffer_range);
  bool active() const { return register_ != nullptr; }

  void register_buffer(VkBuffer buffer, VkDeviceSize size) const;
  void unregister_buffer(VkBuffer buffer) const;

 private:
  std::string dir_;
  VkDeviceSize max_range_ = 0;
  void (*register_)(VkBuffer, VkDeviceSize, VkDeviceSize) = nullptr;
  void (*unregister_)(VkBuffer) = nullptr;
};

}  // namespace oprig::vulkan
