#include "opsuite_implementation.hpp"

#include <memory>
#include <mutex>

#include "package/loader.hpp"
#include "runner/suite.hpp"

namespace oprig::bench {

const oprig_implementation_v1* opsuite_implementation(oprig_backend_kind kind, std::string* why) {
  static std::mutex mutex;
  static std::unique_ptr<Package> package;
  static std::string load_error;
  const std::lock_guard lock(mutex);
  if (package == nullptr && load_error.empty()) {
    try {
      package = Package::load(harness::default_package_path());
    } catch (const PackageError& e) {
      load_error = e.what();
    }
  }
  if (package == nullptr) {
    *why = load_error;
    return nullptr;
  }
  return package->implementation(kind, why);
}

}  // namespace oprig::bench
