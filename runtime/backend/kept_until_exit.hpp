// For objects that hold a device driver's resources until the process ends
// (a test binary's backends, a benchmark's prepared kernels): made once and
// never destroyed. At exit the C++ runtime runs exit handlers in the reverse
// order of their registration; a function-local static registers its
// destructor when it is first constructed, which is before the driver it
// goes on to load (NVIDIA's OpenCL and Vulkan drivers) registers handlers of
// its own, so the driver tears itself down first and the static's destructor
// then releases contexts and buffers into a dead driver: oprig_opsuite_test
// and oprig_microbench died with SIGSEGV after their last test on an H100
// (driver 580). Never destroyed, nothing of oprig runs after the driver's
// teardown; the operating system takes the memory back. LeakSanitizer does
// not report it: the static reference keeps it reachable.
//
//   static auto& backends = kept_until_exit<std::map<std::string, std::unique_ptr<Backend>>>();
//
// Only for objects made once per process: anything made per test or per
// case is destroyed as usual, while the driver is alive.
#pragma once

#include <utility>

namespace oprig {

template <class T, class... Args>
T& kept_until_exit(Args&&... args) {
  return *new T(std::forward<Args>(args)...);
}

}  // namespace oprig
