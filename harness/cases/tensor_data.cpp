#include "cases/tensor_data.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "cases/rng.hpp"
#include "core/dtype.hpp"
#include "core/half.hpp"

namespace oprig::harness {
namespace {

struct CodeRange {
  double min, max;
};

CodeRange code_range(oprig_dtype dtype) {
  switch (dtype) {
    case OPRIG_DTYPE_UINT_8: return {0, 255};
    case OPRIG_DTYPE_INT_8: return {-128, 127};
    case OPRIG_DTYPE_UINT_16: return {0, 65535};
    case OPRIG_DTYPE_INT_16: return {-32768, 32767};
    case OPRIG_DTYPE_INT_32: return {-2147483648.0, 2147483647.0};
    case OPRIG_DTYPE_UINT_32: return {0, 4294967295.0};
    case OPRIG_DTYPE_BOOL_8: return {0, 1};
    default: throw std::runtime_error("no integer code range for " + std::string(dtype_name(dtype)));
  }
}

double max_finite(oprig_dtype dtype) {
  return dtype == OPRIG_DTYPE_FLOAT_16 ? 65504.0 : std::numeric_limits<float>::max();
}

// Rounds a double to the value the float dtype stores.
double to_dtype_value(double v, oprig_dtype dtype) {
  const float f = static_cast<float>(v);
  return dtype == OPRIG_DTYPE_FLOAT_16 ? half_to_float(float_to_half(f)) : f;
}

double load_element(const std::vector<std::byte>& bytes, oprig_dtype dtype, size_t i) {
  const std::byte* p = bytes.data() + i * dtype_size(dtype);
  switch (dtype) {
    case OPRIG_DTYPE_FLOAT_32: { float v; std::memcpy(&v, p, 4); return v; }
    case OPRIG_DTYPE_FLOAT_64: { double v; std::memcpy(&v, p, 8); return v; }
    case OPRIG_DTYPE_FLOAT_16: { uint16_t v; std::memcpy(&v, p, 2); return half_to_float(v); }
    case OPRIG_DTYPE_UINT_8: case OPRIG_DTYPE_BOOL_8: { uint8_t v; std::memcpy(&v, p, 1); return v; }
    case OPRIG_DTYPE_INT_8: { int8_t v; std::memcpy(&v, p, 1); return v; }
    case OPRIG_DTYPE_UINT_16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case OPRIG_DTYPE_INT_16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case OPRIG_DTYPE_INT_32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case OPRIG_DTYPE_UINT_32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: throw std::runtime_error("unsupported dtype " + std::string(dtype_name(dtype)));
  }
}

}  // namespace

size_t TensorData::element_count() const {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

void store_element(std::vector<std::byte>& bytes, oprig_dtype dtype, size_t i, double value) {
  std::byte* p = bytes.data() + i * dtype_size(dtype);
  switch (dtype) {
    case OPRIG_DTYPE_FLOAT_32: { const float v = static_cast<float>(value); std::memcpy(p, &v, 4); return; }
    case OPRIG_DTYPE_FLOAT_64: std::memcpy(p, &value, 8); return;
    case OPRIG_DTYPE_FLOAT_16: { const uint16_t v = float_to_half(static_cast<float>(value)); std::memcpy(p, &v, 2); return; }
    case OPRIG_DTYPE_UINT_8: case OPRIG_DTYPE_BOOL_8: { const auto v = static_cast<uint8_t>(value); std::memcpy(p, &v, 1); return; }
    case OPRIG_DTYPE_INT_8: { const auto v = static_cast<int8_t>(value); std::memcpy(p, &v, 1); return; }
    case OPRIG_DTYPE_UINT_16: { const auto v = static_cast<uint16_t>(value); std::memcpy(p, &v, 2); return; }
    case OPRIG_DTYPE_INT_16: { const auto v = static_cast<int16_t>(value); std::memcpy(p, &v, 2); return; }
    case OPRIG_DTYPE_INT_32: { const auto v = static_cast<int32_t>(value); std::memcpy(p, &v, 4); return; }
    case OPRIG_DTYPE_UINT_32: { const auto v = static_cast<uint32_t>(value); std::memcpy(p, &v, 4); return; }
    default: throw std::runtime_error("unsupported dtype " + std::string(dtype_name(dtype)));
  }
}

double edge_value(const std::string& name, oprig_dtype dtype) {
  const bool half = dtype == OPRIG_DTYPE_FLOAT_16;
  const bool negative = !name.empty() && name[0] == '-';
  const std::string base = (!name.empty() && (name[0] == '-' || name[0] == '+')) ? name.substr(1) : name;
  double v = 0.0;
  if (base == "0") v = 0.0;
  else if (base == "inf") v = std::numeric_limits<double>::infinity();
  else if (base == "nan") v = std::numeric_limits<double>::quiet_NaN();
  else if (base == "denorm_min") v = half ? 0x1p-24 : std::numeric_limits<float>::denorm_min();
  else if (base == "denorm_max") v = half ? 0x3ffp-24 : std::numeric_limits<float>::min() - std::numeric_limits<float>::denorm_min();
  else if (base == "lowest_normal") v = half ? 0x1p-14 : std::numeric_limits<float>::min();
  else if (base == "max") v = max_finite(dtype);
  else {
    size_t used = 0;
    try {
      v = std::stod(base, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != base.size() || base.empty()) throw std::runtime_error("unknown edge value '" + name + "'");
  }
  return to_dtype_value(negative ? -v : v, dtype);
}

std::vector<TensorData> make_inputs(const Case& c, const TestPlan& plan, size_t num_inputs) {
  std::vector<TensorData> inputs;
  for (size_t k = 0; k < num_inputs; ++k) {
    TensorData t;
    t.dtype = c.dtype;
    t.shape = c.shape;
    if (c.quantized && k < c.input_quant.size()) t.quant = c.input_quant[k];
    const size_t n = t.element_count();
    t.bytes.assign(n * dtype_size(c.dtype), std::byte{0});
    SplitMix64 rng(c.seed + 0x9e37 * (k + 1));

    if (c.literal >= 0) {
      const auto& values = plan.golden_literals.at(static_cast<size_t>(c.literal)).inputs.at(k);
      for (size_t i = 0; i < n; ++i) store_element(t.bytes, c.dtype, i, to_dtype_value(values[i], c.dtype));
      inputs.push_back(std::move(t));
      continue;
    }
    const Fill* fill = find_fill(plan, c);
    if (fill == nullptr) throw std::runtime_error("case " + c.id + ": no fill named '" + c.fill + "' in the plan");
    if (c.quantized) {
      const CodeRange range = code_range(c.dtype);
      const double span = range.max - range.min + 1;
      for (size_t i = 0; i < n; ++i) {
        double code;
        if (fill->kind == "all_codes")  // every code once per span, from a seeded start
          code = range.min + std::fmod(static_cast<double>(i) + static_cast<double>(c.seed % 65536), span);
        else
          code = range.min + std::floor(rng.unit() * span);
        store_element(t.bytes, c.dtype, i, code);
      }
    } else if (fill->kind == "edge") {
      for (size_t i = 0; i < n; ++i)
        store_element(t.bytes, c.dtype, i, edge_value(fill->edge_values[i % fill->edge_values.size()], c.dtype));
    } else if (fill->kind == "uniform") {
      const double limit = max_finite(c.dtype);
      const double low = std::max(fill->low, -limit), high = std::min(fill->high, limit);
      for (size_t i = 0; i < n; ++i)
        store_element(t.bytes, c.dtype, i, to_dtype_value(low + (high - low) * rng.unit(), c.dtype));
    } else {
      throw std::runtime_error("case " + c.id + ": fill '" + fill->name + "' (" + fill->kind +
                               ") does not apply to " + std::string(dtype_name(c.dtype)));
    }
    inputs.push_back(std::move(t));
  }
  return inputs;
}

std::vector<double> real_values(const TensorData& t) {
  const size_t n = t.element_count();
  std::vector<double> out(n);
  for (size_t i = 0; i < n; ++i) {
    const double v = load_element(t.bytes, t.dtype, i);
    out[i] = t.quant.scale != 0 ? t.quant.scale * (v - t.quant.zero_point) : v;
  }
  return out;
}

std::vector<double> quantize_reference(const std::vector<double>& real, oprig_dtype dtype,
                                       const Quantization& quant) {
  const CodeRange range = code_range(dtype);
  std::vector<double> codes(real.size());
  for (size_t i = 0; i < real.size(); ++i) {
    if (std::isnan(real[i])) {
      codes[i] = quant.zero_point;
      continue;
    }
    const double q = std::round(real[i] / quant.scale) + quant.zero_point;  // std::round: ties away from zero
    codes[i] = std::min(range.max, std::max(range.min, q));
  }
  return codes;
}

}  // namespace oprig::harness
