// For the device unit tests of the ops (pool2d/device_test.cpp,
// resize/device_test.cpp, in oprig_opsuite_test): a backend by name and the
// opsuite's implementation library for it, made once per process (a fresh
// backend would build the programs again). Absent, with the reason in `why`,
// in a build or on a machine without it: the tests then GTEST_SKIP.
#pragma once

#include <map>
#include <memory>
#include <string>

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
  static std::map<std::string, TestDevice> devices;
  auto [it, fresh] = devices.try_emplace(name);
  TestDevice& d = it->second;
  if (fresh) {
    d.backend = create_backend(name, &d.why);
    if (d.backend != nullptr) d.impl = opsuite_implementation(d.backend->kind(), &d.why);
  }
  return d;
}

}  // namespace oprig::harness
