// The registration part of the AcmeDsp package as the vendor of the
// walkthrough finishes it: the generated table (cpu and dsp, the spec's CPU
// and DSP) as generated, and the package's own host reference filled in.
#include <oprig/oprig_package.h>

#include <algorithm>
#include <cstring>

#include "relu_quant.hpp"

namespace {

const char* const kReluParams[] = {nullptr};

const oprig_op_registration_v1 kOps[] = {
    {"Relu", OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU) | OPRIG_BACKEND_BIT(OPRIG_BACKEND_DSP), 1, 1, kReluParams, {}},
};

const oprig_implementation_location_v1 kImplementations[] = {
    {OPRIG_BACKEND_CPU, "libacmedsp_cpu.so"},
    {OPRIG_BACKEND_DSP, "libacmedsp_dsp.so"},
};

// The reference in double (OPRIG_REFERENCE_FLOAT_64): oprig hands the inputs
// dequantised and quantises the outputs with each case's scale and zero point
// itself, so the reference is the op on real numbers.
oprig_status reference_shapes(const char* op, const oprig_param* params, size_t num_params, const oprig_tensor* inputs,
                              size_t num_inputs, oprig_tensor* outputs, size_t num_outputs) {
  (void)params, (void)num_params;
  if (std::strcmp(op, "Relu") != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  return acme_dsp::same_shape_as_input(inputs[0], outputs[0]) ? OPRIG_STATUS_OK : OPRIG_STATUS_INVALID_ARGUMENT;
}

oprig_status reference_compute(const char* op, const oprig_param* params, size_t num_params, const oprig_tensor* inputs,
                               size_t num_inputs, const oprig_tensor* outputs, size_t num_outputs) {
  (void)params, (void)num_params;
  if (std::strcmp(op, "Relu") != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* x = static_cast<const double*>(inputs[0].data);
  auto* y = static_cast<double*>(outputs[0].data);
  const size_t n = acme_dsp::element_count(inputs[0]);
  for (size_t i = 0; i < n; ++i) y[i] = std::max(x[i], 0.0);
  return OPRIG_STATUS_OK;
}

const oprig_reference_v1 kReference = {sizeof(oprig_reference_v1), OPRIG_REFERENCE_FLOAT_64, reference_shapes,
                                       reference_compute, {}};

const oprig_package_v1 kPackage = {
    OPRIG_ABI_VERSION, sizeof(oprig_package_v1), "AcmeDsp", "0.1.0",
    "quantised Relu, the DSP part of the oprig vendor walkthrough", 0,
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
