// Host-side tensors of a case: inputs generated from the case's seed and
// fills, and the conversions between stored elements and real values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cases/case.hpp"

namespace oprig::harness {

struct TensorData {
  std::string name;
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  std::vector<int64_t> shape;
  Quantization quant;  // scale 0: not quantised
  std::vector<std::byte> bytes;
  bool present = true;  // false: an optional input left out (no bytes)

  size_t element_count() const;
};

// The inputs of a case (one per Case::inputs entry), bit for bit the same on
// every run and backend. Throws std::runtime_error when the plan has no
// usable fill for the case.
std::vector<TensorData> make_inputs(const Case& c, const TestPlan& plan);

// Stored elements to real values (fp16 widened exactly; quantised codes
// dequantised as scale * (q - zero_point), in double).
std::vector<double> real_values(const TensorData& t);
// Stored elements as they are (codes for integer types), in double.
std::vector<double> stored_values(const TensorData& t);

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
double load_element(const std::vector<std::byte>& bytes, oprig_dtype dtype, size_t i);

// The value a double becomes in dtype (floats rounded to nearest; integers
// rounded half away from zero and clamped to the type's range).
double to_dtype_value(double v, oprig_dtype dtype);

}  // namespace oprig::harness
