#include <cstring>

#include "common/kernel.hpp"

namespace oprig::opsuite {
namespace {

// Element i of a parameter's data as double; nullopt for a non-numeric dtype.
std::optional<double> element(const oprig_param& p, size_t i) {
  const auto* base = static_cast<const unsigned char*>(p.data);
  auto load = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, base + i * sizeof v, sizeof v);
    return static_cast<double>(v);
  };
  switch (p.dtype) {
    case OPRIG_DTYPE_FLOAT_32: return load(float{});
    case OPRIG_DTYPE_FLOAT_64: return load(double{});
    case OPRIG_DTYPE_INT_8: return load(int8_t{});
    case OPRIG_DTYPE_INT_16: return load(int16_t{});
    case OPRIG_DTYPE_INT_32: return load(int32_t{});
    case OPRIG_DTYPE_INT_64: return load(int64_t{});
    case OPRIG_DTYPE_UINT_8: case OPRIG_DTYPE_BOOL_8: return load(uint8_t{});
    case OPRIG_DTYPE_UINT_16: return load(uint16_t{});
    case OPRIG_DTYPE_UINT_32: return load(uint32_t{});
    case OPRIG_DTYPE_UINT_64: return load(uint64_t{});
    default: return std::nullopt;
  }
}

}  // namespace

const oprig_param* find_param(const oprig_param* params, size_t num_params, std::string_view name) {
  if (params == nullptr) return nullptr;
  for (size_t i = 0; i < num_params; ++i)
    if (params[i].name != nullptr && name == params[i].name && params[i].data != nullptr) return &params[i];
  return nullptr;
}

std::optional<double> scalar_param(const oprig_param* params, size_t num_params, std::string_view name) {
  const oprig_param* p = find_param(params, num_params, name);
  if (p == nullptr || p->count != 1) return std::nullopt;
  return element(*p, 0);
}

std::optional<std::vector<double>> float_list_param(const oprig_param* params, size_t num_params,
                                                    std::string_view name) {
  const oprig_param* p = find_param(params, num_params, name);
  if (p == nullptr) return std::nullopt;
  std::vector<double> out;
  for (size_t i = 0; i < p->count; ++i) {
    const std::optional<double> v = element(*p, i);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<std::vector<int64_t>> int_list_param(const oprig_param* params, size_t num_params,
                                                   std::string_view name) {
  const std::optional<std::vector<double>> values = float_list_param(params, num_params, name);
  if (!values) return std::nullopt;
  std::vector<int64_t> out;
  for (double v : *values) out.push_back(static_cast<int64_t>(v));
  return out;
}

std::optional<int> enum_param(const oprig_param* params, size_t num_params, std::string_view name,
                              std::initializer_list<std::string_view> values) {
  const oprig_param* p = find_param(params, num_params, name);
  if (p == nullptr) return std::nullopt;
  if (p->dtype == OPRIG_DTYPE_STRING) {
    const std::string_view text(static_cast<const char*>(p->data), p->count);
    int index = 0;
    for (std::string_view v : values) {
      if (v == text) return index;
      ++index;
    }
    return -1;
  }
  const std::optional<double> v = p->count == 1 ? element(*p, 0) : std::nullopt;
  if (!v || *v < 0 || *v >= static_cast<double>(values.size()) || *v != static_cast<int>(*v)) return -1;
  return static_cast<int>(*v);
}

size_t element_count(const oprig_tensor& tensor) {
  size_t n = 1;
  for (uint32_t i = 0; i < tensor.rank; ++i) n *= static_cast<size_t>(tensor.dims[i]);
  return n;
}

}  // namespace oprig::opsuite
