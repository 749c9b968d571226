#include "cpu/cpu_backend.hpp"
#include "factories.hpp"

namespace oprig {

std::unique_ptr<Backend> create_cpu_backend(std::string* /*why*/) {
  return std::make_unique<CpuBackend>();  // the host is always there
}

}  // namespace oprig
