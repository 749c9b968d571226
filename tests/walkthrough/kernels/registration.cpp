// The registration part of the AcmeOps package as the vendor of the
// walkthrough finishes it: the generated table (cpu, and opencl and vulkan for
// the spec's GPU; the spec does not list DSP, so there is no dsp) as generated,
// and the package's own host reference filled in.
#include <oprig/oprig_package.h>

#include <cstring>

#include "leaky_relu_params.hpp"

namespace {

const char* const kLeakyReluParams[] = {"alpha", nullptr};

const oprig_op_registration_v1 kOps[] = {
    {"LeakyRelu",
     OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU) | OPRIG_BACKEND_BIT(OPRIG_BACKEND_OPENCL) | OPRIG_BACKEND_BIT(OPRIG_BACKEND_VULKAN),
     1, 1, kLeakyReluParams, {}},
};

const oprig_implementation_location_v1 kImplementations[] = {
    {OPRIG_BACKEND_CPU, "libacmeops_cpu.so"},
    {OPRIG_BACKEND_OPENCL, "libacmeops_opencl.so"},
    {OPRIG_BACKEND_VULKAN, "libacmeops_vulkan.so"},
};

// The reference in double (OPRIG_REFERENCE_FLOAT_64): oprig hands the inputs
// as doubles and rounds the outputs to each case's type itself.
oprig_status reference_shapes(const char* op, const oprig_param* params, size_t num_params, const oprig_tensor* inputs,
                              size_t num_inputs, oprig_tensor* outputs, size_t num_outputs) {
  float alpha = 0.0f;
  if (std::strcmp(op, "LeakyRelu") != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (num_inputs != 1 || num_outputs != 1 || !acme::read_alpha(params, num_params, &alpha))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  return acme::same_shape_as_input(inputs[0], outputs[0]) ? OPRIG_STATUS_OK : OPRIG_STATUS_INVALID_ARGUMENT;
}

oprig_status reference_compute(const char* op, const oprig_param* params, size_t num_params, const oprig_tensor* inputs,
                               size_t num_inputs, const oprig_tensor* outputs, size_t num_outputs) {
  float alpha = 0.0f;
  if (std::strcmp(op, "LeakyRelu") != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (num_inputs != 1 || num_outputs != 1 || !acme::read_alpha(params, num_params, &alpha))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* x = static_cast<const double*>(inputs[0].data);
  auto* y = static_cast<double*>(outputs[0].data);
  const size_t n = acme::element_count(inputs[0]);
  for (size_t i = 0; i < n; ++i) y[i] = x[i] >= 0.0 ? x[i] : static_cast<double>(alpha) * x[i];
  return OPRIG_STATUS_OK;
}

const oprig_reference_v1 kReference = {sizeof(oprig_reference_v1), OPRIG_REFERENCE_FLOAT_64, reference_shapes,
                                       reference_compute, {}};

const oprig_package_v1 kPackage = {
    OPRIG_ABI_VERSION, sizeof(oprig_package_v1), "AcmeOps", "0.1.0",
    "LeakyRelu, the oprig vendor walkthrough", 0,
    sizeof(kOps) / sizeof(kOps[0]), kOps,
    sizeof(kImplementations) / sizeof(kImplementations[0]), kImplementations,
    nullptr,  // validate
    &kReference,
    nullptr,  // operand_types
    {}};

}  // namespace

extern "C" OPRIG_EXPORT const oprig_package_v1* oprig_package_query(uint32_t max_version) {
  return max_version >= OPRIG_ABI_VERSION ? &kPackage : nullptr;
}
