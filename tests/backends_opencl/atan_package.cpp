#include "atan_package.hpp"

#include <dlfcn.h>

namespace oprig::testing {

OpenCLImplementation::OpenCLImplementation() {
  library_ = dlopen(OPRIG_OPSUITE_OPENCL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) {
    error_ = dlerror();
    return;
  }
  auto query = reinterpret_cast<oprig_implementation_query_fn>(
      dlsym(library_, OPRIG_IMPLEMENTATION_QUERY_SYMBOL));
  if (query == nullptr) {
    error_ = "no " OPRIG_IMPLEMENTATION_QUERY_SYMBOL " in " OPRIG_OPSUITE_OPENCL_LIBRARY;
    return;
  }
  implementation_ = query(OPRIG_BACKEND_OPENCL, OPRIG_ABI_VERSION);
  if (implementation_ == nullptr) error_ = "the library has no opencl implementation";
}

OpenCLImplementation::~OpenCLImplementation() {
  // Kept loaded: the package's program cache holds OpenCL objects whose
  // release at unload time would race the ICD's own teardown.
}

}  // namespace oprig::testing
