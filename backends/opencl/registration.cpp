// The factory the registry calls (backends/factories.hpp).
#include <stdexcept>

#include "factories.hpp"
#include "opencl_backend.hpp"

namespace oprig {

std::unique_ptr<Backend> create_opencl_backend(std::string* why) {
  const std::optional<opencl::SelectedDevice> selected = opencl::select_device(why);
  if (!selected) return nullptr;
  try {
    return std::make_unique<opencl::OpenCLBackend>(*selected);
  } catch (const std::runtime_error& error) {
    if (why != nullptr) *why = std::string("OpenCL device found but unusable: ") + error.what();
    return nullptr;
  }
}

}  // namespace oprig
