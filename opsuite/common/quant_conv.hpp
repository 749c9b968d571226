// The integer rule of the quantised convolutions Conv2D and DepthwiseConv2D
// (issue 22), in one place for every kernel that computes it: the cpu
// integer paths (opsuite/conv2d/cpu.cpp, opsuite/depthwise_conv2d/cpu.cpp)
// run conv_nhwc() below, the dsp kernels (common/dsp_conv.hpp) compute the
// same sums with vrmpy and requantise with the simulator's srdhm/rdbpot.
//
// Operands (TFLite's and NNAPI's quantised convolution, QNN's with
// per-tensor scales): activations UINT_8 or INT_8 (scale s_in, zero point
// z_in), weights INT_8 (s_w, z_w), an optional INT_32 bias whose codes are in
// units of s_in * s_w with zero point 0 (not quantised itself, or quantised
// with zero point 0: its codes are used either way, as TFLite does), output of
// the activations' type (s_out, z_out). A pixel of the padding is the real
// value 0, the code z_in.
//
//   acc = bias[co] + sum over the window and the group's channels of
//         (x - z_in) * (w - z_w)                       int32, wrapping
//   out = clamp(scale_by(acc, M) + z_out, type range)  M = s_in s_w / s_out
//
// scale_by is quant.hpp's TFLite MultiplyByQuantizedMultiplier (a Q31
// multiplier and shift from frexp, SaturatingRoundingDoublingHighMul, then
// RoundingDivideByPOT). Depthwise is the grouped case group = channels.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "common/quant.hpp"
#include "oprig/oprig_package.h"

namespace oprig::opsuite::quant {

// A grouped 2-D convolution in NHWC with weights [kh, kw, group_in, c_out]
// (both ops' weight layout); output channel co belongs to group co / group_out.
struct ConvShape {
  int64_t batch = 0, height = 0, width = 0, c_in = 0;
  int64_t kh = 0, kw = 0, group = 1, group_in = 0, group_out = 0, c_out = 0;
  int64_t out_h = 0, out_w = 0, pad_top = 0, pad_left = 0;
  int64_t stride[2] = {1, 1}, dilation[2] = {1, 1};

  int64_t pixels() const { return batch * out_h * out_w; }
  int64_t depth() const { return kh * kw * group_in; }  // products per output element
};

struct ConvRule {
  bool is_signed = false;  // INT_8 activations and output (else UINT_8)
  bool has_bias = false;
  int32_t in_zero = 0, weight_zero = 0, out_zero = 0;
  Multiplier multiplier;
  Range range;  // the output type's codes (no fused activation in the specs)
};

inline bool is_quantized(const oprig_tensor& t) { return t.scale != 0; }

// The operand checks of a quantised convolution: UNSUPPORTED for types
// outside the rule above (or a multiplier s_in s_w / s_out of 2^31 or more),
// INVALID_ARGUMENT for a malformed quantisation.
inline oprig_status conv_rule(const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor& out, ConvRule* r) {
  *r = ConvRule{};
  const oprig_tensor& in = inputs[0];
  const oprig_tensor& w = inputs[1];
  const bool has_bias = num_inputs == 3 && inputs[2].dtype != OPRIG_DTYPE_INVALID;
  if (in.dtype != OPRIG_DTYPE_UINT_8 && in.dtype != OPRIG_DTYPE_INT_8) return OPRIG_STATUS_UNSUPPORTED;
  if (w.dtype != OPRIG_DTYPE_INT_8 || out.dtype != in.dtype) return OPRIG_STATUS_UNSUPPORTED;
  if (has_bias && (inputs[2].dtype != OPRIG_DTYPE_INT_32 || inputs[2].zero_point != 0)) return OPRIG_STATUS_UNSUPPORTED;
  for (const oprig_tensor* t : {&in, &w, &out})
    if (!(std::isfinite(t->scale) && t->scale > 0)) return OPRIG_STATUS_UNSUPPORTED;
  r->is_signed = in.dtype == OPRIG_DTYPE_INT_8;
  r->range = type_range(r->is_signed);
  for (const int32_t z : {in.zero_point, out.zero_point})
    if (z < r->range.lo || z > r->range.hi) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (w.zero_point < -128 || w.zero_point > 127) return OPRIG_STATUS_INVALID_ARGUMENT;
  r->has_bias = has_bias;
  r->in_zero = in.zero_point;
  r->weight_zero = w.zero_point;
  r->out_zero = out.zero_point;
  const double real = static_cast<double>(in.scale) * static_cast<double>(w.scale) / static_cast<double>(out.scale);
  return multiplier(real, &r->multiplier) ? OPRIG_STATUS_OK : OPRIG_STATUS_UNSUPPORTED;
}

inline int32_t requantize(int32_t acc, const ConvRule& r) {
  return std::clamp(scale_by(acc, r.multiplier) + r.out_zero, r.range.lo, r.range.hi);
}

// The int32 accumulator of one output element, wrapping like the hardware's.
inline int32_t conv_accumulator(const ConvShape& s, const ConvRule& r, const void* in, const int8_t* w,
                                const int32_t* bias, int64_t n, int64_t oy, int64_t ox, int64_t co) {
  const auto* u8 = static_cast<const uint8_t*>(in);
  const auto* s8 = static_cast<const int8_t*>(in);
  const int64_t g = co / s.group_out;
  uint32_t acc = r.has_bias ? static_cast<uint32_t>(bias[co]) : 0u;
  for (int64_t ky = 0; ky < s.kh; ++ky) {
    const int64_t iy = oy * s.stride[0] - s.pad_top + ky * s.dilation[0];
    if (iy < 0 || iy >= s.height) continue;
    for (int64_t kx = 0; kx < s.kw; ++kx) {
      const int64_t ix = ox * s.stride[1] - s.pad_left + kx * s.dilation[1];
      if (ix < 0 || ix >= s.width) continue;
      const auto base_in = static_cast<size_t>(((n * s.height + iy) * s.width + ix) * s.c_in + g * s.group_in);
      const auto base_w = static_cast<size_t>((ky * s.kw + kx) * s.group_in * s.c_out + co);
      for (int64_t ci = 0; ci < s.group_in; ++ci) {
        const int32_t x = (r.is_signed ? s8[base_in + static_cast<size_t>(ci)] : u8[base_in + static_cast<size_t>(ci)]) -
                          r.in_zero;
        const int32_t k = w[base_w + static_cast<size_t>(ci * s.c_out)] - r.weight_zero;
        acc += static_cast<uint32_t>(x * k);
      }
    }
  }
  return static_cast<int32_t>(acc);
}

// Every output element by the rule, in NHWC order.
inline void conv_nhwc(const ConvShape& s, const ConvRule& r, const void* in, const int8_t* w, const int32_t* bias,
                      void* out) {
  auto* u8 = static_cast<uint8_t*>(out);
  auto* s8 = static_cast<int8_t*>(out);
  size_t i = 0;
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t oy = 0; oy < s.out_h; ++oy)
      for (int64_t ox = 0; ox < s.out_w; ++ox)
        for (int64_t co = 0; co < s.c_out; ++co, ++i) {
          const int32_t q = requantize(conv_accumulator(s, r, in, w, bias, n, oy, ox, co), r);
          if (r.is_signed) s8[i] = static_cast<int8_t>(q);
          else u8[i] = static_cast<uint8_t>(q);
        }
}

}  // namespace oprig::opsuite::quant
