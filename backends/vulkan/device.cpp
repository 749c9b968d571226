// Instance, physical device choice, logical device, the shared command buffer.
// Nothing exotic is enabled: no extensions, and of the optional features
// only shaderFloat64 where the device has it (robustBufferAccess stays off),
// so any conformant Vulkan 1.1+ driver (lavapipe included) can host oprig.
// One layer of oprig's own, VK_LAYER_OPRIG_guard_bands, widens kernels'
// bindings of tensors into their red zones (README.md).
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <vector>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "vulkan/vulkan_device.hpp"

namespace oprig::vulkan {
namespace {

constexpr uint64_t kSubmitTimeoutNs = 120'000'000'000ull;  // a hung kernel must not hang the rig forever

// Lower is better: a real GPU first, lavapipe (CPU) last.
int device_type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
  }
}

std::optional<uint32_t> compute_queue_family(VkPhysicalDevice device, uint32_t* timestamp_bits) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  // Prefer a compute-only family (async compute on GPUs), else any with compute.
  std::optional<uint32_t> chosen;
  for (uint32_t i = 0; i < count; ++i) {
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) == 0 || families[i].queueCount == 0) continue;
    const bool compute_only = (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) == 0;
    if (!chosen || compute_only) chosen = i;
    if (compute_only) break;
  }
  if (chosen) *timestamp_bits = families[*chosen].timestampValidBits;
  return chosen;
}

std::string describe_driver(VkPhysicalDevice device, const VkPhysicalDeviceProperties& properties) {
  if (properties.apiVersion >= VK_API_VERSION_1_2) {
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties2.pNext = &driver;
    vkGetPhysicalDeviceProperties2(device, &properties2);
    std::string text = driver.driverName;
    if (driver.driverInfo[0] != '\0') text += std::string(" ") + driver.driverInfo;
    if (!text.empty()) return text;
  }
  // Before 1.2 the driver version is a vendor-encoded number only.
  return "driver version " + std::to_string(properties.driverVersion);
}

// OPRIG_VULKAN_FLUSH_DENORMALS=1 makes a CPU driver (lavapipe) compute fp32
// as NVIDIA's Vulkan driver does by default: denormal inputs and results of
// float arithmetic flushed to zero. lavapipe runs shaders on threads it
// starts in vkCreateDevice, and threads inherit their creator's SSE control
// register, so the device is created with flush-to-zero and
// denormals-are-zero set there and the caller's register is restored right
// after. A kernel whose fp32 intermediates fall below 2^-126 then fails here
// as it would on an NVIDIA GPU (Activation's GELU_ERF did, issue nv-fix).
// fp64 is flushed too on x86, which NVIDIA does not do: a kernel computing
// fp32 exactly through double (common/glsl/fp32_exact.glsl) is not
// representative under it. No effect on a GPU driver or off x86.
class FlushDenormalsWhileCreating {
 public:
  FlushDenormalsWhileCreating() {
#if defined(__x86_64__) || defined(__i386__)
    const char* env = std::getenv("OPRIG_VULKAN_FLUSH_DENORMALS");
    if (env == nullptr || env[0] == '\0' || std::string(env) == "0") return;
    saved_ = _mm_getcsr();
    active_ = true;
    constexpr unsigned kFlushToZero = 0x8000u, kDenormalsAreZero = 0x0040u;
    _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero);
#endif
  }
  ~FlushDenormalsWhileCreating() {
#if defined(__x86_64__) || defined(__i386__)
    if (active_) _mm_setcsr(saved_);
#endif
  }
  FlushDenormalsWhileCreating(const FlushDenormalsWhileCreating&) = delete;
  FlushDenormalsWhileCreating& operator=(const FlushDenormalsWhileCreating&) = delete;
  bool active() const { return active_; }

 private:
  unsigned saved_ = 0;
  bool active_ = false;
};

}  // namespace

std::shared_ptr<VulkanDevice> VulkanDevice::create(const VulkanOptions& options, std::string* why) {
  auto fail = [&](std::string reason) -> std::shared_ptr<VulkanDevice> {
    if (why != nullptr) *why = std::move(reason);
    return nullptr;
  };
  std::shared_ptr<VulkanDevice> self(new VulkanDevice());
  self->force_staging_ = options.force_staging;

  uint32_t loader_version = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion(&loader_version) != VK_SUCCESS) loader_version = VK_API_VERSION_1_0;
  if (loader_version < VK_API_VERSION_1_1)
    return fail("Vulkan loader supports only Vulkan 1.0; oprig needs 1.1");

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "oprig";
  app.pEngineName = "oprig";
  app.apiVersion = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  std::vector<const char*> layers;
  if (!self->guard_layer_.request(layers, &self->guard_layer_problem_)) {
    self->guard_layer_problem_ = "oprig vulkan: VK_LAYER_OPRIG_guard_bands not enabled (" + self->guard_layer_problem_ +
                                 "): red zones catch only the out-of-bounds stores a kernel's own binding reaches";
    std::fprintf(stderr, "%s\n", self->guard_layer_problem_.c_str());
  }
  instance_info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  instance_info.ppEnabledLayerNames = layers.data();
  if (VkResult r = vkCreateInstance(&instance_info, nullptr, &self->instance_); r != VK_SUCCESS) {
    self->instance_ = VK_NULL_HANDLE;
    return fail("no Vulkan driver: vkCreateInstance returned " + result_name(r) +
                " (no ICD installed, e.g. mesa-vulkan-drivers for lavapipe)");
  }

  uint32_t count = 0;
  vkEnumeratePhysicalDevices(self->instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(self->instance_, &count, devices.data());
  if (count == 0) return fail("no Vulkan physical device (the loader found no ICD with a device)");

  int best_rank = 1 << 30;
  for (VkPhysicalDevice candidate : devices) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(candidate, &properties);
    if (properties.apiVersion < VK_API_VERSION_1_1) continue;
    uint32_t timestamp_bits = 0;
    const std::optional<uint32_t> family = compute_queue_family(candidate, &timestamp_bits);
    if (!family) continue;
    const int rank = device_type_rank(properties.deviceType);
    if (rank < best_rank) {
      best_rank = rank;
      self->physical_ = candidate;
      self->properties_ = properties;
      self->queue_family_ = *family;
      self->timestamp_valid_bits_ = timestamp_bits;
    }
  }
  if (self->physical_ == VK_NULL_HANDLE)
    return fail("no Vulkan 1.1+ device with a compute queue among " + std::to_string(count) +
                " device(s)");
  self->driver_description_ = describe_driver(self->physical_, self->properties_);
  if (!layers.empty()) self->guard_layer_.attach(self->properties_.limits.maxStorageBufferRange);
  vkGetPhysicalDeviceMemoryProperties(self->physical_, &self->memory_properties_);

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = self->queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  // The one optional feature: double precision in shaders, where the device
  // has it (kernels that compute fp32 exactly through double check it with
  // vkGetPhysicalDeviceFeatures, e.g. opsuite/elementwise_binary/vulkan.comp).
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(self->physical_, &supported);
  VkPhysicalDeviceFeatures enabled{};
  enabled.shaderFloat64 = supported.shaderFloat64;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.pEnabledFeatures = &enabled;
  VkResult created = VK_SUCCESS;
  {
    const FlushDenormalsWhileCreating flush;
    created = vkCreateDevice(self->physical_, &device_info, nullptr, &self->device_);
    if (flush.active()) self->driver_description_ += " (fp32 denormals flushed: OPRIG_VULKAN_FLUSH_DENORMALS)";
  }
  if (created != VK_SUCCESS) {
    self->device_ = VK_NULL_HANDLE;
    return fail(std::string("vkCreateDevice on ") + self->properties_.deviceName + " returned " +
                result_name(created));
  }
  vkGetDeviceQueue(self->device_, self->queue_family_, 0, &self->queue_);

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = self->queue_family_;
  VkCommandBufferAllocateInfo buffer_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  buffer_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  buffer_info.commandBufferCount = 1;
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (VkResult r = vkCreateCommandPool(self->device_, &pool_info, nullptr, &self->command_pool_);
      r != VK_SUCCESS)
    return fail("vkCreateCommandPool returned " + result_name(r));
  buffer_info.commandPool = self->command_pool_;
  if (VkResult r = vkAllocateCommandBuffers(self->device_, &buffer_info, &self->command_buffer_);
      r != VK_SUCCESS)
    return fail("vkAllocateCommandBuffers returned " + result_name(r));
  if (VkResult r = vkCreateFence(self->device_, &fence_info, nullptr, &self->fence_); r != VK_SUCCESS)
    return fail("vkCreateFence returned " + result_name(r));

  // Tensors need staging when the memory they would live in cannot be mapped.
  const std::optional<uint32_t> tensor_type = self->pick_memory_type(~0u, MemoryKind::kDevice);
  self->tensors_need_staging_ =
      options.force_staging || !tensor_type ||
      (self->memory_properties_.memoryTypes[*tensor_type].propertyFlags &
       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) == 0;
  return self;
}

VulkanDevice::~VulkanDevice() {
  if (device_ != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device_);
    if (fence_ != VK_NULL_HANDLE) vkDestroyFence(device_, fence_, nullptr);
    if (command_pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_, command_pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

std::optional<uint32_t> VulkanDevice::pick_memory_type(uint32_t allowed_types,
                                                       MemoryKind kind) const {
  // Each kind lists property sets from most to least wanted; the first type
  // that the buffer allows and that has all the properties of a set wins.
  constexpr VkMemoryPropertyFlags kLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  constexpr VkMemoryPropertyFlags kVisible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  constexpr VkMemoryPropertyFlags kCoherent = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  constexpr VkMemoryPropertyFlags kCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  const std::array<VkMemoryPropertyFlags, 3> device_wants = {kLocal, kVisible, 0};
  const std::array<VkMemoryPropertyFlags, 3> staging_wants = {kVisible | kCoherent | kCached,
                                                              kVisible | kCoherent, kVisible};
  const auto& wants = kind == MemoryKind::kDevice ? device_wants : staging_wants;
  for (VkMemoryPropertyFlags want : wants) {
    for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
      if ((allowed_types & (1u << i)) == 0) continue;
      if ((memory_properties_.memoryTypes[i].propertyFlags & want) == want) return i;
    }
  }
  return std::nullopt;
}

RawBuffer VulkanDevice::create_buffer(VkDeviceSize size, MemoryKind kind) {
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = size;
  buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                      VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  buffer_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  check(vkCreateBuffer(device_, &buffer_info, nullptr, &buffer), "vkCreateBuffer");
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
  bool coherent = true;
  try {
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device_, buffer, &requirements);
    const std::optional<uint32_t> type = pick_memory_type(requirements.memoryTypeBits, kind);
    if (!type) throw VulkanError("finding a memory type", VK_ERROR_FEATURE_NOT_PRESENT);
    VkMemoryAllocateInfo allocate_info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate_info.allocationSize = requirements.size;
    allocate_info.memoryTypeIndex = *type;
    check(vkAllocateMemory(device_, &allocate_info, nullptr, &memory), "vkAllocateMemory");
    check(vkBindBufferMemory(device_, buffer, memory, 0), "vkBindBufferMemory");
    const VkMemoryPropertyFlags flags = memory_properties_.memoryTypes[*type].propertyFlags;
    coherent = (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
    // force_staging leaves tensor memory unmapped even where it could be mapped.
    const bool map = (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0 &&
                     (kind == MemoryKind::kStaging || !force_staging_);
    if (map) check(vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
  } catch (...) {
    if (memory != VK_NULL_HANDLE) vkFreeMemory(device_, memory, nullptr);
    vkDestroyBuffer(device_, buffer, nullptr);
    throw;
  }
  return RawBuffer(device_, buffer, memory, size, mapped, coherent);
}

void VulkanDevice::submit_and_wait(const std::function<void(VkCommandBuffer)>& record) {
  std::lock_guard lock(queue_mutex_);
  check(vkResetCommandBuffer(command_buffer_, 0), "vkResetCommandBuffer");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(command_buffer_, &begin), "vkBeginCommandBuffer");
  record(command_buffer_);
  check(vkEndCommandBuffer(command_buffer_), "vkEndCommandBuffer");
  check(submit_locked_and_wait(), "submitting a copy");
}

VkResult VulkanDevice::submit_locked_and_wait() {
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &command_buffer_;
  if (VkResult r = vkQueueSubmit(queue_, 1, &submit, fence_); r != VK_SUCCESS) return r;
  const VkResult waited = vkWaitForFences(device_, 1, &fence_, VK_TRUE, kSubmitTimeoutNs);
  if (waited != VK_SUCCESS) return waited;
  return vkResetFences(device_, 1, &fence_);
}

VkResult VulkanDevice::submit_and_wait(VkCommandBuffer cmd, VkFence fence) {
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  {
    std::lock_guard lock(queue_mutex_);
    if (VkResult r = vkQueueSubmit(queue_, 1, &submit, fence); r != VK_SUCCESS) return r;
  }
  const VkResult waited = vkWaitForFences(device_, 1, &fence, VK_TRUE, kSubmitTimeoutNs);
  if (waited != VK_SUCCESS) return waited;
  return vkResetFences(device_, 1, &fence);
}

}  // namespace oprig::vulkan
