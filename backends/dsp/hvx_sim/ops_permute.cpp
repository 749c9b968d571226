// The permute network: alignment and rotation, shuffles and deals (byte and
// halfword interleave/deinterleave, the in-place 2x2 transposes of
// vshuff/vdeal with a control word), the Benes networks vdelta/vrdelta, sign
// and zero extension, unpacking, and the table lookups vlut32 and vlut16.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "hvx_sim/lanes.hpp"
#include "hvx_sim/lanewise.hpp"

namespace oprig::hvx {
namespace {

constexpr size_t N = kVectorBytes;

// valign: byte i of the result is byte i + shift of the 256-byte Vu:Vv (Vv low).
void align(Operands& o, size_t shift) {
  for (size_t i = 0; i < N; ++i) o.d.bytes[i] = i + shift >= N ? o.a.bytes[i + shift - N] : o.b.bytes[i + shift];
}

}  // namespace

OPRIG_HVX_OP(Q6_V_valign_VVR) { align(o, static_cast<uint32_t>(o.r) & (N - 1)); }
OPRIG_HVX_OP(Q6_V_valign_VVI) { align(o, static_cast<uint32_t>(o.r) & 7); }
OPRIG_HVX_OP(Q6_V_vlalign_VVR) { align(o, N - (static_cast<uint32_t>(o.r) & (N - 1))); }
OPRIG_HVX_OP(Q6_V_vlalign_VVI) { align(o, N - (static_cast<uint32_t>(o.r) & 7)); }
OPRIG_HVX_OP(Q6_V_vror_VR) {
  for (size_t k = 0; k < N; ++k) o.d.bytes[k] = o.a.bytes[(k + static_cast<uint32_t>(o.r)) & (N - 1)];
}

// vshuff/vdeal(Vu, Vv, Rt): from Vv (low) and Vu (high), for each bit of Rt
// (ascending for shuff, descending for deal) swap the high vector's byte k
// with the low vector's byte k + bit, for every k without that bit.
OPRIG_HVX_OP(Q6_W_vshuff_VVR) {
  std::memcpy(o.d.bytes, o.b.bytes, N);
  std::memcpy(o.d.bytes + N, o.a.bytes, N);
  for (size_t offset = 1; offset < N; offset <<= 1)
    if ((static_cast<uint32_t>(o.r) & offset) != 0)
      for (size_t k = 0; k < N; ++k)
        if ((k & offset) == 0) std::swap(o.d.bytes[N + k], o.d.bytes[k + offset]);
}
OPRIG_HVX_OP(Q6_W_vdeal_VVR) {
  std::memcpy(o.d.bytes, o.b.bytes, N);
  std::memcpy(o.d.bytes + N, o.a.bytes, N);
  for (size_t offset = N >> 1; offset > 0; offset >>= 1)
    if ((static_cast<uint32_t>(o.r) & offset) != 0)
      for (size_t k = 0; k < N; ++k)
        if ((k & offset) == 0) std::swap(o.d.bytes[N + k], o.d.bytes[k + offset]);
}
// Deal: even elements to the first half, odd ones to the second.
OPRIG_HVX_OP(Q6_Vb_vdeal_Vb) {
  for (size_t i = 0; i < N / 2; ++i) {
    o.d.bytes[i] = o.a.bytes[2 * i];
    o.d.bytes[i + N / 2] = o.a.bytes[2 * i + 1];
  }
}
OPRIG_HVX_OP(Q6_Vh_vdeal_Vh) {
  for (size_t i = 0; i < N / 4; ++i) {
    o.d.set<uint16_t>(i, o.a.get<uint16_t>(2 * i));
    o.d.set<uint16_t>(i + N / 4, o.a.get<uint16_t>(2 * i + 1));
  }
}
// vdeale(Vu, Vv): bytes 0 and 2 of each word, Vv's then Vu's.
OPRIG_HVX_OP(Q6_Vb_vdeale_VbVb) {
  for (size_t i = 0; i < N / 4; ++i) {
    o.d.bytes[i] = o.b.bytes[4 * i];
    o.d.bytes[N / 4 + i] = o.b.bytes[4 * i + 2];
    o.d.bytes[N / 2 + i] = o.a.bytes[4 * i];
    o.d.bytes[3 * N / 4 + i] = o.a.bytes[4 * i + 2];
  }
}
// Shuffle: the inverse of deal, interleaving the two halves.
OPRIG_HVX_OP(Q6_Vb_vshuff_Vb) {
  for (size_t i = 0; i < N / 2; ++i) {
    o.d.bytes[2 * i] = o.a.bytes[i];
    o.d.bytes[2 * i + 1] = o.a.bytes[i + N / 2];
  }
}
OPRIG_HVX_OP(Q6_Vh_vshuff_Vh) {
  for (size_t i = 0; i < N / 4; ++i) {
    o.d.set<uint16_t>(2 * i, o.a.get<uint16_t>(i));
    o.d.set<uint16_t>(2 * i + 1, o.a.get<uint16_t>(i + N / 4));
  }
}
// vshuffe/vshuffo(Vu, Vv): the even (odd) elements of Vv and Vu, interleaved.
template <typename Lane>
void shuffle_eo(Operands& o, size_t odd, size_t dst_half = 0) {
  for (size_t i = 0; i < kLanes<Lane> / 2; ++i) {
    o.d.set<Lane>(dst_half, 2 * i, o.b.get<Lane>(2 * i + odd));
    o.d.set<Lane>(dst_half, 2 * i + 1, o.a.get<Lane>(2 * i + odd));
  }
}
OPRIG_HVX_OP(Q6_Vb_vshuffe_VbVb) { shuffle_eo<uint8_t>(o, 0); }
OPRIG_HVX_OP(Q6_Vb_vshuffo_VbVb) { shuffle_eo<uint8_t>(o, 1); }
OPRIG_HVX_OP(Q6_Vh_vshuffe_VhVh) { shuffle_eo<uint16_t>(o, 0); }
OPRIG_HVX_OP(Q6_Vh_vshuffo_VhVh) { shuffle_eo<uint16_t>(o, 1); }
OPRIG_HVX_OP(Q6_Wb_vshuffoe_VbVb) {
  shuffle_eo<uint8_t>(o, 0, 0);
  shuffle_eo<uint8_t>(o, 1, 1);
}
OPRIG_HVX_OP(Q6_Wh_vshuffoe_VhVh) {
  shuffle_eo<uint16_t>(o, 0, 0);
  shuffle_eo<uint16_t>(o, 1, 1);
}

// vsxt/vzxt: even lanes widened into the low vector, odd ones into the high.
template <typename Wide, typename Narrow>
void extend_even_odd(Operands& o) {
  for (size_t i = 0; i < kLanes<Wide>; ++i)
    for (size_t h = 0; h < 2; ++h) o.d.set<Wide>(h, i, static_cast<Wide>(o.a.get<Narrow>(2 * i + h)));
}
OPRIG_HVX_OP(Q6_Wh_vsxt_Vb) { extend_even_odd<int16_t, int8_t>(o); }
OPRIG_HVX_OP(Q6_Ww_vsxt_Vh) { extend_even_odd<int32_t, int16_t>(o); }
OPRIG_HVX_OP(Q6_Wuh_vzxt_Vub) { extend_even_odd<uint16_t, uint8_t>(o); }
OPRIG_HVX_OP(Q6_Wuw_vzxt_Vuh) { extend_even_odd<uint32_t, uint16_t>(o); }
// vunpack: in order, lane i of the source to lane i of the whole pair.
template <typename Wide, typename Narrow>
void unpack(Operands& o) {
  for (size_t i = 0; i < kLanes<Narrow>; ++i) o.d.set<Wide>(i, static_cast<Wide>(o.a.get<Narrow>(i)));
}
OPRIG_HVX_OP(Q6_Wh_vunpack_Vb) { unpack<int16_t, int8_t>(o); }
OPRIG_HVX_OP(Q6_Ww_vunpack_Vh) { unpack<int32_t, int16_t>(o); }
OPRIG_HVX_OP(Q6_Wuh_vunpack_Vub) { unpack<uint16_t, uint8_t>(o); }
OPRIG_HVX_OP(Q6_Wuw_vunpack_Vuh) { unpack<uint32_t, uint16_t>(o); }
// Vxx |= vunpacko(Vu): lane i of Vu into the upper half of the pair's lane i.
OPRIG_HVX_OP(Q6_Wh_vunpackoor_WhVb) {
  for (size_t i = 0; i < kLanes<uint8_t>; ++i)
    o.d.set<uint16_t>(i, static_cast<uint16_t>(o.a.get<uint16_t>(i) | (uint32_t{o.b.get<uint8_t>(i)} << 8)));
}
OPRIG_HVX_OP(Q6_Ww_vunpackoor_WwVh) {
  for (size_t i = 0; i < kLanes<uint16_t>; ++i)
    o.d.set<uint32_t>(i, o.a.get<uint32_t>(i) | (uint32_t{o.b.get<uint16_t>(i)} << 16));
}

// Benes networks: at each stage byte k takes byte k ^ offset where Vv's byte k has that bit.
namespace {
template <bool Forward>
void delta(Operands& o) {
  uint8_t tmp[N];
  std::memcpy(tmp, o.a.bytes, N);
  for (size_t step = 0; step < 7; ++step) {
    const size_t offset = Forward ? size_t{1} << step : N >> (step + 1);
    for (size_t k = 0; k < N; ++k) o.d.bytes[k] = (o.b.bytes[k] & offset) != 0 ? tmp[k ^ offset] : tmp[k];
    std::memcpy(tmp, o.d.bytes, N);
  }
}
}  // namespace
OPRIG_HVX_OP(Q6_V_vdelta_VV) { delta<false>(o); }
OPRIG_HVX_OP(Q6_V_vrdelta_VV) { delta<true>(o); }

// ---- table lookups ----
// vlut32(Vu, Vv, Rt): Rt selects one of eight 32-entry segments (bits 2..0);
// an index in that segment reads byte (Rt >> 1) & 1 of halfword index mod 64
// of the table vector Vv, any other index gives 0 (:nomatch: every index
// reads the segment, its low five bits picking the entry).
namespace {
uint8_t lut32(const Reg& table, uint8_t index, uint32_t control, bool nomatch, bool* hit) {
  const uint32_t segment = control & 7, odd = (control >> 1) & 1;
  *hit = nomatch || (index & 0xE0u) == segment << 5;
  const uint32_t idx = nomatch ? (index & 0x1Fu) | (segment << 5) : index;
  return *hit ? table.bytes[2 * (idx % 64) + odd] : 0;
}
int16_t lut16(const Reg& table, uint8_t index, uint32_t control, bool nomatch, bool* hit) {
  const uint32_t segment = control & 15, odd = (control >> 1) & 1;
  *hit = nomatch || (index & 0xF0u) == segment << 4;
  const uint32_t idx = nomatch ? (index & 0x0Fu) | (segment << 4) : index;
  return *hit ? table.get<int16_t>(2 * (idx % 32) + odd) : 0;
}
void vlut32(Operands& o, const Reg& index, const Reg& table, uint32_t control, bool nomatch, const Reg* acc) {
  for (size_t i = 0; i < N; ++i) {
    bool hit = false;
    const uint8_t v = lut32(table, index.bytes[i], control, nomatch, &hit);
    o.d.bytes[i] = static_cast<uint8_t>((acc != nullptr ? acc->bytes[i] : 0) | v);
  }
}
// vlut16: even index bytes to the low vector's halfwords, odd ones to the high vector's.
void vlut16(Operands& o, const Reg& index, const Reg& table, uint32_t control, bool nomatch, const Reg* acc) {
  for (size_t i = 0; i < kLanes<int16_t>; ++i)
    for (size_t h = 0; h < 2; ++h) {
      bool hit = false;
      const int16_t v = lut16(table, index.bytes[2 * i + h], control, nomatch, &hit);
      const uint16_t prior = acc != nullptr ? acc->get<uint16_t>(h, i) : 0;
      o.d.set<uint16_t>(h, i, static_cast<uint16_t>(prior | static_cast<uint16_t>(v)));
    }
}
}  // namespace
OPRIG_HVX_OP(Q6_Vb_vlut32_VbVbR) { vlut32(o, o.a, o.b, static_cast<uint32_t>(o.r), false, nullptr); }
OPRIG_HVX_OP(Q6_Vb_vlut32_VbVbI) { vlut32(o, o.a, o.b, static_cast<uint32_t>(o.r) & 7, false, nullptr); }
OPRIG_HVX_OP(Q6_Vb_vlut32_VbVbR_nomatch) { vlut32(o, o.a, o.b, static_cast<uint32_t>(o.r), true, nullptr); }
OPRIG_HVX_OP(Q6_Vb_vlut32or_VbVbVbR) { vlut32(o, o.b, o.c, static_cast<uint32_t>(o.r), false, &o.a); }
OPRIG_HVX_OP(Q6_Vb_vlut32or_VbVbVbI) { vlut32(o, o.b, o.c, static_cast<uint32_t>(o.r) & 7, false, &o.a); }
OPRIG_HVX_OP(Q6_Wh_vlut16_VbVhR) { vlut16(o, o.a, o.b, static_cast<uint32_t>(o.r), false, nullptr); }
OPRIG_HVX_OP(Q6_Wh_vlut16_VbVhI) { vlut16(o, o.a, o.b, static_cast<uint32_t>(o.r) & 7, false, nullptr); }
OPRIG_HVX_OP(Q6_Wh_vlut16_VbVhR_nomatch) { vlut16(o, o.a, o.b, static_cast<uint32_t>(o.r), true, nullptr); }
OPRIG_HVX_OP(Q6_Wh_vlut16or_WhVbVhR) { vlut16(o, o.b, o.c, static_cast<uint32_t>(o.r), false, &o.a); }
OPRIG_HVX_OP(Q6_Wh_vlut16or_WhVbVhI) { vlut16(o, o.b, o.c, static_cast<uint32_t>(o.r) & 7, false, &o.a); }

}  // namespace oprig::hvx
