// The vulkan DeviceStream (stream.cpp): kernels recorded into one command
// buffer of the stream's own, submitted once when the host needs a result.
#pragma once

#include <memory>

#include "backend.hpp"
#include "vulkan/vulkan_device.hpp"

namespace oprig::vulkan {

// Throws VulkanError when the command pool, buffer or fence cannot be made.
std::unique_ptr<DeviceStream> open_stream(std::shared_ptr<VulkanDevice> device);

}  // namespace oprig::vulkan
