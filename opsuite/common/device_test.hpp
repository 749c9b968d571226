// For the unit tests of the device kernels (the op folders' *_test.cpp):
// one backend by name ("opencl", "vulkan"), made once per process (PoCL
// builds each program once per context), and one kernel run through
// KernelSession, exactly the ABI path the harness takes. A test calls
// device_or_skip() first: the backend may be absent (a build without GPU
// backends, a machine without the driver), and then the test is SKIPPED with
// the reason. Used by Activation, Quantize, Dequantize and ElementwiseBinary.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "registry.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness::device_test {

struct Device {
  std::unique_ptr<Backend> backend;
  const oprig_implementation_v1* impl = nullptr;
  std::string why;  // when there is no backend or no implementation
};

inline Device& device(const std::string& name) {
  static std::map<std::string, Device> devices;
  auto [it, fresh] = devices.try_emplace(name);
  Device& d = it->second;
  if (!fresh) return d;
  d.backend = create_backend(name, &d.why);
  if (d.backend != nullptr) d.impl = opsuite_implementation(d.backend->kind(), &d.why);
  return d;
}

// Skips the calling test when the backend or its implementation is missing.
#define OPRIG_DEVICE_OR_SKIP(name)                                                                \
  do {                                                                                            \
    if (::oprig::harness::device_test::device(name).impl == nullptr)                              \
      GTEST_SKIP() << "no " << (name) << " backend: " << ::oprig::harness::device_test::device(name).why; \
  } while (0)

inline oprig_tensor output_of(oprig_dtype dtype, float scale = 0, int32_t zero_point = 0) {
  oprig_tensor t{};
  t.dtype = dtype;
  t.scale = scale;
  t.zero_point = zero_point;
  return t;
}

// One execute of `op` on the named backend; throws with the session's error.
inline HostTensor run(const std::string& backend, const std::string& op, const ParamList& params,
                      std::vector<HostTensor> inputs, oprig_tensor output) {
  Device& d = device(backend);
  if (d.impl == nullptr) throw std::runtime_error(d.why);
  KernelSession s(*d.backend, *d.impl, op, params, std::move(inputs), {output});
  if (!s.ok()) throw std::runtime_error(s.error());
  const oprig_status st = s.run();
  if (st != OPRIG_STATUS_OK) throw std::runtime_error(op + ": execute returned status " + std::to_string(st));
  return s.output(0);
}

}  // namespace oprig::harness::device_test
