// The factory the backend registry calls (factories.hpp).
#include "factories.hpp"
#include "vulkan/vulkan_backend.hpp"

namespace oprig {

std::unique_ptr<Backend> create_vulkan_backend(std::string* why) {
  return vulkan::create_backend(vulkan::VulkanOptions{}, why);
}

}  // namespace oprig
