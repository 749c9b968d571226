// What the AcmeDsp kernels and reference share: Relu's shape rule and its
// requantisation. Written against the public header only, as a vendor would.
#pragma once

#include <oprig/oprig_package.h>

#include <cmath>
#include <cstdint>

namespace acme_dsp {

inline size_t element_count(const oprig_tensor& t) {
  size_t n = 1;
  for (uint32_t i = 0; i < t.rank; ++i) n *= static_cast<size_t>(t.dims[i]);
  return n;
}

// The output has the input's shape: what prepare() and the reference's
// shapes() both write.
inline bool same_shape_as_input(const oprig_tensor& in, oprig_tensor& out) {
  if (in.rank > OPRIG_MAX_RANK) return false;
  out.rank = in.rank;
  for (uint32_t i = 0; i < OPRIG_MAX_RANK; ++i) {
    if (i < in.rank && in.dims[i] < 0) return false;
    out.dims[i] = i < in.rank ? in.dims[i] : 0;
  }
  return true;
}

// The spec's one type: UINT_8 codes with a positive scale and a zero point
// among the codes.
inline bool quantized_u8(const oprig_tensor& t) {
  return t.dtype == OPRIG_DTYPE_UINT_8 && t.scale > 0 && t.zero_point >= 0 && t.zero_point <= 255;
}

// in_scale / out_scale as TFLite's QuantizeMultiplier writes a real factor:
// multiplier * 2^shift / 2^31 with multiplier in [2^30, 2^31). false when
// the factor is outside what the kernels' shifts cover (2^-31 .. 2^30).
struct Requantization {
  int32_t multiplier = 0;
  int shift = 0;
};

inline bool requantization(double real, Requantization* out) {
  if (!(real > 0) || !std::isfinite(real)) return false;
  int exponent = 0;
  const double fraction = std::frexp(real, &exponent);  // [0.5, 1)
  int64_t q = std::llround(fraction * 2147483648.0);
  if (q == (int64_t{1} << 31)) {
    q /= 2;
    ++exponent;
  }
  if (exponent > 30 || exponent < -31) return false;
  out->multiplier = static_cast<int32_t>(q);
  out->shift = exponent;
  return true;
}

}  // namespace acme_dsp
