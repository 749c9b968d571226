// For the unit tests of the ops (pool2d/, resize/ *_test.cpp, in
// oprig_opsuite_test): a backend by name and the opsuite's implementation
// library for it, made once per process (a fresh backend would build the
// programs again), absent with the reason in `why` in a build or on a
// machine without it (the device tests then GTEST_SKIP); and one execute of
// a one-input, one-output op. The backends are never destroyed
// (kept_until_exit.hpp: a GPU driver may be gone by the time a static's
// destructor runs at exit).
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "kept_until_exit.hpp"
#include "registry.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {

struct TestDevice {
  std::unique_ptr<Backend> backend;
  const oprig_implementation_v1* impl = nullptr;
  std::string why;  // when absent
  bool present() const { return backend != nullptr && impl != nullptr; }
};

inline TestDevice& test_device(const std::string& name) {
  static auto& devices = kept_until_exit<std::map<std::string, TestDevice>>();
  auto [it, fresh] = devices.try_emplace(name);
  TestDevice& d = it->second;
  if (fresh) {
    d.backend = create_backend(name, &d.why);
    if (d.backend != nullptr) d.impl = opsuite_implementation(d.backend->kind(), &d.why);
  }
  return d;
}

// One execute of `op` on `backend`; `out` gives the output's dtype and
// quantisation. Throws with the failing call's message.
inline HostTensor run_once(Backend& backend, const oprig_implementation_v1& impl, const std::string& op,
                           const ParamList& params, const HostTensor& in, const oprig_tensor& out) {
  KernelSession s(backend, impl, op, params, {in}, {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error(op + ": execute failed");
  return s.output(0);
}

}  // namespace oprig::harness
