#include "vulkan/guard_layer_client.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace oprig::vulkan {
namespace {

constexpr const char* kLayerName = "VK_LAYER_OPRIG_guard_bands";
constexpr const char* kManifest = "VK_LAYER_OPRIG_guard_bands.json";
constexpr const char* kLibrary = "liboprig_vk_guard_layer.so";

std::filesystem::path this_binary_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

bool loader_lists_layer() {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
  for (const VkLayerProperties& l : layers)
    if (std::strcmp(l.layerName, kLayerName) == 0) return true;
  return false;
}

}  // namespace

bool GuardLayerClient::request(std::vector<const char*>& layers, std::string* why) {
  std::vector<std::filesystem::path> candidates;
  if (const char* env = std::getenv("OPRIG_VULKAN_GUARD_LAYER"); env != nullptr && env[0] != '\0') {
    if (std::strcmp(env, "off") == 0 || std::strcmp(env, "0") == 0) {
      *why = "disabled by OPRIG_VULKAN_GUARD_LAYER=" + std::string(env);
      return false;
    }
    candidates.emplace_back(env);
  } else {
    if (const auto dir = this_binary_dir(); !dir.empty()) candidates.push_back(dir / ".." / "lib" / "oprig" / "vulkan_layer");
#ifdef OPRIG_VK_GUARD_LAYER_BUILD_DIR
    candidates.emplace_back(OPRIG_VK_GUARD_LAYER_BUILD_DIR);
#endif
  }
  for (const auto& dir : candidates)
    if (std::filesystem::exists(dir / kManifest) && std::filesystem::exists(dir / kLibrary)) {
      dir_ = std::filesystem::weakly_canonical(dir).string();
      break;
    }
  if (dir_.empty()) {
    *why = std::string("no ") + kManifest + " with " + kLibrary + " found" +
           (candidates.empty() ? "" : " (looked in " + candidates.front().string() + ")");
    return false;
  }
  // The loader reads VK_ADD_LAYER_PATH whenever it scans for layers; workers inherit it.
  const char* before = std::getenv("VK_ADD_LAYER_PATH");
  const std::string path = before != nullptr && before[0] != '\0' ? std::string(before) + ":" + dir_ : dir_;
  if (before == nullptr || std::string(before).find(dir_) == std::string::npos) setenv("VK_ADD_LAYER_PATH", path.c_str(), 1);
  if (!loader_lists_layer()) {
    *why = "the Vulkan loader does not list " + std::string(kLayerName) + " from " + dir_;
    return false;
  }
  layers.push_back(kLayerName);
  return true;
}

void GuardLayerClient::attach(VkDeviceSize max_storage_buffer_range) {
  max_range_ = max_storage_buffer_range;
  // The loader has loaded the library: this finds the same object (same file).
  void* handle = dlopen((std::filesystem::path(dir_) / kLibrary).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return;
  register_ = reinterpret_cast<void (*)(VkBuffer, VkDeviceSize, VkDeviceSize)>(dlsym(handle, "oprig_guard_layer_register"));
  unregister_ = reinterpret_cast<void (*)(VkBuffer)>(dlsym(handle, "oprig_guard_layer_unregister"));
  if (register_ == nullptr || unregister_ == nullptr) register_ = nullptr, unregister_ = nullptr;
}

void GuardLayerClient::register_buffer(VkBuffer buffer, VkDeviceSize size) const {
  if (register_ != nullptr) register_(buffer, size, max_range_);
}

void GuardLayerClient::unregister_buffer(VkBuffer buffer) const {
  if (unregister_ != nullptr) unregister_(buffer);
}

}  // namespace oprig::vulkan
