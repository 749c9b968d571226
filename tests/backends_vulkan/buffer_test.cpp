// Device buffers: round trips at a non-zero aligned offset, both memory paths
// (mapped and staged), empty buffers, and guard bands that catch a kernel
// writing just outside its tensor.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <numeric>

#include "support.hpp"

namespace oprig::vulkan::testing {
namespace {

std::vector<std::byte> counting_bytes(size_t n) {
  std::vector<std::byte> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<std::byte>((i * 7 + 3) & 0xff);
  return bytes;
}

void expect_round_trip(Backend& backend, size_t bytes) {
  auto buffer = backend.allocate(bytes);
  ASSERT_EQ(buffer->bytes(), bytes);
  oprig_tensor tensor{};
  buffer->bind(tensor);
  EXPECT_NE(tensor.data, nullptr);
  EXPECT_GT(tensor.offset, 0u) << "the tensor sits after a guard band";
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(static_cast<VkPhysicalDevice>(backend.context().vk_physical_device),
                                &properties);
  EXPECT_EQ(tensor.offset % properties.limits.minStorageBufferOffsetAlignment, 0u);
  EXPECT_EQ(tensor.bytes, bytes);

  const std::vector<std::byte> src = counting_bytes(bytes);
  EXPECT_GE(backend.write(*buffer, src), 0.0);
  std::vector<std::byte> dst(bytes);
  EXPECT_GE(backend.read(*buffer, dst), 0.0);
  EXPECT_EQ(dst, src);
  EXPECT_TRUE(buffer->guards_intact());
}

TEST(VulkanBuffer, RoundTripAtAlignedOffset) {
  OPRIG_VULKAN_BACKEND_OR_SKIP(backend);
  for (size_t bytes : {1u, 3u, 4u, 1000u, 1u << 20}) expect_round_trip(*backend, bytes);
}

TEST(VulkanBuffer, RoundTripThroughStaging) {
  OPRIG_VULKAN_BACKEND_OR_SKIP(backend, /*force_staging=*/true);
  for (size_t bytes : {1u, 6u, 4096u, 1u << 20}) expect_round_trip(*backend, bytes);
}

TEST(VulkanBuffer, EmptyBufferIsValid) {
  OPRIG_VULKAN_BACKEND_OR_SKIP(backend);
  auto buffer = backend->allocate(0);
  EXPECT_EQ(buffer->bytes(), 0u);
  oprig_tensor tensor{};
  buffer->bind(tensor);
  EXPECT_NE(tensor.data, nullptr);
  EXPECT_EQ(tensor.bytes, 0u);
  backend->write(*buffer, {});
  std::vector<std::byte> nothing;
  backend->read(*buffer, nothing);
  EXPECT_TRUE(buffer->guards_intact());
}

TEST(VulkanBuffer, OversizedCopiesAreRefused) {
  OPRIG_VULKAN_BACKEND_OR_SKIP(backend);
  auto buffer = backend->allocate(8);
  const std::vector<std::byte> too_much(9);
  EXPECT_THROW(backend->write(*buffer, too_much), std::length_error);
}

// A fake kernel that fills 4 bytes just past (or just before) its output, the
// way an off-by-one dispatch would.
struct OverrunKernel {
  int64_t where = 0;  // byte position relative to the tensor start
};

oprig_status overrun_execute(oprig_kernel* kernel, const oprig_tensor*, size_t,
                             const oprig_tensor* outputs, size_t, oprig_execute_info* info) {
  const auto* overrun = reinterpret_cast<const OverrunKernel*>(kernel);
  VkBuffer buffer = reinterpret_cast<VkBuffer>(outputs[0].data);
  const VkDeviceSize at = static_cast<VkDeviceSize>(static_cast<int64_t>(outputs[0].offset) +
                                                    overrun->where);
  vkCmdFillBuffer(static_cast<VkCommandBuffer>(info->vk_command_buffer), buffer, at, 4,
                  0xdeadbeefu);
  return OPRIG_STATUS_OK;
}

std::vector<GuardDamage> damage_after_overrun(Backend& backend, int64_t where, size_t bytes) {
  oprig_implementation_v1 impl{};
  impl.abi_version = OPRIG_ABI_VERSION;
  impl.struct_size = sizeof impl;
  impl.backend_kind = OPRIG_BACKEND_VULKAN;
  impl.execute = overrun_execute;
  OverrunKernel kernel{where};
  auto buffer = backend.allocate(bytes);
  oprig_tensor out{};
  buffer->bind(out);
  ExecTiming timing;
  EXPECT_EQ(backend.execute(impl, reinterpret_cast<oprig_kernel*>(&kernel), {}, {&out, 1}, timing),
            OPRIG_STATUS_OK);
  return buffer->guard_damage();
}

bool guards_after_overrun(Backend& backend, int64_t where, size_t bytes) {
  return damage_after_overrun(backend, where, bytes).empty();
}

TEST(VulkanBuffer, GuardsCatchWritesOnEitherSide) {
  for (bool staged : {false, true}) {
    OPRIG_VULKAN_BACKEND_OR_SKIP(backend, staged);
    EXPECT_TRUE(guards_after_overrun(*backend, 0, 64)) << "a write inside the tensor is fine";
    EXPECT_TRUE(guards_after_overrun(*backend, 60, 64)) << "the last word is still inside";
    EXPECT_FALSE(guards_after_overrun(*backend, 64, 64)) << "one word past the end";
    EXPECT_FALSE(guards_after_overrun(*backend, -4, 64)) << "one word before the start";
    EXPECT_FALSE(guards_after_overrun(*backend, 0, 0)) << "any write into an empty tensor";
    // Which side, which bytes: the 4-byte fill at tensor offset 64, and at -4.
    const std::vector<GuardDamage> after = damage_after_overrun(*backend, 64, 64);
    ASSERT_EQ(after.size(), 1u);
    EXPECT_FALSE(after[0].before);
    EXPECT_EQ(after[0].first, 64);
    EXPECT_EQ(after[0].last, 67);
    const std::vector<GuardDamage> before = damage_after_overrun(*backend, -4, 64);
    ASSERT_EQ(before.size(), 1u);
    EXPECT_TRUE(before[0].before);
    EXPECT_EQ(before[0].first, -4);
    EXPECT_EQ(before[0].last, -1);
  }
}

// oprig_package.h promises that a vulkan tensor's buffer goes on to the next
// multiple of 4 bytes, so a shader may bind it as whole words. The word that
// holds the last bytes of a 5-, 6- or 7-byte tensor is inside the buffer: a
// write to it lands (and the guards, being its other bytes, see it).
TEST(VulkanBuffer, TheLastWordOfAnOddSizedTensorIsInsideTheBuffer) {
  for (bool staged : {false, true}) {
    OPRIG_VULKAN_BACKEND_OR_SKIP(backend, staged);
    for (size_t bytes : {5u, 6u, 7u})
      EXPECT_FALSE(guards_after_overrun(*backend, 4, bytes)) << bytes << " bytes, staged " << staged;
  }
}

TEST(VulkanBuffer, ExecuteTimesWithTheDeviceClock) {
  OPRIG_VULKAN_BACKEND_OR_SKIP(backend);
  if (!backend->info().device_timer) GTEST_SKIP() << "no timestamp queries on this queue";
  oprig_implementation_v1 impl{};
  impl.execute = overrun_execute;
  OverrunKernel kernel{0};
  auto buffer = backend->allocate(1 << 20);
  oprig_tensor out{};
  buffer->bind(out);
  ExecTiming timing;
  ASSERT_EQ(backend->execute(impl, reinterpret_cast<oprig_kernel*>(&kernel), {}, {&out, 1}, timing),
            OPRIG_STATUS_OK);
  EXPECT_GT(timing.compute_ns, 0.0);
  EXPECT_LT(timing.compute_ns, 10e9);
}

}  // namespace
}  // namespace oprig::vulkan::testing
