// One factory per compiled-in backend, defined in backends/<b>/registration.cpp.
// Each returns nullptr and explains in *why when its driver or device is absent.
#pragma once

#include <memory>
#include <string>

#include "backend.hpp"

namespace oprig {

std::unique_ptr<Backend> create_cpu_backend(std::string* why);
#if defined(OPRIG_HAVE_OPENCL)
std::unique_ptr<Backend> create_opencl_backend(std::string* why);
#endif
#if defined(OPRIG_HAVE_VULKAN)
std::unique_ptr<Backend> create_vulkan_backend(std::string* why);
#endif
#if defined(OPRIG_HAVE_DSP)
std::unique_ptr<Backend> create_dsp_backend(std::string* why);
#endif

}  // namespace oprig
