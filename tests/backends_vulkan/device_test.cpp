// What the vulkan backend says about its device, and the handles it gives kernels.
#include <gtest/gtest.h>

#include <algorithm>

#include "factories.hpp"
#include "support.hpp"

namespace oprig::vulkan::testing {
namespace {

TEST(VulkanDevice, FactoryEitherCreatesOrExplains) {
  std::string why;
  auto backend = create_vulkan_backend(&why);
  if (!backend) {
    EXPECT_FALSE(why.empty()) << "a missing driver must be explained";
    GTEST_SKIP() << why;
  }
  EXPECT_EQ(backend->kind(), OPRIG_BACKEND_VULKAN);
}

TEST(VulkanDevice, InfoIsSane) {
  OPRIG_VULKAN_BACKEND_OR_SKIP(backend);
  const DeviceInfo& info = backend->info();
  EXPECT_EQ(info.backend, "vulkan");
  EXPECT_TRUE(info.available);
  EXPECT_FALSE(info.device_name.empty());
  EXPECT_FALSE(info.vendor.empty());
  EXPECT_FALSE(info.driver_version.empty());
  EXPECT_EQ(info.api_version.rfind("Vulkan 1.", 0), 0u) << info.api_version;
  EXPECT_NE(std::find(info.dtypes.begin(), info.dtypes.end(), OPRIG_DTYPE_FLOAT_32),
            info.dtypes.end());
  EXPECT_NE(std::find(info.dtypes.begin(), info.dtypes.end(), OPRIG_DTYPE_FLOAT_16),
            info.dtypes.end());
  EXPECT_TRUE(info.deterministic);
  // Recorded for the test log: what this machine's device is.
  RecordProperty("device", info.device_name);
  RecordProperty("driver", info.driver_version);
  RecordProperty("api", info.api_version);
}

TEST(VulkanDevice, LavapipeIsReportedAsSuch) {
  OPRIG_VULKAN_BACKEND_OR_SKIP(backend);
  const DeviceInfo& info = backend->info();
  if (info.device_name.find("llvmpipe") == std::string::npos)
    GTEST_SKIP() << "not lavapipe: " << info.device_name;
  EXPECT_EQ(info.vendor, "Mesa");
  EXPECT_NE(info.driver_version.find("llvmpipe"), std::string::npos) << info.driver_version;
  EXPECT_NE(info.driver_version.find("Mesa"), std::string::npos) << info.driver_version;
  EXPECT_TRUE(info.device_timer) << "lavapipe has 64 valid timestamp bits";
}

TEST(VulkanDevice, ContextCarriesVulkanHandlesOnly) {
  OPRIG_VULKAN_BACKEND_OR_SKIP(backend);
  const oprig_backend_context& ctx = backend->context();
  EXPECT_EQ(ctx.struct_size, sizeof(oprig_backend_context));
  EXPECT_EQ(ctx.kind, static_cast<uint32_t>(OPRIG_BACKEND_VULKAN));
  EXPECT_NE(ctx.vk_instance, nullptr);
  EXPECT_NE(ctx.vk_physical_device, nullptr);
  EXPECT_NE(ctx.vk_device, nullptr);
  EXPECT_EQ(ctx.cl_context, nullptr);
  EXPECT_EQ(ctx.cpu_pool, nullptr);
  EXPECT_EQ(ctx.cpu_parallel_for, nullptr);
}

}  // namespace
}  // namespace oprig::vulkan::testing
