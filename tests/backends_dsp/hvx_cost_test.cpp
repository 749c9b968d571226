// Cycle counts of small programs, each worked out by hand from
// backends/dsp/cost_model.md (the arithmetic is in the comments). Constants
// are written as numbers, not taken from cost_model.hpp, so a change to the
// model fails here until the doc and these sums are updated with it.
#include <gtest/gtest.h>

#include "hvx_sim/core.hpp"

namespace oprig::hvx {
namespace {

constexpr uint64_t kOverhead = 20;  // cost_model.md: program overhead

TEST(HvxCost, IndependentAluOpsShareAPacketTwoAtATime) {
  Core core;
  const Vec a = core.splat_b(1);       // P1 @0 (ALU 1 of 2)
  const Vec b = core.splat_b(2);       // P1 @0 (ALU 2 of 2)
  const Vec c = core.splat_b(3);       // ALU full -> P2 @1
  const Vec d = core.add_sat_ub(a, b); // a, b ready @1, not from P2 -> P2 @1
  const Vec e = core.add_sat_ub(d, c); // reads P2's result -> P3 @2
  EXPECT_EQ(e.bytes[0], 6);
  EXPECT_EQ(core.counters().packets, 3u);
  EXPECT_EQ(core.counters().instructions, 5u);
  EXPECT_EQ(core.counters().stall_cycles, 0u);
  EXPECT_EQ(core.pipeline_cycles(), 3u);  // P3 issues @2, lasts 1
  EXPECT_EQ(core.cycles(), kOverhead + 3);
}

TEST(HvxCost, LoadToUseLatencyStalls) {
  alignas(128) uint8_t src[128] = {}, dst[128];
  Core core;
  core.map_readable(src, 128);
  core.map_writable(dst, 128);
  const Vec x = core.vmem(src);        // P1 @0, ready @4
  const Vec y = core.add_sat_ub(x, x); // P2 waits to @4: stall 3 (P1 ends @1); ready @5
  core.vmem_store(dst, y);             // reads P2 -> P3 @5
  EXPECT_EQ(core.counters().stall_cycles, 3u);
  EXPECT_EQ(core.pipeline_cycles(), 6u);
  EXPECT_EQ(core.streaming_cycles(), 4u);  // 256 bytes / 64 per cycle
  EXPECT_EQ(core.cycles(), kOverhead + 6);
}

TEST(HvxCost, UnalignedAccessPaysAPenaltyCycle) {
  alignas(128) uint8_t src[256] = {}, dst[128];
  Core core;
  core.map_readable(src, 256);
  core.map_writable(dst, 128);
  const Vec x = core.vmemu(src + 1);  // P1 @0, lasts 1+1, ready @0+4+1 = 5
  core.vmemu_store(dst, x);           // aligned address: no penalty; P2 @5 (stall 5-2 = 3)
  EXPECT_EQ(core.counters().unaligned_accesses, 1u);
  EXPECT_EQ(core.counters().stall_cycles, 3u);
  EXPECT_EQ(core.pipeline_cycles(), 6u);
  EXPECT_EQ(core.cycles(), kOverhead + 6);
}

TEST(HvxCost, StreamingBandwidthBoundsACopy) {
  alignas(128) uint8_t src[16 * 128] = {}, dst[16 * 128];
  Core core;
  core.map_readable(src, sizeof src);
  core.map_writable(dst, sizeof dst);
  Vec x[16];
  for (int i = 0; i < 16; ++i) x[i] = core.vmem(src + 128 * i);  // P1..P16 @0..15
  for (int i = 0; i < 16; ++i) core.vmem_store(dst + 128 * i, x[i]);
  // Store 0 joins P16 (@15); stores 1..15 take P17..P31 (@16..30): pipeline 31.
  // Traffic 32 vectors * 128 B = 4096 B at 64 B/cycle = 64 cycles > 31.
  EXPECT_EQ(core.pipeline_cycles(), 31u);
  EXPECT_EQ(core.streaming_cycles(), 64u);
  EXPECT_EQ(core.cycles(), kOverhead + 64);
}

TEST(HvxCost, FourInstructionsPerPacketAtMost) {
  alignas(128) uint8_t src[128] = {};
  Core core;
  core.map_readable(src, 128);
  const Vec k;                      // a host constant: ready at once
  core.splat_b(1);                  // P1 ALU
  core.splat_b(2);                  // P1 ALU
  core.vmem(src);                   // P1 LOAD
  core.mpy_ub_b(k, k);              // P1 MULTIPLY x2 (4th instruction)
  core.lut32(k, k, 0);              // 5th: P2 @1
  EXPECT_EQ(core.counters().packets, 2u);
  EXPECT_EQ(core.pipeline_cycles(), 2u);
  EXPECT_EQ(core.cycles(), kOverhead + 2);  // streaming 128/64 = 2 as well
}

TEST(HvxCost, RequantisationSequences) {
  Core srdhm;
  const Vec a = srdhm.splat_w(3);   // P1 @0, ready @1
  const Vec b = srdhm.splat_w(5);   // P1 @0
  srdhm.srdhm_w(a, b);              // vmpye P2 @1 (ready @3); vmpyo P3 waits to @3 (stall 1)
  EXPECT_EQ(srdhm.counters().stall_cycles, 1u);
  EXPECT_EQ(srdhm.pipeline_cycles(), 4u);

  Core rdbpot;
  const Vec x = rdbpot.splat_w(7);  // P1 @0, ready @1
  rdbpot.rdbpot_w(x, 2);            // SHIFT + ALU in P2 @1, the add in P3 @2
  EXPECT_EQ(rdbpot.counters().packets, 3u);
  EXPECT_EQ(rdbpot.pipeline_cycles(), 3u);

  Core wide;
  const Vec k;
  wide.mpy_ub_b(k, k);              // takes both MULTIPLY units: P1
  wide.mpy_h_h(k, k);               // P2
  EXPECT_EQ(wide.counters().packets, 2u);
}

TEST(HvxCost, EmptyProgramCostsTheOverheadOnly) {
  Core core;
  EXPECT_EQ(core.pipeline_cycles(), 0u);
  EXPECT_EQ(core.cycles(), kOverhead);
}

}  // namespace
}  // namespace oprig::hvx
