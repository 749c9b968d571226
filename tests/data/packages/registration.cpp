// The registration part of a test package: one op, Atan, on cpu (and opencl
// or vulkan where OPRIG_TEST_BACKEND_MASK says), with the knobs of
// test_package_config.hpp deciding how it is (deliberately) wrong.
#include <cmath>
#include <cstring>

#include "oprig/oprig_package.h"
#include "test_package_config.hpp"

namespace {

#if OPRIG_TEST_TYPED_PARAMS
constexpr const char* const kParamNames[] = {OPRIG_TEST_PARAM_NAME, "repeats", "exact", nullptr};
#else
constexpr const char* const kParamNames[] = {OPRIG_TEST_PARAM_NAME, nullptr};
#endif

const oprig_op_registration_v1 kOps[] = {
    {"Atan", OPRIG_TEST_BACKEND_MASK, OPRIG_TEST_NUM_INPUTS, 1, kParamNames, {}}};

// The opencl and vulkan kernels live in the registration library itself
// when built in (OPRIG_TEST_WITH_OPENCL / _VULKAN, set by CMakeLists.txt).
const oprig_implementation_location_v1 kImplementations[] = {
    {OPRIG_BACKEND_CPU, OPRIG_TEST_IMPLEMENTATION_LIBRARY},
#if defined(OPRIG_TEST_WITH_OPENCL)
    {OPRIG_BACKEND_OPENCL, nullptr},
#endif
#if defined(OPRIG_TEST_WITH_VULKAN)
    {OPRIG_BACKEND_VULKAN, nullptr},
#endif
};

// The package's own fp64 reference, as a vendor's package ships it: oprig
// judges a package's ops by the package's reference, never by a bundled one
// of the same name (unless asked with --bundled-reference).
double reference_offset(const oprig_param* params, size_t num_params) {
  for (size_t i = 0; i < num_params; ++i) {
    const oprig_param& p = params[i];
    if (p.name == nullptr || std::strcmp(p.name, "offset") != 0 || p.count != 1 || p.data == nullptr) continue;
    if (p.dtype == OPRIG_DTYPE_FLOAT_32) {
      float v;
      std::memcpy(&v, p.data, sizeof v);
      return v;
    }
    if (p.dtype == OPRIG_DTYPE_FLOAT_64) {
      double v;
      std::memcpy(&v, p.data, sizeof v);
      return v;
    }
  }
  return 0.0;
}

oprig_status reference_shapes(const char*, const oprig_param*, size_t, const oprig_tensor* inputs, size_t num_inputs,
                              oprig_tensor* outputs, size_t num_outputs) {
  if (num_inputs < 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  outputs[0].rank = inputs[0].rank;
  for (uint32_t d = 0; d < inputs[0].rank && d < OPRIG_MAX_RANK; ++d) outputs[0].dims[d] = inputs[0].dims[d];
  return OPRIG_STATUS_OK;
}

// y = atan(x + offset) in fp64.
oprig_status reference_compute(const char*, const oprig_param* params, size_t num_params, const oprig_tensor* inputs,
                               size_t num_inputs, const oprig_tensor* outputs, size_t num_outputs) {
  if (num_inputs < 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const double offset = reference_offset(params, num_params);
  size_t n = 1;
  for (uint32_t d = 0; d < inputs[0].rank && d < OPRIG_MAX_RANK; ++d) n *= static_cast<size_t>(inputs[0].dims[d]);
  const double* x = static_cast<const double*>(inputs[0].data);
  double* y = static_cast<double*>(outputs[0].data);
  for (size_t i = 0; i < n; ++i) y[i] = std::atan(x[i] + offset);
  return OPRIG_STATUS_OK;
}

const oprig_reference_v1 kReference = {sizeof(oprig_reference_v1), OPRIG_REFERENCE_FLOAT_64, reference_shapes,
                                       reference_compute, {}};

// maybe_unused: the package without an entry point never refers to it.
[[maybe_unused]] const oprig_package_v1 kPackage = {
    OPRIG_TEST_ABI_VERSION,
    sizeof(oprig_package_v1),
    OPRIG_TEST_PACKAGE_NAME,
    "0.0.1",
    "A test package of oprig's own test suite",
    0,
    sizeof(kOps) / sizeof(kOps[0]),
    kOps,
    sizeof(kImplementations) / sizeof(kImplementations[0]),
    kImplementations,
    nullptr,
    &kReference,
    nullptr,
    {}};

// A volatile store through a volatile pointer: the compiler must emit the
// faulting store. Sanitizers are kept out: the point is a real SIGSEGV (UBSan
// would report the null store and exit 1 instead).
[[maybe_unused]] __attribute__((no_sanitize("address", "undefined"), noinline)) void write_through_null() {
  volatile int* volatile nowhere = nullptr;
  *nowhere = 1;
}

#if defined(OPRIG_TEST_CRASH_IN_CONSTRUCTOR)
// A dynamic initialiser: runs inside dlopen, before oprig sees any symbol.
const bool kCrashedAtLoad = (write_through_null(), true);
#endif

}  // namespace

#if !defined(OPRIG_TEST_OMIT_PACKAGE_QUERY)
extern "C" OPRIG_EXPORT const oprig_package_v1* oprig_package_query(uint32_t max_version) {
#if defined(OPRIG_TEST_CRASH_IN_QUERY)
  (void)max_version;
  write_through_null();
  return &kPackage;
#elif defined(OPRIG_TEST_QUERY_RETURNS_NULL)
  (void)max_version;
  return nullptr;
#else
  // Answers whatever the host asks: the wrong-ABI package must reach the
  // loader's abi_version check instead of being refused here.
  (void)max_version;
  return &kPackage;
#endif
}
#endif
