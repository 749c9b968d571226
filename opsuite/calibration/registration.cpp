// The registration part of org.oprig.calibration: the ops `oprig calibrate`
// measures this machine's peaks with, on every backend built here. The cpu
// implementation lives in this library; opencl and vulkan in their own, so a
// missing driver costs only that backend.
#include "oprig/oprig_package.h"

namespace {

constexpr uint32_t kBackends = OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU)
#if defined(OPRIG_CALIBRATION_HAS_OPENCL)
                               | OPRIG_BACKEND_BIT(OPRIG_BACKEND_OPENCL)
#endif
#if defined(OPRIG_CALIBRATION_HAS_VULKAN)
                               | OPRIG_BACKEND_BIT(OPRIG_BACKEND_VULKAN)
#endif
    ;

const char* const kTriadParams[] = {"scalar", nullptr};
const char* const kFmaParams[] = {"iterations", nullptr};

const oprig_op_registration_v1 kOps[] = {
    {"Copy", kBackends, 1, 1, nullptr, {}},
    {"Triad", kBackends, 2, 1, kTriadParams, {}},
    {"FmaPeak", kBackends, 1, 1, kFmaParams, {}},
};

const oprig_implementation_location_v1 kImplementations[] = {
    {OPRIG_BACKEND_CPU, nullptr},
#if defined(OPRIG_CALIBRATION_HAS_OPENCL)
    {OPRIG_BACKEND_OPENCL, "liboprig_calibration_opencl.so"},
#endif
#if defined(OPRIG_CALIBRATION_HAS_VULKAN)
    {OPRIG_BACKEND_VULKAN, "liboprig_calibration_vulkan.so"},
#endif
};

const oprig_package_v1 kPackage = {
    OPRIG_ABI_VERSION,
    sizeof(oprig_package_v1),
    "org.oprig.calibration",
    "1.0",
    "Peaks of this machine for the roofline: STREAM copy and triad, FMA peak, per-launch overhead",
    0,
    sizeof kOps / sizeof kOps[0],
    kOps,
    sizeof kImplementations / sizeof kImplementations[0],
    kImplementations,
    nullptr,
    {}};

}  // namespace

extern "C" OPRIG_EXPORT const oprig_package_v1* oprig_package_query(uint32_t max_version) {
  return max_version >= OPRIG_ABI_VERSION ? &kPackage : nullptr;
}
