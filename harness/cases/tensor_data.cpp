#include "cases/tensor_data.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "cases/rng.hpp"
#include "core/dtype.hpp"
#include "core/half.hpp"
#include "core/npy.hpp"

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
    case OPRIG_DTYPE_INT_64: return {-9223372036854775808.0, 9223372036854774784.0};
    case OPRIG_DTYPE_UINT_64: return {0, 18446744073709549568.0};
    case OPRIG_DTYPE_BOOL_8: return {0, 1};
    default: throw std::runtime_error("no integer code range for " + std::string(dtype_name(dtype)));
  }
}

bool is_float(oprig_dtype dtype) { return dtype_is_float(dtype); }

double max_finite(oprig_dtype dtype) {
  if (dtype == OPRIG_DTYPE_FLOAT_16) return 65504.0;
  if (dtype == OPRIG_DTYPE_FLOAT_64) return std::numeric_limits<double>::max();
  return std::numeric_limits<float>::max();
}

// One fill generator for one tensor; elements in stored form (codes for
// integer and quantised types, values for floats).
class ElementMaker {
 public:
  ElementMaker(const FillSpec& fill, const TensorData& t, uint64_t seed)
      : fill_(fill), t_(t), rng_(seed), n_(t.element_count()) {
    if (fill.kind == "distinct") {  // a permutation of evenly spaced values
      order_.resize(n_);
      std::iota(order_.begin(), order_.end(), size_t{0});
      for (size_t i = n_; i > 1; --i) std::swap(order_[i - 1], order_[rng_.next() % i]);
    }
  }

  double make(size_t i) {
    const oprig_dtype d = t_.dtype;
    const bool quantized = t_.quant.scale != 0;
    const std::string& kind = fill_.kind;
    if (quantized || (!is_float(d) && kind == "all_codes")) {
      const CodeRange r = code_range(d);
      const double span = r.max - r.min + 1;
      if (kind == "all_codes")  // every code once per span, from a seeded start
        return r.min + std::fmod(static_cast<double>(i) + static_cast<double>(seed_start_ % 65536), span);
      if (kind == "constant") return std::clamp(std::round(fill_.value / t_.quant.scale) + t_.quant.zero_point, r.min, r.max);
      return r.min + std::floor(rng_.unit() * span);
    }
    if (kind == "edge") return edge_value(fill_.edge_values[i % fill_.edge_values.size()], d);
    if (kind == "specials") {  // a share of edge values scattered over a uniform fill
      const double u = rng_.unit();
      const size_t pick = static_cast<size_t>(rng_.next() % fill_.edge_values.size());
      if (u < fill_.value) return edge_value(fill_.edge_values[pick], d);
      return to_dtype_value(fill_.low + (fill_.high - fill_.low) * rng_.unit(), d);
    }
    if (kind == "constant") return to_dtype_value(fill_.value, d);
    if (kind == "small_int") {
      if (!fill_.exclude_zero && rng_.unit() < fill_.zero_share) return 0.0;
      const double lo = std::ceil(fill_.low), hi = std::floor(fill_.high);
      for (;;) {
        const double v = lo + std::floor(rng_.unit() * (hi - lo + 1));
        if (!(fill_.exclude_zero && v == 0)) return to_dtype_value(v, d);
      }
    }
    if (kind == "distinct") {
      const double step = n_ > 1 ? (fill_.high - fill_.low) / static_cast<double>(n_ - 1) : 0.0;
      return to_dtype_value(fill_.low + step * static_cast<double>(order_[i]), d);
    }
    if (kind == "ties") {
      const int level = static_cast<int>(std::floor(rng_.unit() * fill_.levels));
      const double step = fill_.levels > 1 ? (fill_.high - fill_.low) / (fill_.levels - 1) : 0.0;
      return to_dtype_value(fill_.low + step * level, d);
    }
    if (kind == "boxes") return box_element(i);
    if (kind == "uniform") {
      if (!is_float(d)) {
        const CodeRange r = code_range(d);
        const double lo = std::max(std::ceil(fill_.low), r.min), hi = std::min(std::floor(fill_.high), r.max);
        for (;;) {
          const double v = lo + std::floor(rng_.unit() * (hi - lo + 1));
          if (!(fill_.exclude_zero && v == 0)) return v;
        }
      }
      const double limit = max_finite(d);
      const double low = std::max(fill_.low, -limit), high = std::min(fill_.high, limit);
      for (;;) {
        const double v = to_dtype_value(low + (high - low) * rng_.unit(), d);
        if (!(fill_.exclude_zero && v == 0)) return v;
      }
    }
    throw std::runtime_error("fill kind '" + kind + "' does not apply to " + std::string(dtype_name(d)));
  }

  void set_seed_start(uint64_t s) { seed_start_ = s; }

 private:
  // Boxes along the last dimension (4): y1, x1, y2, x2 with y1 <= y2 and
  // x1 <= x2; a share `value` of boxes repeats the box before it exactly.
  double box_element(size_t i) {
    const size_t box = i / 4, corner = i % 4;
    if (corner == 0) {
      if (box > 0 && rng_.unit() < fill_.value) {
        // keep current_: an identical box
      } else {
        double a = fill_.low + (fill_.high - fill_.low) * rng_.unit();
        double b = fill_.low + (fill_.high - fill_.low) * rng_.unit();
        double c = fill_.low + (fill_.high - fill_.low) * rng_.unit();
        double e = fill_.low + (fill_.high - fill_.low) * rng_.unit();
        current_ = {std::min(a, b), std::min(c, e), std::max(a, b), std::max(c, e)};
      }
    }
    return to_dtype_value(current_[corner], t_.dtype);
  }

  const FillSpec& fill_;
  const TensorData& t_;
  SplitMix64 rng_;
  size_t n_;
  uint64_t seed_start_ = 0;
  std::vector<size_t> order_;
  std::array<double, 4> current_{};
};

}  // namespace

size_t TensorData::element_count() const {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

double to_dtype_value(double v, oprig_dtype dtype) {
  if (dtype == OPRIG_DTYPE_FLOAT_64) return v;
  if (dtype == OPRIG_DTYPE_FLOAT_32) return static_cast<float>(v);
  if (dtype == OPRIG_DTYPE_FLOAT_16) return half_to_float(float_to_half(static_cast<float>(v)));
  if (std::isnan(v)) return 0;
  const CodeRange r = code_range(dtype);
  return std::clamp(std::round(v), r.min, r.max);
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
    case OPRIG_DTYPE_INT_64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case OPRIG_DTYPE_UINT_64: { uint64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    default: throw std::runtime_error("unsupported dtype " + std::string(dtype_name(dtype)));
  }
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
    case OPRIG_DTYPE_INT_64: { const auto v = static_cast<int64_t>(value); std::memcpy(p, &v, 8); return; }
    case OPRIG_DTYPE_UINT_64: { const auto v = static_cast<uint64_t>(value); std::memcpy(p, &v, 8); return; }
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
  // Large, yet a sum of a million of them times values up to 1 stays finite
  // in the type sums are carried in (fp32 for fp16 data): 2^100, fp16 2^10.
  else if (base == "huge") v = half ? 0x1p10 : 0x1p100;
  else if (base == "max") v = is_float(dtype) || dtype == OPRIG_DTYPE_INVALID ? max_finite(dtype) : code_range(dtype).max;
  else if (base == "min" && !is_float(dtype)) v = code_range(dtype).min;
  else {
    size_t used = 0;
    try {
      v = std::stod(base, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != base.size() || base.empty()) throw std::runtime_error("unknown edge value '" + name + "'");
  }
  if (!is_float(dtype) && (std::isnan(v) || std::isinf(v)))
    throw std::runtime_error("edge value '" + name + "' has no " + std::string(dtype_name(dtype)) + " form");
  return to_dtype_value(negative ? -v : v, dtype);
}

std::vector<TensorData> make_inputs(const Case& c, const TestPlan& plan) {
  std::vector<TensorData> inputs;
  const Fill* fill = c.literal >= 0 || !c.golden_dir.empty() ? nullptr : find_fill(plan, c);
  if (c.literal < 0 && c.golden_dir.empty() && fill == nullptr)
    throw std::runtime_error("case " + c.id + ": no fill named '" + c.fill + "' in the plan");
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    const CaseTensor& ct = c.inputs[k];
    TensorData t;
    t.name = ct.name;
    t.dtype = ct.type.dtype;
    t.shape = ct.shape;
    t.quant = ct.quant;
    t.present = ct.present;
    if (!ct.present) {
      t.shape.clear();
      inputs.push_back(std::move(t));
      continue;
    }
    if (!ct.file.empty()) {  // a golden case: the tensor as stored
      NpyArray a = read_npy(std::filesystem::path(c.golden_dir) / ct.file);
      if (a.dtype != t.dtype)
        throw std::runtime_error(c.golden_dir + "/" + ct.file + ": holds " + std::string(dtype_name(a.dtype)) +
                                 ", the case needs " + std::string(dtype_name(t.dtype)));
      t.shape = a.shape;
      t.bytes = std::move(a.data);
      inputs.push_back(std::move(t));
      continue;
    }
    const size_t n = t.element_count();
    t.bytes.assign(n * dtype_size(t.dtype), std::byte{0});
    if (c.literal >= 0) {
      const auto& lit = plan.golden_literals.at(static_cast<size_t>(c.literal)).inputs.at(k);
      if (!lit) throw std::runtime_error("case " + c.id + ": literal input " + std::to_string(k) + " is absent");
      for (size_t i = 0; i < n; ++i) store_element(t.bytes, t.dtype, i, to_dtype_value(lit->values.at(i), t.dtype));
      inputs.push_back(std::move(t));
      continue;
    }
    const FillSpec& spec = fill->for_input(ct.name);
    if (spec.kind.empty())
      throw std::runtime_error("case " + c.id + ": fill '" + c.fill + "' gives nothing for input '" + ct.name + "'");
    // Input 0 keeps the seed stream of the single-input plans (c.seed + 0x9e37).
    ElementMaker maker(spec, t, c.seed + 0x9e37 * (k + 1));
    maker.set_seed_start(c.seed);
    for (size_t i = 0; i < n; ++i) store_element(t.bytes, t.dtype, i, maker.make(i));
    inputs.push_back(std::move(t));
  }
  return inputs;
}

std::vector<double> stored_values(const TensorData& t) {
  const size_t n = t.present ? t.element_count() : 0;
  std::vector<double> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = load_element(t.bytes, t.dtype, i);
  return out;
}

std::vector<double> real_values(const TensorData& t) {
  std::vector<double> out = stored_values(t);
  if (t.quant.scale != 0)
    for (double& v : out) v = t.quant.scale * (v - t.quant.zero_point);
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
