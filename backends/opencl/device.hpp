// Finding an OpenCL device and describing it.
#pragma once

#include <CL/cl.h>

#include <optional>
#include <string>

#include "backend.hpp"

namespace oprig::opencl {

struct SelectedDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
};

// The first GPU of any platform, else the first device of any type. nullopt,
// with the reason in *why, when the loader has no platform or no device.
std::optional<SelectedDevice> select_device(std::string* why);

// Name, vendor, driver and API versions, element types, timer and determinism.
DeviceInfo describe_device(const SelectedDevice& selected);

// CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: where a sub-buffer may start.
size_t base_address_alignment(cl_device_id device);

}  // namespace oprig::opencl
