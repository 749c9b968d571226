// Host-side tensors of a case: inputs generated from the case's seed and fill,
// and the conversions between stored elements and real values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cases/case.hpp"

namespace oprig::harness {

struct TensorData {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  std::vector<int64_t> shape;
  Quantization quant;  // scale 0: not quantised
  std::vector<std::byte> bytes;

  size_t element_count() const;
};

// The inputs of a case, bit for bit the same on every run and backend.
// Throws std::runtime_error when the plan has no usable fill for the case.
std::vector<TensorData> make_inputs(const Case& c, const TestPlan& plan, size_t num_inputs);

// Stored elements to real values (fp16 widened exactly; quantised codes
// dequantised as scale * (q - zero_point), in double).
std::vector<double> real_values(const TensorData& t);

// The reference's rounding for quantised outputs, stated once:
//   q = clamp(round_half_away_from_zero(y / scale) + zero_point, qmin, qmax)
// NaN maps to zero_point. Returns the codes as doubles.
std::vector<double> quantize_reference(const std::vector<double>& real, oprig_dtype dtype,
                                       const Quantization& quant);

// Symbolic edge values of a plan ("+0", "nan", "denorm_min", "max", "1.5", ...)
// as the nearest value of a float dtype. Throws on an unknown name.
double edge_value(const std::string& name, oprig_dtype dtype);

// Writes value (already representable) into element i of bytes in dtype.
void store_element(std::vector<std::byte>& bytes, oprig_dtype dtype, size_t i, double value);

}  // namespace oprig::harness
