// The built liboprig_opsuite_opencl.so, loaded the way a host loads any
// package: dlopen, then the exported implementation query.
#pragma once

#include <string>

#include "oprig/oprig_package.h"

namespace oprig::testing {

class OpenCLImplementation {
 public:
  // Loads OPRIG_OPSUITE_OPENCL_LIBRARY; implementation() is nullptr on
  // failure and error() says why.
  OpenCLImplementation();
  ~OpenCLImplementation();
  OpenCLImplementation(const OpenCLImplementation&) = delete;
  OpenCLImplementation& operator=(const OpenCLImplementation&) = delete;

  const oprig_implementation_v1* implementation() const { return implementation_; }
  const std::string& error() const { return error_; }

 private:
  void* library_ = nullptr;
  const oprig_implementation_v1* implementation_ = nullptr;
  std::string error_;
};

}  // namespace oprig::testing
