// Cycle counts of small programs, each worked out by hand from
// backends/dsp/cost_model.md (the arithmetic is in the comments). Constants
// are written as numbers, not taken from cost_model.hpp, so a change to the
// model fails here until the doc and these sums are updated with it.
#include <gtest/gtest.h>

#include "sim_session.hpp"

namespace oprig::hvx {
namespace {

using testing::SimSession;

constexpr uint64_t kOverhead = 20;  // cost_model.md: program overhead

TEST(HvxCost, EmptyProgramCostsTheOverheadOnly) {
  SimSession s;
  EXPECT_EQ(s.sim().issue_cycles(), 0u);
  EXPECT_EQ(s.sim().cycles(), kOverhead);
  EXPECT_TRUE(s.sim().used());  // oprig_dsp_begin was called
}

TEST(HvxCost, TwoAluOperationsPerCycle) {
  SimSession s;
  const HVX_Vector a = Q6_V_vzero();               // VA: ALU 1
  const HVX_Vector b = Q6_Vub_vadd_VubVub_sat(a, a);  // VA: ALU 2
  Q6_Vub_vadd_VubVub_sat(a, b);                    // VA: ALU 3
  // ALU units 3 at 2 per cycle: ceil(3/2) = 2; 3 instructions at 4 per cycle: 1.
  EXPECT_EQ(s.sim().counters().instructions, 3u);
  EXPECT_EQ(s.sim().issue_cycles(), 2u);
  EXPECT_EQ(s.sim().cycles(), kOverhead + 2);
}

TEST(HvxCost, DoubleVectorInstructionsTakeBothUnits) {
  SimSession s;
  const HVX_Vector k = Q6_V_vsplat_R(3);  // VX: multiply 1
  Q6_Wh_vmpy_VubVb(k, k);                 // VX_DV: multiply 2 -> 3
  Q6_Wh_vmpy_VubVb(k, k);                 // -> 5
  Q6_W_vcombine_VV(k, k);                 // VA_DV: ALU 2
  // multiply ceil(5/2) = 3, ALU ceil(2/2) = 1, 4 instructions: 1.
  EXPECT_EQ(s.sim().issue_cycles(), 3u);
}

TEST(HvxCost, LookupsUseThePermuteNetworkAndTheShifter) {
  SimSession s;
  const HVX_Vector x = Q6_V_vzero();  // VA
  HVX_Vector y = Q6_Vb_vlut32_VbVbR(x, x, 0);  // VP: permute 1
  for (int m = 1; m < 8; ++m) y = Q6_Vb_vlut32or_VbVbVbR(y, x, x, m);  // VP_VS: permute +7, shift +7
  // permute 8 at 1 per cycle: 8; shift 7; 9 instructions: ceil(9/4) = 3.
  EXPECT_EQ(s.sim().issue_cycles(), 8u);
  EXPECT_EQ(s.sim().counters().units[static_cast<size_t>(Resource::kShift)], 7u);
}

TEST(HvxCost, StreamingBandwidthBoundsACopy) {
  alignas(128) uint8_t src[16 * 128] = {}, dst[16 * 128];
  SimSession s;
  s.sim().map(src, sizeof src, false, "src");
  s.sim().map(dst, sizeof dst, true, "dst");
  for (int i = 0; i < 16; ++i) oprig_vmem_store(dst + 128 * i, oprig_vmem_load(src + 128 * i));
  // load 16 and store 16 at 1 per cycle: 16; traffic 32 x 128 B at 64 B/cycle: 64 > 16.
  EXPECT_EQ(s.sim().issue_cycles(), 16u);
  EXPECT_EQ(s.sim().streaming_cycles(), 64u);
  EXPECT_EQ(s.sim().cycles(), kOverhead + 64);
}

TEST(HvxCost, UnalignedAccessesPayThePermuteAndAPenaltyCycle) {
  alignas(128) uint8_t src[256] = {}, dst[256];
  SimSession s;
  s.sim().map(src, sizeof src, false, "src");
  s.sim().map(dst, sizeof dst, true, "dst");
  const HVX_Vector x = oprig_vmemu_load(src + 1);  // LDU: load 1, permute 1, unaligned: +1
  oprig_vmemu_store(dst, x);                       // STU at an aligned address: store 1, permute 2, no penalty
  EXPECT_EQ(s.sim().counters().unaligned_accesses, 1u);
  // permute 2 -> 2 cycles, + 1 penalty = 3; traffic 256 B: 4 cycles.
  EXPECT_EQ(s.sim().issue_cycles(), 3u);
  EXPECT_EQ(s.sim().cycles(), kOverhead + 4);
}

TEST(HvxCost, FourInstructionsPerCycleAtMost) {
  SimSession s;
  const HVX_Vector v = Q6_V_vzero();   // ALU 1
  Q6_V_vor_VV(v, v);                   // ALU 2
  Q6_V_vsplat_R(1);                    // multiply 1
  Q6_V_vsplat_R(2);                    // multiply 2
  Q6_Vw_vasr_VwR(v, 1);                // shift 1
  Q6_V_vror_VR(v, 1);                  // permute 1
  Q6_V_vxor_VV(v, v);                  // ALU 3
  Q6_V_vsplat_R(3);                    // multiply 3
  Q6_Vw_vasl_VwR(v, 1);                // shift 2
  // Units: ALU 2 cycles, multiply 2, shift 2, permute 1; 9 instructions: ceil(9/4) = 3.
  EXPECT_EQ(s.sim().issue_cycles(), 3u);
}

}  // namespace
}  // namespace oprig::hvx
