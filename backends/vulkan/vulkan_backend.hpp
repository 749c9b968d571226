// The vulkan backend's knobs, for tests that must reach code paths this
// machine would not take by itself. Everything else goes through
// create_vulkan_backend() in factories.hpp.
#pragma once

#include <memory>
#include <string>

#include "backend.hpp"

namespace oprig::vulkan {

struct VulkanOptions {
  // Keep tensors in memory the host never maps and move bytes through staging
  // buffers, as on a discrete GPU, even when the device offers host-visible
  // memory (lavapipe). Lets the staging path be tested without such a GPU.
  bool force_staging = false;
};

std::unique_ptr<Backend> create_backend(const VulkanOptions& options, std::string* why);

}  // namespace oprig::vulkan
