// What the opencl backend says about its device and the handles it gives kernels.
#include <CL/cl.h>

#include <algorithm>

#include "opencl_fixture.hpp"

namespace oprig::testing {
namespace {

using OpenCLDeviceTest = OpenCLTest;

TEST_F(OpenCLDeviceTest, DescribesTheDevice) {
  const DeviceInfo& info = backend_->info();
  EXPECT_EQ(info.backend, "opencl");
  EXPECT_TRUE(info.available);
  EXPECT_FALSE(info.device_name.empty());
  EXPECT_FALSE(info.vendor.empty());
  EXPECT_FALSE(info.driver_version.empty());
  EXPECT_EQ(info.api_version.rfind("OpenCL ", 0), 0u) << info.api_version;
  EXPECT_EQ(info.api_version.find(' ', 7), std::string::npos) << "only 'OpenCL X.Y': " << info.api_version;
  const auto has = [&](oprig_dtype t) {
    return std::find(info.dtypes.begin(), info.dtypes.end(), t) != info.dtypes.end();
  };
  EXPECT_TRUE(has(OPRIG_DTYPE_FLOAT_32));
  EXPECT_TRUE(has(OPRIG_DTYPE_FLOAT_16));
  EXPECT_TRUE(has(OPRIG_DTYPE_INT_32));  // core OpenCL C
  EXPECT_TRUE(has(OPRIG_DTYPE_UINT_8));
  EXPECT_FALSE(has(OPRIG_DTYPE_INT_64)) << "64-bit integers are optional on embedded profiles";
  EXPECT_TRUE(info.deterministic);
  EXPECT_TRUE(info.device_timer);
  EXPECT_EQ(backend_->kind(), OPRIG_BACKEND_OPENCL);
}

TEST_F(OpenCLDeviceTest, DriverVersionNamesPoclWhenItIsPocl) {
  const DeviceInfo& info = backend_->info();
  if (info.device_name.find("pthread") == std::string::npos &&
      info.device_name.find("cpu") == std::string::npos)
    GTEST_SKIP() << "not a PoCL CPU device: " << info.device_name;
  EXPECT_EQ(info.driver_version.rfind("PoCL ", 0), 0u) << info.driver_version;
}

TEST_F(OpenCLDeviceTest, ContextCarriesAProfilingInOrderQueueOnTheDevice) {
  const oprig_backend_context& ctx = backend_->context();
  EXPECT_EQ(ctx.struct_size, sizeof(oprig_backend_context));
  EXPECT_EQ(ctx.kind, static_cast<uint32_t>(OPRIG_BACKEND_OPENCL));
  ASSERT_NE(ctx.cl_context, nullptr);
  ASSERT_NE(ctx.cl_device, nullptr);
  ASSERT_NE(ctx.cl_queue, nullptr);
  EXPECT_EQ(ctx.cpu_pool, nullptr);
  EXPECT_EQ(ctx.vk_device, nullptr);

  auto queue = static_cast<cl_command_queue>(ctx.cl_queue);
  cl_command_queue_properties properties = 0;
  ASSERT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr),
            CL_SUCCESS);
  EXPECT_NE(properties & CL_QUEUE_PROFILING_ENABLE, 0u);
  EXPECT_EQ(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0u);
  cl_device_id device = nullptr;
  ASSERT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr), CL_SUCCESS);
  EXPECT_EQ(device, static_cast<cl_device_id>(ctx.cl_device));
  cl_context context = nullptr;
  ASSERT_EQ(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr), CL_SUCCESS);
  EXPECT_EQ(context, static_cast<cl_context>(ctx.cl_context));
}

}  // namespace
}  // namespace oprig::testing
