// What the vendor's kernels and reference share: reading LeakyRelu's one
// parameter. Written against the public header only, as a vendor would.
#pragma once

#include <oprig/oprig_package.h>

#include <cstring>

namespace acme {

constexpr float kDefaultAlpha = 0.01f;  // the spec's Default

// alpha from the parameters by spec name; the default when the host leaves it
// out. false when it is there but not one FLOAT_32 (a host bug, not a case).
inline bool read_alpha(const oprig_param* params, size_t num_params, float* alpha) {
  *alpha = kDefaultAlpha;
  for (size_t i = 0; i < num_params; ++i) {
    if (std::strcmp(params[i].name, "alpha") != 0) continue;
    if (params[i].dtype != OPRIG_DTYPE_FLOAT_32 || params[i].count != 1 || params[i].data == nullptr) return false;
    std::memcpy(alpha, params[i].data, sizeof(float));
  }
  return true;
}

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

}  // namespace acme
