// HVX's gathers and VTCM on the simulator (oprig_dsp.h, "VTCM"): the faults
// a gather from or to memory that is not VTCM raises, the VTCM limit, what a
// dropped (past-the-region) byte leaves, and the cost the model gives (worked
// by hand from cost_model.md, "Gathers"). The bits themselves are checked
// against qemu-hexagon by hvx_bitexact.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "sim_session.hpp"

namespace oprig::hvx {
namespace {

using testing::SimSession;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

int rt(const void* p) { return static_cast<int>(reinterpret_cast<intptr_t>(p)); }

HVX_Vector halfword_offsets(uint16_t first, uint16_t step) {
  HVX_Vector v;
  for (uint16_t i = 0; i < 64; ++i) {
    const uint16_t h = static_cast<uint16_t>(first + i * step);
    std::memcpy(reinterpret_cast<uint8_t*>(&v) + 2 * i, &h, 2);
  }
  return v;
}

struct alignas(128) Vtcm {
  uint8_t table[1024];
  HVX_Vector out;
};

TEST(HvxGather, GathersHalfwordsAtAnyByteOffsetAndDropsBytesPastTheRegion) {
  auto v = std::make_unique<Vtcm>();
  for (size_t i = 0; i < sizeof v->table; ++i) v->table[i] = static_cast<uint8_t>(3 * i + 1);
  std::memset(&v->out, 0xEE, sizeof v->out);
  SimSession s;
  s.sim().map(v.get(), sizeof *v, true, "vtcm", true);
  // Offsets 90, 93, 96, ...: odd ones too; region Mu = 200 (bytes 0..201 with
  // Mu rounded up to the halfword's last byte), so offset 201 keeps its low
  // byte only and offsets from 202 are dropped.
  Q6_vgather_ARMVh(&v->out, rt(v->table), 200, halfword_offsets(90, 3));
  ASSERT_FALSE(s.sim().faulted()) << s.sim().fault();
  const auto* out = reinterpret_cast<const uint8_t*>(&v->out);
  for (size_t i = 0; i < 64; ++i) {
    const size_t offset = 90 + 3 * i;
    EXPECT_EQ(out[2 * i], offset <= 201 ? static_cast<uint8_t>(3 * offset + 1) : 0xEE) << i;
    EXPECT_EQ(out[2 * i + 1], offset + 1 <= 201 ? static_cast<uint8_t>(3 * (offset + 1) + 1) : 0xEE) << i;
  }
}

TEST(HvxGather, ARegionOutsideVtcmFaultsNamingTheInstruction) {
  auto v = std::make_unique<Vtcm>();
  alignas(128) static uint8_t plain[1024];
  SimSession s;
  s.sim().map(v.get(), sizeof *v, true, "vtcm", true);
  s.sim().map(plain, sizeof plain, false, "a table in plain memory");
  Q6_vgather_ARMVh(&v->out, rt(plain), 1023, halfword_offsets(0, 2));
  ASSERT_TRUE(s.sim().faulted());
  EXPECT_TRUE(has(s.sim().fault(), "Q6_vgather_ARMVh")) << s.sim().fault();
  EXPECT_TRUE(has(s.sim().fault(), "not inside VTCM")) << s.sim().fault();
}

TEST(HvxGather, ARegionRunningPastItsVtcmFaults) {
  auto v = std::make_unique<Vtcm>();
  SimSession s;
  s.sim().map(v->table, sizeof v->table, true, "vtcm table", true);
  Q6_vgather_ARMVh(&v->out, rt(v->table + 512), 600, halfword_offsets(0, 2));  // bytes 512..1113 of 1024
  ASSERT_TRUE(s.sim().faulted());
  EXPECT_TRUE(has(s.sim().fault(), "runs past the end of vtcm table")) << s.sim().fault();
}

TEST(HvxGather, AStoreOutsideVtcmFaultsAndWritesNothing) {
  auto v = std::make_unique<Vtcm>();
  alignas(128) HVX_Vector out;
  std::memset(&out, 0x5A, sizeof out);
  SimSession s;
  s.sim().map(v->table, sizeof v->table, true, "vtcm table", true);
  s.sim().map(&out, sizeof out, true, "output 0");
  Q6_vgather_ARMVh(&out, rt(v->table), 1023, halfword_offsets(0, 2));
  ASSERT_TRUE(s.sim().faulted());
  EXPECT_TRUE(has(s.sim().fault(), "not a line of VTCM")) << s.sim().fault();
  EXPECT_TRUE(has(s.sim().fault(), "output 0")) << s.sim().fault();
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(&out)[0], 0x5A);
}

TEST(HvxGather, MappingMoreThanTheVtcmLimitFaults) {
  const auto big = std::make_unique<uint8_t[]>(OPRIG_DSP_VTCM_BYTES + 128);
  SimSession s;
  oprig_dsp_map_vtcm(big.get(), OPRIG_DSP_VTCM_BYTES, "all of VTCM");
  EXPECT_FALSE(s.sim().faulted());
  oprig_dsp_map_vtcm(big.get() + OPRIG_DSP_VTCM_BYTES, 128, "one line more");
  ASSERT_TRUE(s.sim().faulted());
  EXPECT_TRUE(has(s.sim().fault(), "more than the 262144")) << s.sim().fault();
}

TEST(HvxGather, CostsItsElementsOnTheGatherPathAndNoL2Traffic) {
  auto v = std::make_unique<Vtcm>();
  SimSession s;
  oprig_dsp_map_vtcm(v.get(), sizeof *v, "vtcm");
  const HVX_Vector offsets = halfword_offsets(0, 2);
  Q6_vgather_ARMVh(&v->out, rt(v->table), 1023, offsets);  // GATHER_H: gather 64, store 1, 2 issue slots
  Q6_vgather_ARMVw(&v->out, rt(v->table), 1023, offsets);  // GATHER_W: gather 32, store 1, 2 issue slots
  oprig_vmem_load(&v->out);                                 // LD: load 1, from VTCM
  // gather path 96 units at 1 per cycle: 96; store 2, load 1; 5 issue slots: 2.
  EXPECT_EQ(s.sim().counters().instructions, 5u);
  EXPECT_EQ(s.sim().issue_cycles(), 96u);
  // VTCM is not L2: no streaming traffic at all.
  EXPECT_EQ(s.sim().streaming_cycles(), 0u);
  EXPECT_EQ(s.sim().cycles(), 20u + 96u);
}

}  // namespace
}  // namespace oprig::hvx
