// VK_LAYER_OPRIG_guard_bands: a Vulkan layer the vulkan backend enables on
// its own instance so that an out-of-bounds store of a kernel lands in the
// red zone behind its tensor instead of being dropped by the driver.
//
// A kernel binds a tensor's VkBuffer itself, usually with a range of exactly
// the tensor's bytes. A store past that range is undefined without
// robustBufferAccess, and drivers that bounds-check storage buffers anyway
// (Mesa's lavapipe among them) silently drop it: the red zone stays intact
// and the bug is invisible. This layer rewrites every storage-buffer
// descriptor of a buffer oprig registered (its tensors, with guard bands
// behind them) to reach from the kernel's offset to the end of the buffer,
// at most maxStorageBufferRange: index 0 is where the kernel put it, and
// past-the-end indices address the tail red zone. Descriptors of any other
// buffer are passed on untouched.
//
// Intercepted: vkUpdateDescriptorSets and vkUpdateDescriptorSetWithTemplate
// (with the templates' layouts from vkCreateDescriptorUpdateTemplate).
// Dynamic storage buffers keep their range (a dynamic offset is added later).
// The backend registers its buffers through oprig_guard_layer_register(),
// found with dlsym in this library once the loader has loaded it.
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#define OPRIG_LAYER_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr const char* kLayerName = "VK_LAYER_OPRIG_guard_bands";

void* dispatch_key(const void* dispatchable) { return *static_cast<void* const*>(dispatchable); }

struct InstanceDispatch {
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
  PFN_vkDestroyInstance destroy_instance = nullptr;
};

struct DeviceDispatch {
  PFN_vkGetDeviceProcAddr get_device_proc_addr = nullptr;
  PFN_vkDestroyDevice destroy_device = nullptr;
  PFN_vkUpdateDescriptorSets update_descriptor_sets = nullptr;
  PFN_vkCreateDescriptorUpdateTemplate create_template = nullptr;
  PFN_vkDestroyDescriptorUpdateTemplate destroy_template = nullptr;
  PFN_vkUpdateDescriptorSetWithTemplate update_with_template = nullptr;
  PFN_vkCreateDescriptorUpdateTemplate create_template_khr = nullptr;
  PFN_vkDestroyDescriptorUpdateTemplate destroy_template_khr = nullptr;
  PFN_vkUpdateDescriptorSetWithTemplate update_with_template_khr = nullptr;
};

struct Registered {
  VkDeviceSize size;       // of the whole buffer, guards included
  VkDeviceSize max_range;  // the device's maxStorageBufferRange
};

// The layer's state is never destroyed: an application may destroy its
// instance and devices from its own static destructors, which run after
// this library's (it is loaded later), so destroyed maps would be freed twice.
struct LayerState {
  std::mutex mutex;
  std::map<void*, InstanceDispatch> instances;
  std::map<void*, DeviceDispatch> devices;
  std::map<VkBuffer, Registered> buffers;
  std::map<VkDescriptorUpdateTemplate, std::vector<VkDescriptorUpdateTemplateEntry>> templates;
};
LayerState& g_state = *new LayerState;
std::mutex& g_mutex = g_state.mutex;
std::map<void*, InstanceDispatch>& g_instances = g_state.instances;
std::map<void*, DeviceDispatch>& g_devices = g_state.devices;
std::map<VkBuffer, Registered>& g_buffers = g_state.buffers;
std::map<VkDescriptorUpdateTemplate, std::vector<VkDescriptorUpdateTemplateEntry>>& g_templates = g_state.templates;

InstanceDispatch instance_dispatch(const void* dispatchable) {
  const std::lock_guard lock(g_mutex);
  const auto it = g_instances.find(dispatch_key(dispatchable));
  return it == g_instances.end() ? InstanceDispatch{} : it->second;
}

DeviceDispatch device_dispatch(VkDevice device) {
  const std::lock_guard lock(g_mutex);
  const auto it = g_devices.find(dispatch_key(device));
  return it == g_devices.end() ? DeviceDispatch{} : it->second;
}

// Widens one buffer binding in place when its buffer is a registered tensor.
void widen(VkDescriptorBufferInfo& info) {
  const auto it = g_buffers.find(info.buffer);  // caller holds g_mutex
  if (it == g_buffers.end() || info.offset >= it->second.size) return;
  const VkDeviceSize to_end = std::min(it->second.size - info.offset, it->second.max_range);
  if (info.range == VK_WHOLE_SIZE || info.range < to_end) info.range = to_end;
}

bool is_storage_buffer(VkDescriptorType type) { return type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER; }

template <class T>
const T* find_in_chain(const void* next, VkStructureType type, VkLayerFunction function) {
  for (auto* p = static_cast<const VkBaseInStructure*>(next); p != nullptr; p = p->pNext)
    if (p->sType == type && reinterpret_cast<const T*>(p)->function == function) return reinterpret_cast<const T*>(p);
  return nullptr;
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSets(VkDevice device, uint32_t write_count,
                                                const VkWriteDescriptorSet* writes, uint32_t copy_count,
                                                const VkCopyDescriptorSet* copies) {
  const DeviceDispatch next = device_dispatch(device);
  std::vector<VkWriteDescriptorSet> changed(writes, writes + write_count);
  std::vector<std::vector<VkDescriptorBufferInfo>> infos(write_count);
  {
    const std::lock_guard lock(g_mutex);
    for (uint32_t i = 0; i < write_count; ++i) {
      if (!is_storage_buffer(changed[i].descriptorType) || changed[i].pBufferInfo == nullptr) continue;
      infos[i].assign(changed[i].pBufferInfo, changed[i].pBufferInfo + changed[i].descriptorCount);
      for (VkDescriptorBufferInfo& info : infos[i]) widen(info);
      changed[i].pBufferInfo = infos[i].data();
    }
  }
  next.update_descriptor_sets(device, write_count, changed.data(), copy_count, copies);
}

VkResult create_template(PFN_vkCreateDescriptorUpdateTemplate next, VkDevice device,
                         const VkDescriptorUpdateTemplateCreateInfo* info, const VkAllocationCallbacks* allocator,
                         VkDescriptorUpdateTemplate* out) {
  const VkResult result = next(device, info, allocator, out);
  if (result == VK_SUCCESS && info->templateType == VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET) {
    const std::lock_guard lock(g_mutex);
    g_templates[*out].assign(info->pDescriptorUpdateEntries,
                             info->pDescriptorUpdateEntries + info->descriptorUpdateEntryCount);
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorUpdateTemplate(VkDevice device,
                                                              const VkDescriptorUpdateTemplateCreateInfo* info,
                                                              const VkAllocationCallbacks* allocator,
                                                              VkDescriptorUpdateTemplate* out) {
  return create_template(device_dispatch(device).create_template, device, info, allocator, out);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorUpdateTemplateKHR(VkDevice device,
                                                                 const VkDescriptorUpdateTemplateCreateInfo* info,
                                                                 const VkAllocationCallbacks* allocator,
                                                                 VkDescriptorUpdateTemplate* out) {
  return create_template(device_dispatch(device).create_template_khr, device, info, allocator, out);
}

void forget_template(VkDescriptorUpdateTemplate t) {
  const std::lock_guard lock(g_mutex);
  g_templates.erase(t);
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorUpdateTemplate(VkDevice device, VkDescriptorUpdateTemplate t,
                                                           const VkAllocationCallbacks* allocator) {
  forget_template(t);
  device_dispatch(device).destroy_template(device, t, allocator);
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorUpdateTemplateKHR(VkDevice device, VkDescriptorUpdateTemplate t,
                                                              const VkAllocationCallbacks* allocator) {
  forget_template(t);
  device_dispatch(device).destroy_template_khr(device, t, allocator);
}

// The template's data copied, with its storage-buffer entries widened.
std::vector<unsigned char> widened_template_data(VkDescriptorUpdateTemplate t, const void* data) {
  const std::lock_guard lock(g_mutex);
  const auto it = g_templates.find(t);
  if (it == g_templates.end() || data == nullptr) return {};
  size_t extent = 0;
  bool any = false;
  for (const VkDescriptorUpdateTemplateEntry& e : it->second) {
    if (e.descriptorCount == 0) continue;
    size_t element = sizeof(VkDescriptorBufferInfo);
    if (e.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER || e.descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
        e.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || e.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
        e.descriptorType == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT)
      element = sizeof(VkDescriptorImageInfo);
    else if (e.descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
             e.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)
      element = sizeof(VkBufferView);
    else if (e.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
      element = 1;
    const size_t end = e.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK
                           ? e.offset + e.descriptorCount
                           : e.offset + (e.descriptorCount - 1) * e.stride + element;
    extent = std::max(extent, end);
    any |= is_storage_buffer(e.descriptorType);
  }
  if (!any) return {};
  std::vector<unsigned char> copy(static_cast<const unsigned char*>(data),
                                  static_cast<const unsigned char*>(data) + extent);
  for (const VkDescriptorUpdateTemplateEntry& e : it->second) {
    if (!is_storage_buffer(e.descriptorType)) continue;
    for (uint32_t k = 0; k < e.descriptorCount; ++k) {
      VkDescriptorBufferInfo info;
      std::memcpy(&info, copy.data() + e.offset + k * e.stride, sizeof info);
      widen(info);
      std::memcpy(copy.data() + e.offset + k * e.stride, &info, sizeof info);
    }
  }
  return copy;
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSetWithTemplate(VkDevice device, VkDescriptorSet set,
                                                           VkDescriptorUpdateTemplate t, const void* data) {
  const std::vector<unsigned char> widened = widened_template_data(t, data);
  device_dispatch(device).update_with_template(device, set, t, widened.empty() ? data : widened.data());
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSetWithTemplateKHR(VkDevice device, VkDescriptorSet set,
                                                              VkDescriptorUpdateTemplate t, const void* data) {
  const std::vector<unsigned char> widened = widened_template_data(t, data);
  device_dispatch(device).update_with_template_khr(device, set, t, widened.empty() ? data : widened.data());
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                              VkInstance* instance) {
  auto* link = const_cast<VkLayerInstanceCreateInfo*>(find_in_chain<VkLayerInstanceCreateInfo>(
      info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO, VK_LAYER_LINK_INFO));
  if (link == nullptr || link->u.pLayerInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;  // the next layer sees its own link
  auto create = reinterpret_cast<PFN_vkCreateInstance>(next_gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult result = create(info, allocator, instance);
  if (result != VK_SUCCESS) return result;
  InstanceDispatch d;
  d.get_instance_proc_addr = next_gipa;
  d.destroy_instance = reinterpret_cast<PFN_vkDestroyInstance>(next_gipa(*instance, "vkDestroyInstance"));
  const std::lock_guard lock(g_mutex);
  g_instances[dispatch_key(*instance)] = d;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
  const InstanceDispatch d = instance_dispatch(instance);
  {
    const std::lock_guard lock(g_mutex);
    g_instances.erase(dispatch_key(instance));
  }
  if (d.destroy_instance != nullptr) d.destroy_instance(instance, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkDevice* device) {
  auto* link = const_cast<VkLayerDeviceCreateInfo*>(find_in_chain<VkLayerDeviceCreateInfo>(
      info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO, VK_LAYER_LINK_INFO));
  if (link == nullptr || link->u.pLayerInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateDevice>(next_gipa(VK_NULL_HANDLE, "vkCreateDevice"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult result = create(physical, info, allocator, device);
  if (result != VK_SUCCESS) return result;
  DeviceDispatch d;
  d.get_device_proc_addr = next_gdpa;
  auto get = [&](const char* name) { return next_gdpa(*device, name); };
  d.destroy_device = reinterpret_cast<PFN_vkDestroyDevice>(get("vkDestroyDevice"));
  d.update_descriptor_sets = reinterpret_cast<PFN_vkUpdateDescriptorSets>(get("vkUpdateDescriptorSets"));
  d.create_template = reinterpret_cast<PFN_vkCreateDescriptorUpdateTemplate>(get("vkCreateDescriptorUpdateTemplate"));
  d.destroy_template =
      reinterpret_cast<PFN_vkDestroyDescriptorUpdateTemplate>(get("vkDestroyDescriptorUpdateTemplate"));
  d.update_with_template =
      reinterpret_cast<PFN_vkUpdateDescriptorSetWithTemplate>(get("vkUpdateDescriptorSetWithTemplate"));
  d.create_template_khr =
      reinterpret_cast<PFN_vkCreateDescriptorUpdateTemplate>(get("vkCreateDescriptorUpdateTemplateKHR"));
  d.destroy_template_khr =
      reinterpret_cast<PFN_vkDestroyDescriptorUpdateTemplate>(get("vkDestroyDescriptorUpdateTemplateKHR"));
  d.update_with_template_khr =
      reinterpret_cast<PFN_vkUpdateDescriptorSetWithTemplate>(get("vkUpdateDescriptorSetWithTemplateKHR"));
  const std::lock_guard lock(g_mutex);
  g_devices[dispatch_key(*device)] = d;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* allocator) {
  const DeviceDispatch d = device_dispatch(device);
  {
    const std::lock_guard lock(g_mutex);
    g_devices.erase(dispatch_key(device));
  }
  if (d.destroy_device != nullptr) d.destroy_device(device, allocator);
}

// Ours for the functions this layer changes (only where the next one has
// them), else the next layer's.
PFN_vkVoidFunction device_function(const DeviceDispatch& d, const char* name) {
  struct Entry {
    const char* name;
    PFN_vkVoidFunction ours;
    bool available;
  };
  const Entry entries[] = {
      {"vkGetDeviceProcAddr", nullptr, true},
      {"vkDestroyDevice", reinterpret_cast<PFN_vkVoidFunction>(DestroyDevice), true},
      {"vkUpdateDescriptorSets", reinterpret_cast<PFN_vkVoidFunction>(UpdateDescriptorSets),
       d.update_descriptor_sets != nullptr},
      {"vkCreateDescriptorUpdateTemplate", reinterpret_cast<PFN_vkVoidFunction>(CreateDescriptorUpdateTemplate),
       d.create_template != nullptr},
      {"vkDestroyDescriptorUpdateTemplate", reinterpret_cast<PFN_vkVoidFunction>(DestroyDescriptorUpdateTemplate),
       d.destroy_template != nullptr},
      {"vkUpdateDescriptorSetWithTemplate", reinterpret_cast<PFN_vkVoidFunction>(UpdateDescriptorSetWithTemplate),
       d.update_with_template != nullptr},
      {"vkCreateDescriptorUpdateTemplateKHR",
       reinterpret_cast<PFN_vkVoidFunction>(CreateDescriptorUpdateTemplateKHR), d.create_template_khr != nullptr},
      {"vkDestroyDescriptorUpdateTemplateKHR",
       reinterpret_cast<PFN_vkVoidFunction>(DestroyDescriptorUpdateTemplateKHR), d.destroy_template_khr != nullptr},
      {"vkUpdateDescriptorSetWithTemplateKHR",
       reinterpret_cast<PFN_vkVoidFunction>(UpdateDescriptorSetWithTemplateKHR),
       d.update_with_template_khr != nullptr},
  };
  for (const Entry& e : entries)
    if (std::strcmp(name, e.name) == 0 && e.ours != nullptr && e.available) return e.ours;
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

// Internal names only: an exported vkGetInstanceProcAddr referred to from
// inside this library could bind to the loader's (symbol interposition).
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(GetInstanceProcAddr);
  if (std::strcmp(name, "vkCreateInstance") == 0) return reinterpret_cast<PFN_vkVoidFunction>(CreateInstance);
  if (std::strcmp(name, "vkDestroyInstance") == 0) return reinterpret_cast<PFN_vkVoidFunction>(DestroyInstance);
  if (std::strcmp(name, "vkCreateDevice") == 0) return reinterpret_cast<PFN_vkVoidFunction>(CreateDevice);
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(GetDeviceProcAddr);
  if (instance == VK_NULL_HANDLE) return nullptr;
  const InstanceDispatch d = instance_dispatch(instance);
  return d.get_instance_proc_addr ? d.get_instance_proc_addr(instance, name) : nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(GetDeviceProcAddr);
  const DeviceDispatch d = device_dispatch(device);
  if (PFN_vkVoidFunction ours = device_function(d, name)) return ours;
  return d.get_device_proc_addr ? d.get_device_proc_addr(device, name) : nullptr;
}

}  // namespace

OPRIG_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                                  const char* name) {
  return GetInstanceProcAddr(instance, name);
}

OPRIG_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* name) {
  return GetDeviceProcAddr(device, name);
}

OPRIG_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (version == nullptr || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
  if (version->loaderLayerInterfaceVersion > 2) version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

// The backend's side (backends/vulkan/guard_layer_client.cpp): which buffers
// are oprig's tensors with guard bands, and how far a binding may reach.
OPRIG_LAYER_EXPORT void oprig_guard_layer_register(VkBuffer buffer, VkDeviceSize size, VkDeviceSize max_range) {
  const std::lock_guard lock(g_mutex);
  g_buffers[buffer] = {size, max_range};
}

OPRIG_LAYER_EXPORT void oprig_guard_layer_unregister(VkBuffer buffer) {
  const std::lock_guard lock(g_mutex);
  g_buffers.erase(buffer);
}

OPRIG_LAYER_EXPORT const char* oprig_guard_layer_name() { return kLayerName; }
