// Shared by the calibration package's kernels: the ops' contract (what
// prepare accepts, what cost reports) and small ABI helpers. Header-only, so
// every implementation library stays self-contained (links nothing of oprig).
//
// Ops (all FLOAT_32, any rank; counts are element counts):
//   Copy     out = in                              bytes: read 4n, written 4n (STREAM's copy)
//   Triad    out = in0 + scalar * in1              bytes: read 8n, written 4n, flops 2n (STREAM's triad)
//   FmaPeak  independent FMA chains on registers; in holds (a, b) at least, out one value per
//            thread/work-item/invocation (its shape comes from prepare); flops exact per kernel,
//            bytes negligible. Parameter "iterations" (default 65536) sets the length.
// Copy and Triad take n a multiple of 16 (every kernel's vector width divides it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "oprig/oprig_package.h"

namespace oprig::calibration {

enum class Op { kCopy, kTriad, kFmaPeak };

inline bool op_from_name(const char* name, Op* op) {
  if (name == nullptr) return false;
  const std::string_view n(name);
  if (n == "Copy") *op = Op::kCopy;
  else if (n == "Triad") *op = Op::kTriad;
  else if (n == "FmaPeak") *op = Op::kFmaPeak;
  else return false;
  return true;
}

inline size_t inputs_of(Op op) { return op == Op::kTriad ? 2 : 1; }

// A numeric scalar parameter by name, whatever its integer or float type.
inline bool numeric_param(const oprig_param* params, size_t count, std::string_view name, double* value) {
  for (size_t i = 0; i < count; ++i) {
    if (params[i].name == nullptr || name != params[i].name || params[i].count < 1 || params[i].data == nullptr)
      continue;
    const void* d = params[i].data;
    switch (params[i].dtype) {
      case OPRIG_DTYPE_FLOAT_32: *value = *static_cast<const float*>(d); return true;
      case OPRIG_DTYPE_FLOAT_64: *value = *static_cast<const double*>(d); return true;
      case OPRIG_DTYPE_INT_32: *value = *static_cast<const int32_t*>(d); return true;
      case OPRIG_DTYPE_UINT_32: *value = *static_cast<const uint32_t*>(d); return true;
      case OPRIG_DTYPE_INT_64: *value = static_cast<double>(*static_cast<const int64_t*>(d)); return true;
      case OPRIG_DTYPE_UINT_64: *value = static_cast<double>(*static_cast<const uint64_t*>(d)); return true;
      default: return false;
    }
  }
  return false;
}

struct Params {
  float scalar = 3.0f;          // Triad
  uint32_t iterations = 65536;  // FmaPeak
};

// Reads the op's parameters; false for a bad value (UNSUPPORTED).
inline bool read_params(Op op, const oprig_param* params, size_t count, Params* out) {
  double v = 0;
  if (op == Op::kTriad && numeric_param(params, count, "scalar", &v)) out->scalar = static_cast<float>(v);
  if (op == Op::kFmaPeak && numeric_param(params, count, "iterations", &v)) {
    if (!(v >= 1 && v <= 4294967295.0)) return false;
    out->iterations = static_cast<uint32_t>(v);
  }
  return true;
}

inline uint64_t element_count(const oprig_tensor& t) {
  uint64_t n = 1;
  for (uint32_t d = 0; d < t.rank && d < OPRIG_MAX_RANK; ++d) n *= static_cast<uint64_t>(t.dims[d] < 0 ? 0 : t.dims[d]);
  return n;
}

// Checks the streaming ops' tensors and sets the output shape; returns the
// element count through *count.
inline oprig_status prepare_streaming(Op op, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                                      size_t num_outputs, uint64_t* count) {
  if (inputs == nullptr || outputs == nullptr || num_inputs != inputs_of(op) || num_outputs != 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const uint64_t n = element_count(inputs[0]);
  for (size_t i = 0; i < num_inputs; ++i) {
    if (inputs[i].dtype != OPRIG_DTYPE_FLOAT_32 || inputs[i].scale != 0.0f) return OPRIG_STATUS_UNSUPPORTED;
    if (element_count(inputs[i]) != n) return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  if (n % 16 != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != OPRIG_DTYPE_INVALID && outputs[0].dtype != OPRIG_DTYPE_FLOAT_32)
    return OPRIG_STATUS_UNSUPPORTED;
  outputs[0].dtype = OPRIG_DTYPE_FLOAT_32;
  outputs[0].rank = inputs[0].rank;
  std::memcpy(outputs[0].dims, inputs[0].dims, sizeof outputs[0].dims);
  *count = n;
  return OPRIG_STATUS_OK;
}

// FmaPeak: input with a and b, output [lanes].
inline oprig_status prepare_fma(const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                                size_t num_outputs, uint64_t lanes) {
  if (inputs == nullptr || outputs == nullptr || num_inputs != 1 || num_outputs != 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (inputs[0].dtype != OPRIG_DTYPE_FLOAT_32 || element_count(inputs[0]) < 2) return OPRIG_STATUS_UNSUPPORTED;
  outputs[0].dtype = OPRIG_DTYPE_FLOAT_32;
  outputs[0].rank = 1;
  std::memset(outputs[0].dims, 0, sizeof outputs[0].dims);
  outputs[0].dims[0] = static_cast<int64_t>(lanes);
  return OPRIG_STATUS_OK;
}

inline oprig_cost streaming_cost(Op op, uint64_t n) {
  if (op == Op::kTriad) return {2 * n, 8 * n, 4 * n};
  return {0, 4 * n, 4 * n};
}

}  // namespace oprig::calibration
