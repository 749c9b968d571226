// What the references of Conv2D and DepthwiseConv2D share beyond their
// windows (reference.cpp of each; linked into the harness only): the unit of
// the bias in the fp64 reference, and the integer reference's rule
// (quant_conv.hpp's, written from the spec on the stored codes): acc = bias +
// sum (q_in - z_in)(q_w - z_w) (int64 here: a case leaving int32 is refused,
// not wrapped), then TFLite's multiplier of s_in s_w / s_out (the float
// scales, the product and quotient in double), + z_out, clamped to the
// output type.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/quant.hpp"
#include "common/reference.hpp"

namespace oprig::opsuite::conv_reference {

// Quantised activations: a plain INT_32 bias holds codes in units of
// s_in * s_w (TFLite, NNAPI, QNN); a quantised one is already real.
inline double bias_unit(const std::vector<RefTensor>& inputs, bool has_bias) {
  const RefTensor& in = inputs.at(0);
  return has_bias && in.scale != 0 && inputs[2].scale == 0 ? in.scale * inputs.at(1).scale : 1.0;
}

// Whether the integer rule judges this node: 8-bit quantised activations
// and output of one type, INT_8 weights; the float types it leaves to the
// fp64 reference.
inline bool integer_rule_applies(const RefTensor& in, const RefTensor& weights, const RefTensor& out) {
  const bool eight_bit = in.dtype == OPRIG_DTYPE_UINT_8 || in.dtype == OPRIG_DTYPE_INT_8;
  return eight_bit && weights.dtype == OPRIG_DTYPE_INT_8 && out.dtype == in.dtype && in.scale > 0 &&
         weights.scale > 0 && out.scale > 0;
}

class IntegerRule {
 public:
  // `op` names the op in the errors. Throws where s_in s_w / s_out has no
  // fixed-point multiplier.
  IntegerRule(std::string op, const RefTensor& in, const RefTensor& weights, const RefTensor& out)
      : op_(std::move(op)), z_in_(in.zero_point), z_w_(weights.zero_point), z_out_(out.zero_point),
        range_(quant::type_range(out.dtype == OPRIG_DTYPE_INT_8)) {
    const double real = static_cast<double>(static_cast<float>(in.scale)) * static_cast<float>(weights.scale) /
                        static_cast<float>(out.scale);
    if (!quant::multiplier(real, &mul_))
      throw std::invalid_argument(op_ + ": no fixed-point multiplier for s_in s_w / s_out = " + std::to_string(real));
  }

  // One term of the sum, from the stored codes.
  int64_t product(double q_in, double q_w) const {
    return (static_cast<int64_t>(q_in) - z_in_) * (static_cast<int64_t>(q_w) - z_w_);
  }

  // The output code of a sum; throws where the sum leaves int32.
  int32_t output(int64_t acc) const {
    if (acc < std::numeric_limits<int32_t>::min() || acc > std::numeric_limits<int32_t>::max())
      throw std::invalid_argument(op_ + ": the accumulator leaves int32 (" + std::to_string(acc) + ")");
    return std::clamp(quant::scale_by(static_cast<int32_t>(acc), mul_) + z_out_, range_.lo, range_.hi);
  }

 private:
  std::string op_;
  int64_t z_in_, z_w_;
  int32_t z_out_;
  quant::Range range_;
  quant::Multiplier mul_{};
};

}  // namespace oprig::opsuite::conv_reference
