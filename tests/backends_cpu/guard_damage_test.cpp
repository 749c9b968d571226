// Red zones say where they were hit: which side of the tensor, which bytes
// (relative to the tensor's first byte), how many changed, in the words the
// case messages use. On the cpu backend's HostBuffer (256-byte guards), with
// offsets derived by hand from the writes below.
#include <gtest/gtest.h>

#include <vector>

#include "cpu/host_buffer.hpp"

namespace oprig {
namespace {

TEST(GuardDamage, IntactBufferHasNone) {
  HostBuffer buffer(28, 64);
  EXPECT_TRUE(buffer.guard_damage().empty());
  EXPECT_TRUE(buffer.guards_intact());
}

TEST(GuardDamage, OneElementPastTheEnd) {
  HostBuffer buffer(28, 64);  // seven fp32 elements
  float* data = reinterpret_cast<float*>(buffer.data());
  data[7] = 1.0f;  // bytes 28..31
  const std::vector<GuardDamage> damage = buffer.guard_damage();
  ASSERT_EQ(damage.size(), 1u);
  EXPECT_FALSE(damage[0].before);
  EXPECT_EQ(damage[0].first, 28);
  EXPECT_EQ(damage[0].last, 31);
  EXPECT_EQ(damage[0].changed, 4u);  // 1.0f is 0x3f800000: no byte equals the pattern 0xFB
  EXPECT_EQ(guard_damage_text(damage[0], 28),
            "red zone after the tensor written at bytes 28..31 (4 byte(s) changed; the tensor is bytes 0..27)");
}

TEST(GuardDamage, BothSidesAreReportedApart) {
  HostBuffer buffer(16, 64);
  buffer.data()[-3] = std::byte{0};
  buffer.data()[-2] = std::byte{0};
  buffer.data()[16 + 40] = std::byte{0};  // inside the alignment slack, which is guarded too
  const std::vector<GuardDamage> damage = buffer.guard_damage();
  ASSERT_EQ(damage.size(), 2u);
  EXPECT_TRUE(damage[0].before);
  EXPECT_EQ(damage[0].first, -3);
  EXPECT_EQ(damage[0].last, -2);
  EXPECT_EQ(damage[0].changed, 2u);
  EXPECT_EQ(guard_damage_text(damage[0], 16),
            "red zone before the tensor written at bytes -3..-2 (2 byte(s) changed; the tensor is bytes 0..15)");
  EXPECT_FALSE(damage[1].before);
  EXPECT_EQ(damage[1].first, 56);
  EXPECT_EQ(damage[1].last, 56);
}

TEST(GuardDamage, AWriteOfThePatternItselfIsInvisible) {
  // The limit of any red zone: a store of the guard's own byte changes nothing.
  HostBuffer buffer(8, 64);
  buffer.data()[8] = HostBuffer::kGuardPattern;
  EXPECT_TRUE(buffer.guards_intact());
}

}  // namespace
}  // namespace oprig
