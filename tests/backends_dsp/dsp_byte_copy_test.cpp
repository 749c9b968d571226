// opsuite/common/dsp_byte_copy.hpp, the HVX byte copy of Concat, Split and
// Crop on dsp, on the simulator against a scalar copy of the same blocks: at
// every source and destination offset in a line (the op cases' tensors are
// all 128-byte aligned), with each tensor mapped to its exact bytes so that a
// load of a line holding none of the source or a store outside the
// destination faults; and its cycles against cost_model.md's hand derivation.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "common/dsp_byte_copy.hpp"
#include "sim_session.hpp"

namespace oprig::opsuite {
namespace {

using hvx::testing::SimSession;

// A buffer whose bytes start `offset` bytes into a 128-byte line, with a
// line of guard bytes either side.
struct Placed {
  Placed(size_t bytes, size_t offset) : storage(bytes + 3 * 128 + 127) {
    const auto base = reinterpret_cast<uintptr_t>(storage.data());
    data = storage.data() + ((128 - base % 128) % 128) + 128 + offset;
    size = bytes;
  }
  std::vector<std::byte> storage;
  std::byte* data = nullptr;
  size_t size = 0;
};

size_t source_bytes(const CopyBlock& b) {  // one past the last byte a row reads
  const size_t outer = b.rows / b.inner;
  return b.src_offset + (outer - 1) * b.src_outer + (b.inner - 1) * b.src_inner + b.bytes;
}

// Runs `plan` (one source tensor, or one a block) on the simulator and checks
// every destination against the scalar copy; the simulated cycles.
uint64_t check_plan(const CopyPlan& plan, size_t num_sources, size_t num_destinations, std::mt19937& rng) {
  std::vector<size_t> src_bytes(num_sources, 0), dst_bytes(num_destinations, 0);
  for (const CopyBlock& b : plan.blocks) {
    src_bytes[b.src] = std::max(src_bytes[b.src], source_bytes(b));
    dst_bytes[b.dst] += b.total();
  }
  std::uniform_int_distribution<size_t> offset(0, 127);
  std::vector<Placed> sources, destinations, expected;
  for (size_t s = 0; s < num_sources; ++s) {
    sources.emplace_back(src_bytes[s], offset(rng));
    for (std::byte& x : sources.back().storage) x = static_cast<std::byte>(rng());
  }
  for (size_t d = 0; d < num_destinations; ++d) {
    destinations.emplace_back(dst_bytes[d], offset(rng));
    std::memset(destinations.back().storage.data(), 0xA5, destinations.back().storage.size());
  }
  expected = destinations;
  for (size_t d = 0; d < num_destinations; ++d)
    expected[d].data = expected[d].storage.data() + (destinations[d].data - destinations[d].storage.data());
  for (const CopyBlock& b : plan.blocks)
    for (size_t r = 0; r < b.rows; ++r) {
      const size_t o = r / b.inner, i = r % b.inner;
      std::memcpy(expected[b.dst].data + b.dst_offset + o * b.dst_outer + i * b.dst_inner,
                  sources[b.src].data + b.src_offset + o * b.src_outer + i * b.src_inner, b.bytes);
    }

  std::vector<DspCopyTarget> targets;
  EXPECT_TRUE(dsp_copy_targets(plan, &targets));
  std::vector<const std::byte*> src;
  std::vector<std::byte*> dst;
  for (const Placed& p : sources) src.push_back(p.data);
  for (Placed& p : destinations) dst.push_back(p.data);
  SimSession s;
  for (const Placed& p : sources)
    if (p.size != 0) s.sim().map(p.data, p.size, false, "source");
  for (const Placed& p : destinations)
    if (p.size != 0) s.sim().map(p.data, p.size, true, "destination");
  EXPECT_TRUE(dsp_copy_plan(plan, targets, src.data(), src.size(), dst.data()));
  EXPECT_FALSE(s.sim().faulted()) << s.sim().fault();
  for (size_t d = 0; d < num_destinations; ++d)  // guard bytes included: nothing else written
    EXPECT_EQ(std::memcmp(destinations[d].storage.data(), expected[d].storage.data(),
                          destinations[d].storage.size()), 0)
        << "destination " << d;
  return s.sim().cycles();
}

TEST(DspByteCopy, ConcatAndSplitRowsOfChunksAtEveryAlignment) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const size_t parts = 1 + rng() % 4;
    std::vector<int64_t> sizes(parts);
    for (int64_t& s : sizes) s = static_cast<int64_t>(rng() % (trial % 3 == 0 ? 300 : 40));
    const int64_t dims[3] = {static_cast<int64_t>(1 + rng() % 5), 0, static_cast<int64_t>(1 + rng() % 3)};
    const ChunkedRows rows = chunked_rows(dims, 3, 1, 1, sizes);
    if (rows.total == 0) continue;
    SCOPED_TRACE(testing::Message() << "trial " << trial);
    check_plan(gather_plan(rows), parts, 1, rng);
    check_plan(scatter_plan(rows), 1, parts, rng);
  }
}

TEST(DspByteCopy, CropBlocksAtEveryAlignment) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    CopyBlock b;
    b.bytes = 1 + rng() % 400;
    b.inner = 1 + rng() % 4;
    b.rows = b.inner * (1 + rng() % 3);
    b.src_offset = rng() % 200;
    b.src_inner = b.bytes + rng() % 3 * (rng() % 150);
    b.src_outer = b.inner * b.src_inner + rng() % 100;
    b.dst_inner = b.bytes;
    b.dst_outer = b.inner * b.bytes;
    SCOPED_TRACE(testing::Message() << "trial " << trial);
    check_plan(block_plan(merged_rows(b)), 1, 1, rng);
  }
}

// cost_model.md: a long aligned copy streams one load and one store a vector,
// 4 cycles of traffic each (and one load of the byte index); a source one
// byte off adds one line and a valign a vector, which the traffic hides.
TEST(DspByteCopy, CyclesOfALongCopyAreTheLoadStoreBandwidth) {
  const size_t bytes = 128 * 512;
  CopyBlock b;
  b.bytes = bytes;
  b.rows = b.inner = 1;
  std::vector<std::byte> src(bytes + 256), dst(bytes + 128);
  auto aligned = [](std::vector<std::byte>& v) {
    return v.data() + (128 - reinterpret_cast<uintptr_t>(v.data()) % 128) % 128;
  };
  for (size_t shift : {size_t{0}, size_t{1}}) {
    const std::byte* from = aligned(src) + shift;
    std::byte* to = aligned(dst);
    CopyPlan plan = block_plan(b);
    std::vector<DspCopyTarget> targets;
    ASSERT_TRUE(dsp_copy_targets(plan, &targets));
    SimSession s;
    s.sim().map(from, bytes, false, "source");
    s.sim().map(to, bytes, true, "destination");
    ASSERT_TRUE(dsp_copy_plan(plan, targets, &from, 1, &to));
    ASSERT_FALSE(s.sim().faulted()) << s.sim().fault();
    const uint64_t loads = 1 + 512 + shift;  // the byte index; the shifted source touches one more line
    EXPECT_EQ(s.sim().cycles(), 20 + (loads + 512) * 128 / 64) << "shift " << shift;
  }
}

}  // namespace
}  // namespace oprig::opsuite
