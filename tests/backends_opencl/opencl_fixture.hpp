// A test fixture holding the opencl backend; every test skips when the
// backend reports no usable platform or device.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "backend.hpp"
#include "factories.hpp"

namespace oprig::testing {

class OpenCLTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    backend_ = create_opencl_backend(&why);
    if (backend_ == nullptr) GTEST_SKIP() << "opencl backend unavailable: " << why;
  }

  std::unique_ptr<Backend> backend_;
};

}  // namespace oprig::testing
