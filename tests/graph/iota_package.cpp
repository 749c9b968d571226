// A test package, org.oprig.test.iota, whose one op has a data-dependent
// output shape: Iota(n) = [0, 1, ..., n-1] (INT_32 [1] -> INT_32 [n]).
// prepare() sees only shapes and writes [-1]; resolve_shapes() reads the
// host copy of n and writes [n]. cpu only.
#include <cstring>
#include <new>

#include "oprig/oprig_package.h"

namespace {

struct IotaKernel {
  int32_t n = 0;
};

oprig_status create(const oprig_backend_context*, const char* op_name, const oprig_param*, size_t,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (std::strcmp(op_name, "Iota") != 0) return OPRIG_STATUS_UNSUPPORTED;
  *out_kernel = reinterpret_cast<oprig_kernel*>(new (std::nothrow) IotaKernel{});
  return *out_kernel ? OPRIG_STATUS_OK : OPRIG_STATUS_OUT_OF_MEMORY;
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1 || inputs[0].dtype != OPRIG_DTYPE_INT_32 ||
      outputs[0].dtype != OPRIG_DTYPE_INT_32 || inputs[0].rank != 1 || inputs[0].dims[0] != 1)
    return OPRIG_STATUS_UNSUPPORTED;
  (void)kernel;
  outputs[0].rank = 1;
  outputs[0].dims[0] = -1;  // the length is n's value
  return OPRIG_STATUS_OK;
}

oprig_status resolve_shapes(oprig_kernel* kernel, const oprig_tensor* inputs, size_t, oprig_tensor* outputs, size_t) {
  if (inputs[0].data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  int32_t n;
  std::memcpy(&n, inputs[0].data, sizeof n);
  if (n < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  reinterpret_cast<IotaKernel*>(kernel)->n = n;
  outputs[0].rank = 1;
  outputs[0].dims[0] = n;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor*, size_t, const oprig_tensor* outputs, size_t,
                     oprig_execute_info*) {
  const int32_t n = reinterpret_cast<IotaKernel*>(kernel)->n;
  auto* out = static_cast<int32_t*>(outputs[0].data);
  for (int32_t i = 0; i < n; ++i) out[i] = i;
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* kernel) { delete reinterpret_cast<IotaKernel*>(kernel); }

const oprig_implementation_v1 kImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_CPU, create, prepare, execute, destroy,
    nullptr, resolve_shapes, {}};

const oprig_op_registration_v1 kOps[] = {{"Iota", OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU), 1, 1, nullptr, {}}};
const oprig_implementation_location_v1 kLocations[] = {{OPRIG_BACKEND_CPU, nullptr}};

const oprig_package_v1 kPackage = {OPRIG_ABI_VERSION, sizeof(oprig_package_v1), "org.oprig.test.iota", "1.0",
                                   "data-dependent output shapes for the graph runtime tests", 0, 1, kOps, 1,
                                   kLocations, nullptr, {}};

}  // namespace

extern "C" OPRIG_EXPORT const oprig_package_v1* oprig_package_query(uint32_t max_version) {
  return max_version >= OPRIG_ABI_VERSION ? &kPackage : nullptr;
}

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                  uint32_t max_version) {
  return backend_kind == OPRIG_BACKEND_CPU && max_version >= OPRIG_ABI_VERSION ? &kImplementation : nullptr;
}
