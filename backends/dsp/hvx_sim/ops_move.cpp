// Register moves, splats, insert and extract.
#include <cstring>

#include "hvx_sim/instruction.hpp"
#include "hvx_sim/lanes.hpp"

namespace oprig::hvx {

OPRIG_HVX_OP(Q6_V_equals_V) { std::memcpy(o.d.bytes, o.a.bytes, kVectorBytes); }
OPRIG_HVX_OP(Q6_W_equals_W) { std::memcpy(o.d.bytes, o.a.bytes, 2 * kVectorBytes); }
OPRIG_HVX_OP(Q6_V_hi_W) { std::memcpy(o.d.bytes, o.a.bytes + kVectorBytes, kVectorBytes); }
OPRIG_HVX_OP(Q6_V_lo_W) { std::memcpy(o.d.bytes, o.a.bytes, kVectorBytes); }
// vcombine(Vu, Vv): Vv is the low vector, Vu the high one.
OPRIG_HVX_OP(Q6_W_vcombine_VV) {
  std::memcpy(o.d.bytes, o.b.bytes, kVectorBytes);
  std::memcpy(o.d.bytes + kVectorBytes, o.a.bytes, kVectorBytes);
}
// The word holding byte Rs (mod 128).
OPRIG_HVX_OP(Q6_R_vextract_VR) { o.d.set<uint32_t>(0, o.a.get<uint32_t>((static_cast<uint32_t>(o.r) & 127) >> 2)); }
OPRIG_HVX_OP(Q6_Vw_vinsert_VwR) {
  std::memcpy(o.d.bytes, o.a.bytes, kVectorBytes);
  o.d.set<int32_t>(0, o.r);
}
OPRIG_HVX_OP(Q6_V_vsplat_R) {
  for (size_t i = 0; i < kLanes<int32_t>; ++i) o.d.set<int32_t>(i, o.r);
}
OPRIG_HVX_OP(Q6_Vb_vsplat_R) { std::memset(o.d.bytes, lanes::ubyte(o.r, 0), kVectorBytes); }
OPRIG_HVX_OP(Q6_Vh_vsplat_R) {
  for (size_t i = 0; i < kLanes<uint16_t>; ++i) o.d.set<uint16_t>(i, lanes::uhalf(o.r, 0));
}
OPRIG_HVX_OP(Q6_V_vzero) { std::memset(o.d.bytes, 0, kVectorBytes); }
OPRIG_HVX_OP(Q6_W_vzero) { std::memset(o.d.bytes, 0, 2 * kVectorBytes); }

}  // namespace oprig::hvx
