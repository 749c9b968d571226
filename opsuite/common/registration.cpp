// The registration part of the opsuite package: which ops exist, on which
// backends, with which parameters, and which library implements each backend.
// Built from the same ops.inc lines as the implementation libraries, so a
// kernel cannot be registered without existing or exist without registering.
#include <array>
#include <string_view>

#include "oprig/oprig_package.h"

namespace {

constexpr uint32_t backend_bit_of(const char* name) {
  std::string_view n(name);
  if (n == "cpu") return OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU);
  if (n == "opencl") return OPRIG_BACKEND_BIT(OPRIG_BACKEND_OPENCL);
  if (n == "vulkan") return OPRIG_BACKEND_BIT(OPRIG_BACKEND_VULKAN);
  if (n == "dsp") return OPRIG_BACKEND_BIT(OPRIG_BACKEND_DSP);
  return 0;
}

constexpr uint32_t built_backends() {
  uint32_t mask = 0;
#if defined(OPRIG_OPSUITE_HAS_cpu)
  mask |= OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU);
#endif
#if defined(OPRIG_OPSUITE_HAS_opencl)
  mask |= OPRIG_BACKEND_BIT(OPRIG_BACKEND_OPENCL);
#endif
#if defined(OPRIG_OPSUITE_HAS_vulkan)
  mask |= OPRIG_BACKEND_BIT(OPRIG_BACKEND_VULKAN);
#endif
#if defined(OPRIG_OPSUITE_HAS_dsp)
  mask |= OPRIG_BACKEND_BIT(OPRIG_BACKEND_DSP);
#endif
  return mask;
}

struct KernelLine {
  const char* op;
  uint32_t backend_bit;
};

#define OPRIG_OP(...)
#define OPRIG_KERNEL(op, backend, symbol) KernelLine{#op, backend_bit_of(#backend)},
constexpr KernelLine kKernelLines[] = {
#include "opsuite_ops.inc"
    KernelLine{nullptr, 0}};
#undef OPRIG_KERNEL
#undef OPRIG_OP

constexpr uint32_t mask_of(const char* op) {
  uint32_t mask = 0;
  for (const KernelLine& line : kKernelLines)
    if (line.op != nullptr && std::string_view(line.op) == op) mask |= line.backend_bit;
  return mask & built_backends();
}

#define OPRIG_KERNEL(...)
#define OPRIG_OP(op, num_inputs, num_outputs, ...) \
  constexpr const char* const op##_params[] = {__VA_ARGS__ __VA_OPT__(,) nullptr};
#include "opsuite_ops.inc"
#undef OPRIG_OP

#define OPRIG_OP(op, num_inputs, num_outputs, ...) \
  oprig_op_registration_v1{#op, mask_of(#op), num_inputs, num_outputs, op##_params, {}},
const oprig_op_registration_v1 kOps[] = {
#include "opsuite_ops.inc"
};
#undef OPRIG_OP
#undef OPRIG_KERNEL

const oprig_implementation_location_v1 kImplementations[] = {
#if defined(OPRIG_OPSUITE_HAS_cpu)
    {OPRIG_BACKEND_CPU, "liboprig_opsuite_cpu.so"},
#endif
#if defined(OPRIG_OPSUITE_HAS_opencl)
    {OPRIG_BACKEND_OPENCL, "liboprig_opsuite_opencl.so"},
#endif
#if defined(OPRIG_OPSUITE_HAS_vulkan)
    {OPRIG_BACKEND_VULKAN, "liboprig_opsuite_vulkan.so"},
#endif
#if defined(OPRIG_OPSUITE_HAS_dsp)
    {OPRIG_BACKEND_DSP, "liboprig_opsuite_dsp.so"},
#endif
};

const oprig_package_v1 kPackage = {
    OPRIG_ABI_VERSION,
    sizeof(oprig_package_v1),
    "org.oprig.opsuite",
    "0.1.0",
    "The ops bundled with oprig",
    0,
    sizeof(kOps) / sizeof(kOps[0]),
    kOps,
    sizeof(kImplementations) / sizeof(kImplementations[0]),
    kImplementations,
    nullptr,
    {}};

}  // namespace

extern "C" OPRIG_EXPORT const oprig_package_v1* oprig_package_query(uint32_t max_version) {
  return max_version >= OPRIG_ABI_VERSION ? &kPackage : nullptr;
}
