// fp64 reference of Dequantize: y = (code - zero_point) * scale with the fp32
// scale the input tensor carries. The harness hands the input over as real
// values under the plan's scale; the code is recovered from them exactly (it
// is an integer) so that the product uses the scale as the kernel sees it.
// The product of an integer below 2^24 and an fp32 scale is exact in double:
// the value the kernel must round once to fp32.
#include <cmath>
#include <stdexcept>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

void compute(const std::vector<RefTensor>& inputs, const RefParams&, std::vector<RefTensor>& outputs) {
  const RefTensor& x = inputs.at(0);
  RefTensor& y = outputs.at(0);
  if (x.dtype != OPRIG_DTYPE_UINT_8 && x.dtype != OPRIG_DTYPE_INT_8)
    throw std::invalid_argument("Dequantize reads UINT_8 or INT_8 codes");
  const auto scale = static_cast<float>(x.scale);
  if (!(scale > 0) || !std::isfinite(scale)) throw std::invalid_argument("the input needs a finite positive scale");
  y.shape = x.shape;
  y.values.clear();
  for (double real : x.values) {
    const double code = std::round(real / x.scale) + x.zero_point;
    y.values.push_back((code - x.zero_point) * static_cast<double>(scale));
  }
}

}  // namespace

extern const ReferenceOp oprig_reference_Dequantize;
const ReferenceOp oprig_reference_Dequantize = {"Dequantize", compute, 2.0};

}  // namespace oprig::opsuite
