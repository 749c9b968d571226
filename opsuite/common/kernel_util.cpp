#include <cstring>

#include "common/kernel.hpp"

namespace oprig::opsuite {

std::optional<double> scalar_param(const oprig_param* params, size_t num_params,
                                   std::string_view name) {
  for (size_t i = 0; i < num_params; ++i) {
    const oprig_param& p = params[i];
    if (p.name == nullptr || name != p.name || p.count != 1 || p.data == nullptr) continue;
    switch (p.dtype) {
      case OPRIG_DTYPE_FLOAT_32: { float v; std::memcpy(&v, p.data, sizeof v); return v; }
      case OPRIG_DTYPE_FLOAT_64: { double v; std::memcpy(&v, p.data, sizeof v); return v; }
      case OPRIG_DTYPE_INT_32: { int32_t v; std::memcpy(&v, p.data, sizeof v); return v; }
      case OPRIG_DTYPE_UINT_32: { uint32_t v; std::memcpy(&v, p.data, sizeof v); return v; }
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

size_t element_count(const oprig_tensor& tensor) {
  size_t n = 1;
  for (uint32_t i = 0; i < tensor.rank; ++i) n *= static_cast<size_t>(tensor.dims[i]);
  return n;
}

}  // namespace oprig::opsuite
