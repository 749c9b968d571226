// The registration part of org.oprig.builtins: the device kernels of the
// graph runtime's built-in operations that no opsuite op computes
// (ElementwiseBinary does ADD/SUB/MUL). The graph runtime reaches them only
// through a built-in kernel map (runtime/graph/builtin_kernel_map.hpp); the
// host kernels of runtime/graph stay the cpu path, so there is no cpu
// implementation here.
#include "oprig/oprig_package.h"

namespace {

constexpr uint32_t kBackends = 0
#if defined(OPRIG_BUILTINS_HAS_OPENCL)
                               | OPRIG_BACKEND_BIT(OPRIG_BACKEND_OPENCL)
#endif
#if defined(OPRIG_BUILTINS_HAS_VULKAN)
                               | OPRIG_BACKEND_BIT(OPRIG_BACKEND_VULKAN)
#endif
#if defined(OPRIG_BUILTINS_HAS_DSP)
                               | OPRIG_BACKEND_BIT(OPRIG_BACKEND_DSP)
#endif
    ;
// Every op on every backend built; on dsp the kernels refuse float tensors
// at prepare (FullyConnected runs quantised only, Slice the integer types).

const char* const kOperation[] = {"operation", nullptr};
const char* const kArithmetic[] = {"operation", "fused_activation", nullptr};
const char* const kActivation[] = {"fused_activation", nullptr};

const oprig_op_registration_v1 kOps[] = {
    {"Compare", kBackends, 2, 1, kOperation, {}},
    {"Logical", kBackends, 2, 1, kOperation, {}},
    {"LogicalNot", kBackends, 1, 1, nullptr, {}},
    {"Cast", kBackends, 1, 1, nullptr, {}},
    {"QuantizedArithmetic", kBackends, 2, 1, kArithmetic, {}},
    {"Slice", kBackends, 3, 1, nullptr, {}},
    {"FullyConnected", kBackends, 3, 1, kActivation, {}},
};

const oprig_implementation_location_v1 kImplementations[] = {
#if defined(OPRIG_BUILTINS_HAS_OPENCL)
    {OPRIG_BACKEND_OPENCL, "liboprig_builtins_opencl.so"},
#endif
#if defined(OPRIG_BUILTINS_HAS_VULKAN)
    {OPRIG_BACKEND_VULKAN, "liboprig_builtins_vulkan.so"},
#endif
#if defined(OPRIG_BUILTINS_HAS_DSP)
    {OPRIG_BACKEND_DSP, "liboprig_builtins_dsp.so"},
#endif
};

const oprig_package_v1 kPackage = {
    OPRIG_ABI_VERSION,
    sizeof(oprig_package_v1),
    "org.oprig.builtins",
    "1.0",
    "Device kernels of the graph runtime's built-in comparisons, logical operations and CAST",
    0,
    sizeof kOps / sizeof kOps[0],
    kOps,
    sizeof kImplementations / sizeof kImplementations[0],
    kImplementations,
    nullptr,
    nullptr,
    {}};

}  // namespace

extern "C" OPRIG_EXPORT const oprig_package_v1* oprig_package_query(uint32_t max_version) {
  return max_version >= OPRIG_ABI_VERSION ? &kPackage : nullptr;
}
