// The cpu implementation of com.example.fibonacci (it lives in the
// registration library: its location says library NULL).
//
// The output length is the input's VALUE, which prepare() cannot see, so the
// kernel uses the ABI's data-dependent shape path: prepare() writes dims
// [-1], resolve_shapes() reads the host copy of n and writes [n], and execute()
// checks that it was handed exactly [n] before writing. (A host that passes n
// to prepare() anyway gets [n] from prepare; see there.)
#include <array>
#include <cstring>
#include <new>
#include <optional>
#include <span>
#include <string_view>

#include "fibonacci_math.hpp"
#include "oprig/oprig_package.h"
#include "tensor_checks.hpp"

struct oprig_kernel {
  // Nothing to keep: n comes with every call. The struct exists so create and
  // destroy follow the lifecycle the host expects.
  uint32_t unused = 0;
};

namespace oprig::fibonacci {
namespace {

// n from a host pointer to the input (cpu: the tensor itself; resolve_shapes:
// the host's copy). nullopt for a missing pointer or an invalid value.
std::optional<uint64_t> read_length(const oprig_tensor& input) {
  if (input.dtype == kInt64Dtype) {
    if (input.data == nullptr || (input.bytes != 0 && input.bytes < sizeof(int64_t))) return std::nullopt;
    int64_t n = 0;
    std::memcpy(&n, input.data, sizeof n);
    return length_from_integer(n);
  }
  if (input.data == nullptr || (input.bytes != 0 && input.bytes < sizeof(float))) return std::nullopt;
  float x = 0.0f;
  std::memcpy(&x, input.data, sizeof x);
  return length_from_input(x);
}

bool has_one_input_one_output(const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                              size_t num_outputs) {
  return num_inputs == 1 && num_outputs == 1 && inputs != nullptr && outputs != nullptr;
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* /*params*/,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || op_name == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (ctx->kind != OPRIG_BACKEND_CPU || std::string_view(op_name) != "Fibonacci") return OPRIG_STATUS_UNSUPPORTED;
  if (num_params != 0) return OPRIG_STATUS_UNSUPPORTED;  // the op has no parameters
  *out_kernel = new (std::nothrow) oprig_kernel{};
  return *out_kernel != nullptr ? OPRIG_STATUS_OK : OPRIG_STATUS_OUT_OF_MEMORY;
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (kernel == nullptr || !has_one_input_one_output(inputs, num_inputs, outputs, num_outputs))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (!is_valid_input(inputs[0]) || !is_valid_output_type(outputs[0])) return OPRIG_STATUS_UNSUPPORTED;
  outputs[0].rank = 1;
  outputs[0].dims[0] = -1;  // known only from n's value: see resolve_shapes
  // Outside the ABI (prepare's data is NULL there), some hosts hand prepare()
  // a host pointer to n, as runtime/graph's executor does for outputs of
  // unknown shape; on cpu that pointer is n itself, so answer [n] at once.
  if (inputs[0].data != nullptr) {
    const std::optional<uint64_t> n = read_length(inputs[0]);
    if (!n) return OPRIG_STATUS_INVALID_ARGUMENT;
    outputs[0].dims[0] = static_cast<int64_t>(*n);
  }
  return OPRIG_STATUS_OK;
}

oprig_status resolve_shapes(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                            oprig_tensor* outputs, size_t num_outputs) {
  if (kernel == nullptr || !has_one_input_one_output(inputs, num_inputs, outputs, num_outputs))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<uint64_t> n = read_length(inputs[0]);
  if (!n) return OPRIG_STATUS_INVALID_ARGUMENT;
  outputs[0].rank = 1;
  outputs[0].dims[0] = static_cast<int64_t>(*n);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* /*info*/) {
  if (kernel == nullptr || !has_one_input_one_output(inputs, num_inputs, outputs, num_outputs))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& dst = outputs[0];
  if (!is_valid_input(inputs[0]) || !is_valid_output_type(dst)) return OPRIG_STATUS_UNSUPPORTED;
  const std::optional<uint64_t> n = read_length(inputs[0]);
  if (!n) return OPRIG_STATUS_INVALID_ARGUMENT;
  // The host must have resolved the shape with this same n.
  if (dst.rank != 1 || dst.dims[0] != static_cast<int64_t>(*n)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const size_t element_size = dst.dtype == OPRIG_DTYPE_FLOAT_32 ? sizeof(float) : sizeof(uint64_t);
  if (*n == 0) return OPRIG_STATUS_OK;
  if (dst.data == nullptr || (dst.bytes != 0 && dst.bytes < *n * element_size)) return OPRIG_STATUS_INVALID_ARGUMENT;

  std::array<uint64_t, kMaxN> sequence{};
  const std::span<uint64_t> values(sequence.data(), *n);
  write_sequence(values);
  if (dst.dtype == OPRIG_DTYPE_FLOAT_32) {
    auto* out = static_cast<float*>(dst.data);
    // uint64 -> float rounds to nearest even: exact up to F(36) = 14930352 < 2^24.
    for (size_t i = 0; i < values.size(); ++i) out[i] = static_cast<float>(values[i]);
  } else {
    auto* out = static_cast<uint64_t*>(dst.data);
    for (size_t i = 0; i < values.size(); ++i)
      out[i] = dst.scale == 0.0f ? values[i] : quantise(values[i], dst.scale, dst.zero_point);
  }
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* kernel) { delete kernel; }

oprig_status cost(const oprig_kernel* kernel, oprig_cost* out_cost) {
  if (out_cost == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_cost = oprig_cost{};
  if (kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  // At most kMaxN additions and stores of 8 bytes; n is not known here.
  *out_cost = oprig_cost{kMaxN, sizeof(float), kMaxN * sizeof(uint64_t)};
  return OPRIG_STATUS_OK;
}

const oprig_implementation_v1 kCpuImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_CPU,
    create, prepare, execute, destroy, cost, resolve_shapes, {}};

}  // namespace
}  // namespace oprig::fibonacci

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                 uint32_t max_version) {
  if (backend_kind != OPRIG_BACKEND_CPU || max_version < OPRIG_ABI_VERSION) return nullptr;
  return &oprig::fibonacci::kCpuImplementation;
}
