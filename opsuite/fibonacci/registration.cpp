// The registration part of com.example.fibonacci, the vendor-extension example
// of NNAPI (seed 004) as an oprig op package: one op, Fibonacci, at index 0
// (the low 16 bits of its extension operation type), cpu only, implemented in
// this same library, and the example's two extension operand types.
#include <cstdio>
#include <string_view>

#include "oprig/oprig_package.h"
#include "tensor_checks.hpp"

namespace oprig::fibonacci {
namespace {

oprig_status reject(char* message, size_t message_size, const char* reason) {
  if (message != nullptr && message_size > 0) std::snprintf(message, message_size, "%s", reason);
  return OPRIG_STATUS_INVALID_ARGUMENT;
}

// Run at model load, before any kernel exists: catches wrong types early, with
// a reason the host can print next to the operation index.
oprig_status validate(const char* op_name, const oprig_param* /*params*/, size_t num_params,
                      const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                      size_t num_outputs, char* message, size_t message_size) {
  if (message != nullptr && message_size > 0) message[0] = '\0';
  if (op_name == nullptr || std::string_view(op_name) != "Fibonacci")
    return reject(message, message_size, "com.example.fibonacci has only the op Fibonacci");
  if (num_params != 0) return reject(message, message_size, "Fibonacci takes no parameters");
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return reject(message, message_size, "Fibonacci takes 1 input (n) and gives 1 output");
  if (!is_valid_input(inputs[0]))
    return reject(message, message_size, "input n must be FLOAT_32 holding one element or an EXAMPLE_INT64 scalar");
  if (!is_valid_output_type(outputs[0]))
    return reject(message, message_size,
                  "output must be FLOAT_32, EXAMPLE_TENSOR_QUANT64_ASYMM, or UINT_64 with scale 0 (plain) or a "
                  "finite scale > 0");
  if (outputs[0].rank > 1) return reject(message, message_size, "output is 1-D: [n]");
  return OPRIG_STATUS_OK;
}

const oprig_op_registration_v1 kOps[] = {
    {"Fibonacci", OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU), 1, 1, nullptr, {}},
};

const oprig_implementation_location_v1 kImplementations[] = {
    {OPRIG_BACKEND_CPU, nullptr},  // this library
};

// NNAPI's example declares these as extension operand types: the host
// stores them as INT_64 / UINT_64 elements and hands them here by index.
const oprig_operand_type_v1 kOperandTypes[] = {
    {"EXAMPLE_INT64", kExampleInt64, 0, OPRIG_DTYPE_INT_64, 0, {}},
    {"EXAMPLE_TENSOR_QUANT64_ASYMM", kExampleTensorQuant64Asymm, 1, OPRIG_DTYPE_UINT_64, 1, {}},
    {nullptr, 0, 0, 0, 0, {}},
};

const oprig_package_v1 kPackage = {
    OPRIG_ABI_VERSION,
    sizeof(oprig_package_v1),
    "com.example.fibonacci",
    "1.0",
    "NNAPI's vendor-extension example: F(1..n) as FLOAT_32 or as quantised UINT_64",
    0,
    sizeof kOps / sizeof kOps[0],
    kOps,
    sizeof kImplementations / sizeof kImplementations[0],
    kImplementations,
    validate,
    nullptr,
    kOperandTypes,
    {}};

}  // namespace
}  // namespace oprig::fibonacci

extern "C" OPRIG_EXPORT const oprig_package_v1* oprig_package_query(uint32_t max_version) {
  return max_version >= OPRIG_ABI_VERSION ? &oprig::fibonacci::kPackage : nullptr;
}
