// fp64 reference of Quantize. The rounding IS the op, so the reference makes
// the codes itself (RefTensor::codes) instead of leaving them to the harness's
// generic round-half-away rule:
//   code = clamp(round_half_to_even(fp32(x / scale)) + zero_point, qmin, qmax)
// with scale the fp32 value the output tensor carries. The quotient of two
// floats computed in double and rounded to float is the correctly rounded
// fp32 quotient (double has more than 2 * 24 + 2 bits), which is what the
// spec asks for.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

struct CodeRange {
  double lowest, highest;
};

CodeRange code_range(oprig_dtype dtype) {
  if (dtype == OPRIG_DTYPE_UINT_8) return {0, 255};
  if (dtype == OPRIG_DTYPE_INT_8) return {-128, 127};
  throw std::invalid_argument("Quantize makes UINT_8 or INT_8 codes");
}

// Nearest integer; a value exactly halfway goes to the even neighbour.
double round_half_to_even(double v) {
  const double below = std::floor(v);
  const double fraction = v - below;
  if (fraction < 0.5) return below;
  if (fraction > 0.5) return below + 1;
  return std::fmod(below, 2.0) == 0 ? below : below + 1;
}

void compute(const std::vector<RefTensor>& inputs, const RefParams&, std::vector<RefTensor>& outputs) {
  const RefTensor& x = inputs.at(0);
  RefTensor& y = outputs.at(0);
  const auto scale = static_cast<float>(y.scale);
  if (!(scale > 0) || !std::isfinite(scale)) throw std::invalid_argument("the output needs a finite positive scale");
  const CodeRange range = code_range(y.dtype);
  y.shape = x.shape;
  y.codes = true;
  y.values.clear();
  for (double v : x.values) {
    if (std::isnan(v)) {
      y.values.push_back(y.zero_point);
      continue;
    }
    const double exact = v / scale;
    // Far outside every code range the code saturates whatever the rounding
    // (and a double beyond FLT_MAX must not be converted to float).
    const double code = std::fabs(exact) > 0x1p30
                            ? exact
                            : round_half_to_even(static_cast<float>(exact)) + y.zero_point;
    y.values.push_back(std::clamp(code, range.lowest, range.highest));
  }
}

}  // namespace

extern const ReferenceOp oprig_reference_Quantize;
const ReferenceOp oprig_reference_Quantize = {"Quantize", compute, 3.0};

}  // namespace oprig::opsuite
