// Instructions against values derived by hand from their documented meaning:
// the ones kernels lean on and whose layout is easy to get wrong (even/odd
// lanes of widening products, narrowing shifts, vlut32 tables, predicates as
// vectors), and the load/store helpers. The qemu-hexagon comparison
// (hvx_bitexact) checks every intrinsic against real HVX; these run wherever
// the unit tests run.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "sim_session.hpp"

namespace oprig::hvx {
namespace {

using testing::SimSession;

template <typename T, typename V>
T lane(const V& v, size_t i) {
  T x;
  std::memcpy(&x, reinterpret_cast<const uint8_t*>(&v) + i * sizeof(T), sizeof(T));
  return x;
}
template <typename T>
HVX_Vector lanes(T (*f)(size_t)) {
  HVX_Vector v;
  for (size_t i = 0; i < 128 / sizeof(T); ++i) {
    const T x = f(i);
    std::memcpy(reinterpret_cast<uint8_t*>(&v) + i * sizeof(T), &x, sizeof(T));
  }
  return v;
}

TEST(HvxSemantics, SaturatingByteAddAndSubtract) {
  SimSession s;
  const HVX_Vector a = Q6_Vb_vsplat_R(250), b = Q6_Vb_vsplat_R(10);
  EXPECT_EQ(lane<uint8_t>(Q6_Vub_vadd_VubVub_sat(a, b), 7), 255);
  EXPECT_EQ(lane<uint8_t>(Q6_Vub_vsub_VubVub_sat(b, a), 7), 0);
  EXPECT_EQ(lane<uint8_t>(Q6_Vb_vadd_VbVb(a, b), 7), 4);  // wraps: 260 mod 256
  const HVX_Vector m = Q6_Vb_vsplat_R(-100), p = Q6_Vb_vsplat_R(100);
  EXPECT_EQ(lane<int8_t>(Q6_Vb_vsub_VbVb_sat(m, p), 0), -128);
  EXPECT_EQ(lane<int8_t>(Q6_Vb_vsub_VbVb_sat(p, m), 0), 127);
}

TEST(HvxSemantics, WideningProductsSplitEvenAndOddLanes) {
  SimSession s;
  const HVX_Vector u = lanes<uint8_t>([](size_t i) { return static_cast<uint8_t>(i); });
  // Rt bytes 2, -3, 4, -5: lane i meets Rt byte i mod 4.
  const HVX_VectorPair p = Q6_Wh_vmpy_VubRb(u, static_cast<int>(0xFB04FD02u));
  const int coeff[4] = {2, -3, 4, -5};
  for (size_t i = 0; i < 64; ++i) {
    EXPECT_EQ(lane<int16_t>(Q6_V_lo_W(p), i), static_cast<int>(2 * i) * coeff[(2 * i) % 4]) << i;
    EXPECT_EQ(lane<int16_t>(Q6_V_hi_W(p), i), static_cast<int>(2 * i + 1) * coeff[(2 * i + 1) % 4]) << i;
  }
}

TEST(HvxSemantics, FourWayReductionSumsFourBytesPerWord) {
  SimSession s;
  const HVX_Vector u = lanes<uint8_t>([](size_t i) { return static_cast<uint8_t>(255 - i); });
  const HVX_Vector r = Q6_Vw_vrmpy_VubRb(u, static_cast<int>(0x80FF0201u));  // bytes 1, 2, -1, -128
  for (size_t w = 0; w < 32; ++w) {
    const int x0 = 255 - 4 * w, x1 = x0 - 1, x2 = x0 - 2, x3 = x0 - 3;
    EXPECT_EQ(lane<int32_t>(r, w), x0 * 1 + x1 * 2 - x2 - 128 * x3) << w;
  }
}

TEST(HvxSemantics, NarrowingShiftRoundsSaturatesAndInterleaves) {
  SimSession s;
  // Vu lanes 300 (-> 19 after >> 4 with rounding), Vv lanes -8 (-> -0.5 rounds up to 0).
  const HVX_Vector u = Q6_Vh_vsplat_R(300), v = Q6_Vh_vsplat_R(-8);
  const HVX_Vector r = Q6_Vub_vasr_VhVhR_rnd_sat(u, v, 4);
  for (size_t i = 0; i < 64; ++i) {
    EXPECT_EQ(lane<uint8_t>(r, 2 * i), 0) << i;       // even bytes from Vv
    EXPECT_EQ(lane<uint8_t>(r, 2 * i + 1), 19) << i;  // odd bytes from Vu: (300 + 8) >> 4
  }
  // Saturation: 5000 >> 4 = 312 -> 255 unsigned, 127 signed.
  const HVX_Vector big = Q6_Vh_vsplat_R(5000);
  EXPECT_EQ(lane<uint8_t>(Q6_Vub_vasr_VhVhR_sat(big, big, 4), 3), 255);
  EXPECT_EQ(lane<int8_t>(Q6_Vb_vasr_VhVhR_sat(big, big, 4), 3), 127);
}

TEST(HvxSemantics, PredicatesTravelAsFFBytesAndAnyNonZeroByteIsSet) {
  SimSession s;
  const HVX_VectorPred q = Q6_Q_vsetq_R(5);
  for (size_t i = 0; i < 128; ++i) EXPECT_EQ(lane<uint8_t>(q, i), i < 5 ? 0xFF : 0x00) << i;
  EXPECT_EQ(lane<uint8_t>(Q6_Q_vsetq_R(128), 0), 0x00);    // vsetq takes Rt mod 128
  EXPECT_EQ(lane<uint8_t>(Q6_Q_vsetq2_R(128), 127), 0xFF);  // vsetq2(128): all
  HVX_VectorPred odd = Q6_V_vzero();
  for (size_t i = 1; i < 128; i += 2) reinterpret_cast<uint8_t*>(&odd)[i] = static_cast<uint8_t>(i);
  const HVX_Vector r = Q6_V_vmux_QVV(odd, Q6_Vb_vsplat_R(1), Q6_Vb_vsplat_R(2));
  for (size_t i = 0; i < 128; ++i) EXPECT_EQ(lane<uint8_t>(r, i), i % 2 == 1 ? 1 : 2) << i;
  // A word compare sets all four bytes of each word.
  const HVX_Vector w = lanes<int32_t>([](size_t i) { return static_cast<int32_t>(i) - 16; });
  const HVX_VectorPred gt = Q6_Q_vcmp_gt_VwVw(w, Q6_V_vzero());
  for (size_t i = 0; i < 128; ++i) EXPECT_EQ(lane<uint8_t>(gt, i), i / 4 > 16 ? 0xFF : 0x00) << i;
}

TEST(HvxSemantics, Lut256ReadsTheTableItsLayoutPlaces) {
  alignas(128) uint8_t table[256];
  for (size_t e = 0; e < 256; ++e) table[oprig_dsp_lut256_position(e)] = static_cast<uint8_t>(e * 7 + 3);
  SimSession s;
  oprig_dsp_map(table, sizeof table, "table");
  const HVX_Vector low = oprig_vmem_load(table), high = oprig_vmem_load(table + 128);
  for (int half = 0; half < 2; ++half) {
    HVX_Vector x;
    for (size_t i = 0; i < 128; ++i) reinterpret_cast<uint8_t*>(&x)[i] = static_cast<uint8_t>(i + 128 * half);
    const HVX_Vector y = oprig_dsp_lut256(x, low, high);
    for (size_t i = 0; i < 128; ++i) ASSERT_EQ(lane<uint8_t>(y, i), static_cast<uint8_t>((i + 128 * half) * 7 + 3));
  }
  EXPECT_FALSE(s.sim().faulted());
}

TEST(HvxSemantics, StoreBytesWritesExactlyItsBytesAtEveryOffset) {
  alignas(128) uint8_t buffer[3 * 128];
  SimSession s;
  oprig_dsp_map_writable(buffer, sizeof buffer, "buffer");
  HVX_Vector v;
  for (size_t i = 0; i < 128; ++i) reinterpret_cast<uint8_t*>(&v)[i] = static_cast<uint8_t>(i + 1);
  for (size_t offset = 0; offset < 128; offset += 7)
    for (size_t n : {size_t{0}, size_t{1}, size_t{5}, size_t{64}, size_t{127}, size_t{128}, size_t{200}}) {
      std::memset(buffer, 0xEE, sizeof buffer);
      oprig_dsp_store_bytes(buffer + offset, n, v);
      const size_t stored = n < 128 ? n : 128;
      for (size_t i = 0; i < sizeof buffer; ++i) {
        const bool inside = i >= offset && i < offset + stored;
        ASSERT_EQ(buffer[i], inside ? static_cast<uint8_t>(i - offset + 1) : 0xEE)
            << "offset " << offset << " n " << n << " byte " << i;
      }
    }
  EXPECT_FALSE(s.sim().faulted());
}

TEST(HvxSemantics, LoadBytesNeverTouchesALineBeyondTheBuffer) {
  alignas(128) uint8_t buffer[2 * 128];
  for (size_t i = 0; i < sizeof buffer; ++i) buffer[i] = static_cast<uint8_t>(i);
  for (size_t offset = 0; offset < 128; offset += 9)
    for (size_t n = 1; n + offset <= 128; n += 13) {
      // Only [offset, offset + n) is mapped, all inside the first line: a
      // load running into the second line would fault.
      SimSession s;
      oprig_dsp_map(buffer + offset, n, "buffer");
      const HVX_Vector v = oprig_dsp_load_bytes(buffer + offset, n);
      ASSERT_FALSE(s.sim().faulted()) << s.sim().fault();
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(lane<uint8_t>(v, i), static_cast<uint8_t>(offset + i));
    }
}

TEST(HvxSemantics, IntrinsicsOutsideABindingComputeButReportNothing) {
  oprig_backend_context ctx{};
  ctx.struct_size = sizeof ctx;
  ctx.dsp = &api();
  EXPECT_EQ(oprig_dsp_begin(&ctx), OPRIG_STATUS_BACKEND_ERROR);  // no simulator bound here
  const HVX_Vector r = Q6_Vub_vadd_VubVub_sat(Q6_Vb_vsplat_R(200), Q6_Vb_vsplat_R(100));
  EXPECT_EQ(lane<uint8_t>(r, 0), 255);
}

TEST(HvxSemantics, AnUnknownOpcodeIsAFault) {
  SimSession s;
  HVX_Vector d = Q6_V_vzero();
  api().exec(OPRIG_DSP_NUM_OPCODES + 3, &d, nullptr, nullptr, nullptr, 0, 0);
  ASSERT_TRUE(s.sim().faulted());
  EXPECT_NE(s.sim().fault().find("unknown to this simulator"), std::string::npos) << s.sim().fault();
  EXPECT_NE(s.sim().fault().find("newer oprig_dsp.h"), std::string::npos);
}

}  // namespace
}  // namespace oprig::hvx
