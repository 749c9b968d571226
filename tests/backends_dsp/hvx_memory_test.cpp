// The simulated DSP's memory rules (oprig_dsp.h, "Memory"; simulator.hpp):
// what a load may touch, what a store may write, and faults that name the
// instruction, the address and the region, stop the program and never crash.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "sim_session.hpp"

namespace oprig::hvx {
namespace {

using testing::SimSession;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string hex(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
  return text;
}

TEST(HvxMemory, ALoadMayTouchAnyByteOfALineHoldingAMappedByte) {
  alignas(128) uint8_t line[256];
  for (size_t i = 0; i < sizeof line; ++i) line[i] = static_cast<uint8_t>(i + 1);
  SimSession s;
  s.sim().map(line + 10, 20, false, "input 0");  // bytes 10..29 of the first line only
  const HVX_Vector v = oprig_vmem_load(line);
  ASSERT_FALSE(s.sim().faulted()) << s.sim().fault();
  for (size_t i = 0; i < 128; ++i)  // unmapped bytes read as 0
    EXPECT_EQ(reinterpret_cast<const uint8_t*>(&v)[i], i >= 10 && i < 30 ? i + 1 : 0) << i;
}

TEST(HvxMemory, ALoadFromALineWithNoMappedByteFaultsNamingInstructionAddressAndTensor) {
  alignas(128) uint8_t buffer[512];
  SimSession s;
  s.sim().map(buffer, 200, false, "input 0");
  oprig_vmemu_load(buffer + 100);  // lines 0 and 1: fine
  EXPECT_FALSE(s.sim().faulted());
  const HVX_Vector bad = oprig_vmemu_load(buffer + 300);  // lines 2 and 3: none of input 0
  ASSERT_TRUE(s.sim().faulted());
  const std::string& fault = s.sim().fault();
  EXPECT_TRUE(has(fault, "oprig_vmemu_load")) << fault;
  EXPECT_TRUE(has(fault, "Vd32=vmemu(Rt32)")) << fault;
  EXPECT_TRUE(has(fault, "instruction 2 ")) << fault;
  EXPECT_TRUE(has(fault, hex(buffer + 300))) << fault;
  EXPECT_TRUE(has(fault, "100 byte(s) past the end of input 0 (200 bytes at " + hex(buffer) + ", read-only)")) << fault;
  for (size_t i = 0; i < 128; ++i) EXPECT_EQ(reinterpret_cast<const uint8_t*>(&bad)[i], 0);

  // After a fault every instruction is skipped, its result reading 0.
  const HVX_Vector after = Q6_Vb_vsplat_R(7);
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(&after)[0], 0);
  EXPECT_NE(oprig_dsp_failed(), 0);
  oprig_execute_info info{};
  EXPECT_EQ(oprig_dsp_end(&info), OPRIG_STATUS_BACKEND_ERROR);
}

TEST(HvxMemory, AStoreOutsideWritableMemoryFaultsAndWritesNothing) {
  alignas(128) uint8_t out[256];
  std::memset(out, 0xAA, sizeof out);
  SimSession s;
  s.sim().map(out, 100, true, "output 0");
  // A predicated store of bytes 90..109: 90..99 are the tensor's, 100..109 are not.
  const HVX_VectorPred q = Q6_Q_and_QQn(Q6_Q_vsetq_R(110), Q6_Q_vsetq_R(90));
  Q6_vmem_QRIV(q, reinterpret_cast<HVX_Vector*>(out), Q6_Vb_vsplat_R(1));
  ASSERT_TRUE(s.sim().faulted());
  const std::string& fault = s.sim().fault();
  EXPECT_TRUE(has(fault, "Q6_vmem_QRIV")) << fault;
  EXPECT_TRUE(has(fault, "10 byte(s) outside writable memory, the first at " + hex(out + 100))) << fault;
  EXPECT_TRUE(has(fault, "the first at " + hex(out + 100) + ": it is just past the end of output 0")) << fault;
  for (uint8_t b : out) EXPECT_EQ(b, 0xAA);  // nothing written, not even the good bytes
}

TEST(HvxMemory, APredicatedStoreWritesOnlyItsBytesAndMayStopAtTheTensorsEnd) {
  alignas(128) uint8_t out[128];
  std::memset(out, 0xAA, sizeof out);
  SimSession s;
  s.sim().map(out, 100, true, "output 0");
  Q6_vmem_QRIV(Q6_Q_vsetq_R(100), reinterpret_cast<HVX_Vector*>(out), Q6_Vb_vsplat_R(1));
  ASSERT_FALSE(s.sim().faulted()) << s.sim().fault();
  for (size_t i = 0; i < 128; ++i) EXPECT_EQ(out[i], i < 100 ? 1 : 0xAA) << i;
}

TEST(HvxMemory, StoringIntoAnInputIsAFault) {
  alignas(128) uint8_t in[128] = {};
  SimSession s;
  s.sim().map(in, sizeof in, false, "input 0");
  oprig_vmem_store(in, Q6_V_vzero());
  ASSERT_TRUE(s.sim().faulted());
  EXPECT_TRUE(has(s.sim().fault(), "byte 0 of input 0 (128 bytes at " + hex(in) + ", read-only)")) << s.sim().fault();
}

TEST(HvxMemory, TheKernelMapsItsOwnMemoryUnderItsName) {
  alignas(128) uint8_t table[128] = {};
  SimSession s;
  oprig_vmem_load(table);
  ASSERT_TRUE(s.sim().faulted());
  EXPECT_TRUE(has(s.sim().fault(), "nothing is mapped")) << s.sim().fault();
  SimSession again;
  oprig_dsp_map(table, sizeof table, "the lookup table");
  oprig_vmem_store(table, Q6_V_vzero());
  ASSERT_TRUE(again.sim().faulted());
  EXPECT_TRUE(has(again.sim().fault(), "of the lookup table")) << again.sim().fault();
}

TEST(HvxMemory, AnAlignedLoadIgnoresTheLowAddressBits) {
  alignas(128) uint8_t buffer[128];
  for (size_t i = 0; i < 128; ++i) buffer[i] = static_cast<uint8_t>(i);
  SimSession s;
  s.sim().map(buffer, sizeof buffer, false, "input 0");
  const HVX_Vector v = oprig_vmem_load(buffer + 77);
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(&v)[5], 5);
  EXPECT_EQ(s.sim().counters().unaligned_accesses, 0u);
}

}  // namespace
}  // namespace oprig::hvx
