// Selection along an axis of UINT_8 codes on the dsp backend, shared by
// opsuite/argmax/dsp.cpp (one greatest element per line) and
// opsuite/top_k/dsp.cpp (the k greatest or smallest, by repeated extraction).
// Header-only HVX code through oprig_dsp.h: it compiles in the dsp library
// only.
//
// Every code is ranked by a 32-bit key that orders the elements exactly as
// the ops rank them, so that "the greatest key" is the answer with every tie
// already broken: the top byte is the code (bitwise-not of it for the
// smallest first), biased by 0x80 so that a signed word compare (vcmp.gt,
// vmax) orders it; the low 24 bits are the index, arranged so that the
// preferred one of equal codes is greater (0xFFFFFF - index: the first index
// wins; index + 1: the last). Keys of one line are distinct and never
// INT32_MIN, which marks "no element".
//
// Keys are not made per element: the walk (PlainWalk below) keeps per lane
// the greatest halfword code << 8 | f, f the vector's place in a superblock
// of 255, and turns the lanes into keys once per superblock. Two walks over
// a line's elements:
//  - rows (the axis is the last one: a line is contiguous): 128 elements per
//    vector load; the lane-wise maxima end in a horizontal reduction (vmax of
//    the four word vectors, then vror by 64, 32, ..., 4 bytes with vmax),
//    which leaves the line's greatest key in every lane;
//  - columns (an inner axis: the elements of a line lie `stride` bytes
//    apart): the lanes are up to 128 neighbouring lines, one load per
//    position along the axis, the lane-wise maxima are the answers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "oprig/oprig_dsp.h"

namespace oprig::opsuite::dsp_reduce {

// The index field holds index + 1 (last-index rule) in 24 bits, and TopK's
// in-order pass shifts 0xFFFFFF - index left by 8: lines of at most 2^23 - 2.
constexpr size_t kMaxLine = (size_t{1} << 23) - 2;
constexpr int32_t kIndexMask = 0xFFFFFF;

struct KeyRule {
  bool smallest = false;     // TopK largest = false: the bitwise-not of the code ranks
  bool prefer_last = false;  // ArgMax select_last_index: the last of equal codes wins

  // What the top byte of a key is XORed with: the bias 0x80, and 0xFF more for smallest.
  int32_t top_xor() const { return smallest ? 0x7F : 0x80; }
  int32_t index_field(size_t index) const {
    return prefer_last ? static_cast<int32_t>(index + 1) : kIndexMask - static_cast<int32_t>(index);
  }
  // The base of a key of the element at `index`: the code shifted to the top byte XOR this.
  int32_t base(size_t index) const {
    return static_cast<int32_t>(static_cast<uint32_t>(top_xor()) << 24) | index_field(index);
  }
  // The change of base per index step.
  int32_t step() const { return prefer_last ? 1 : -1; }
};

// Vector constants made once per execute (vsplat is an instruction).
struct Constants {
  HVX_Vector none, index_mask, one, top_xor;
  explicit Constants(const KeyRule& rule)
      : none(Q6_V_vsplat_R(INT32_MIN)),
        index_mask(Q6_V_vsplat_R(kIndexMask)),
        one(Q6_V_vsplat_R(1)),
        top_xor(Q6_V_vsplat_R(rule.top_xor())) {}
};

// The bases of the first 128 elements of a row, lane l of vector j for
// element 32 j + l: filled on the host at prepare (a table, like Atan's),
// mapped and loaded at execute.
struct alignas(OPRIG_DSP_VECTOR_BYTES) RowBases {
  int32_t lanes[4][32];
  void fill(const KeyRule& rule) {
    for (size_t j = 0; j < 4; ++j)
      for (size_t l = 0; l < 32; ++l) lanes[j][l] = rule.base(32 * j + l);
  }
  // Inside the dsp program: the four vectors row_max_plain takes, from this
  // kernel memory mapped for the simulator under `name`.
  void load(const char* name, HVX_Vector out[4]) const {
    oprig_dsp_map(this, sizeof *this, name);
    for (size_t j = 0; j < 4; ++j) out[j] = oprig_vmem_load(lanes[j]);
  }
};

// The code and the index a key holds, per word.
inline HVX_Vector code_of(HVX_Vector key, const Constants& c) {
  return Q6_V_vxor_VV(Q6_Vuw_vlsr_VuwR(key, 24), c.top_xor);
}
inline HVX_Vector index_of(HVX_Vector key, const KeyRule& rule, const Constants& c) {
  const HVX_Vector field = Q6_V_vand_VV(key, c.index_mask);
  return rule.prefer_last ? Q6_Vw_vsub_VwVw(field, c.one) : Q6_V_vxor_VV(field, c.index_mask);
}

// The greatest word of four vectors, in every lane.
inline HVX_Vector horizontal_max(const HVX_Vector m[4]) {
  HVX_Vector v = Q6_Vw_vmax_VwVw(Q6_Vw_vmax_VwVw(m[0], m[1]), Q6_Vw_vmax_VwVw(m[2], m[3]));
  for (int bytes = 64; bytes >= 4; bytes /= 2) v = Q6_Vw_vmax_VwVw(v, Q6_V_vror_VR(v, bytes));
  return v;
}

// ---- The walk ------------------------------------------------------------------------------------
// Per 128
// codes one vshuff interleaves them with a "field" byte f into 64 + 64
// halfwords (code << 8 | f) and two unsigned vmax keep each lane's best, so
// a vector costs 1 load, 1 vshuff and 2-3 ALU operations (cost_model.md).
// f encodes the vector's position within a "superblock" of up to 255
// vectors (rows: of 128 codes; columns: positions along the axis): 255 - c
// for the first-index rule, c + 1 for the last, so the preferred of equal
// codes in one lane has the greater halfword and 0 means "no element". After
// each superblock the lanes' halfwords become word keys (the same keys as
// above: the code in the top byte, the element's index field below) and
// join a word maximum.
constexpr size_t kSuperblock = 255;

struct PlainWalk {
  KeyRule rule;
  const Constants* c;
  HVX_Vector zero, low_byte, field_step, code_flip;
  size_t scale;  // elements per vector step: 128 (rows) or 1 (columns)
  int scale_log2;
  PlainWalk(const KeyRule& r, const Constants& constants, size_t elements_per_step)
      : rule(r),
        c(&constants),
        zero(Q6_V_vzero()),
        low_byte(Q6_V_vsplat_R(0xFF)),
        field_step(Q6_Vb_vsplat_R(r.prefer_last ? 1 : -1)),
        code_flip(Q6_Vb_vsplat_R(r.smallest ? 0xFF : 0)),
        scale(elements_per_step),
        scale_log2(elements_per_step == 1 ? 0 : 7) {}

  HVX_Vector first_field() const { return Q6_Vb_vsplat_R(rule.prefer_last ? 1 : 255); }

  // One vector of codes into the halfword maxima h (valid: codes in it, 128
  // for all). bound: nullptr, or the greatest halfword each lane may take
  // (TopK's passes after the first; see top_k/dsp.cpp).
  void add(HVX_Vector codes, HVX_Vector& field, size_t valid, const HVX_Vector* bound, HVX_Vector h[2]) const {
    if (rule.smallest) codes = Q6_V_vxor_VV(codes, code_flip);
    const HVX_VectorPair pair = Q6_W_vshuff_VVR(codes, field, -1);
    HVX_Vector lo = Q6_V_lo_W(pair), hi = Q6_V_hi_W(pair);
    if (valid < 64) lo = Q6_V_vmux_QVV(Q6_Q_vsetq_R(static_cast<int>(2 * valid)), lo, zero);
    if (bound != nullptr) lo = Q6_V_vmux_QVV(Q6_Q_vcmp_gt_VuhVuh(lo, bound[0]), zero, lo);
    h[0] = Q6_Vuh_vmax_VuhVuh(h[0], lo);
    if (valid > 64) {
      if (valid < 128) hi = Q6_V_vmux_QVV(Q6_Q_vsetq_R(static_cast<int>(2 * (valid - 64))), hi, zero);
      if (bound != nullptr) hi = Q6_V_vmux_QVV(Q6_Q_vcmp_gt_VuhVuh(hi, bound[1]), zero, hi);
      h[1] = Q6_Vuh_vmax_VuhVuh(h[1], hi);
    }
    field = Q6_Vb_vadd_VbVb(field, field_step);
  }

  // The superblock starting at vector step `start` into the word maxima m:
  // lane_base[j] holds rule.base(position of lane) of word vector j.
  void merge(const HVX_Vector h[2], const HVX_Vector lane_base[4], size_t start, HVX_Vector m[4]) const {
    // key = (code << 24) + base(lane) + step * (start + c) * scale, c the vector's place in
    // the superblock: c = f - 1 (last rule, step +1), 255 - f (first, step -1); both are
    // offset + f * scale. A flipped code (smallest) needs the top byte's bias 0x80, not
    // base's 0x7F: one more in the top byte.
    const int64_t offset = rule.step() * static_cast<int64_t>(start * scale) -
                           (rule.prefer_last ? 1 : 255) * static_cast<int64_t>(scale) +
                           (rule.smallest ? int64_t{1} << 24 : 0);
    const HVX_Vector offset_v = Q6_V_vsplat_R(static_cast<int32_t>(offset));
    for (size_t i = 0; i < 2; ++i) {
      const HVX_VectorPair words = Q6_Wuw_vunpack_Vuh(h[i]);
      const HVX_Vector w[2] = {Q6_V_lo_W(words), Q6_V_hi_W(words)};
      for (size_t half = 0; half < 2; ++half) {
        const size_t j = 2 * i + half;
        const HVX_Vector code_part = Q6_Vw_vasl_VwR(Q6_Vuw_vlsr_VuwR(w[half], 8), 24);
        const HVX_Vector field_part = Q6_Vw_vasl_VwR(Q6_V_vand_VV(w[half], low_byte), scale_log2);
        HVX_Vector key = Q6_Vw_vadd_VwVw(Q6_Vw_vadd_VwVw(code_part, lane_base[j]), Q6_Vw_vadd_VwVw(offset_v, field_part));
        key = Q6_V_vmux_QVV(Q6_Q_vcmp_eq_VwVw(w[half], zero), c->none, key);
        m[j] = Q6_Vw_vmax_VwVw(m[j], key);
      }
    }
  }
};

// No bound: every element takes part (ArgMax). A bound is called per
// superblock with its first vector step and fills the halfword bounds.
struct NoBound {
  const HVX_Vector* operator()(size_t, HVX_Vector*) const { return nullptr; }
};

// The greatest key of a row of n >= 1 codes, in every lane. bases: RowBases' vectors.
template <class Bound = NoBound>
inline HVX_Vector row_max_plain(const uint8_t* row, size_t n, const HVX_Vector bases[4], const PlainWalk& walk,
                                const Bound& bound = {}) {
  HVX_Vector m[4] = {walk.c->none, walk.c->none, walk.c->none, walk.c->none};
  const size_t vectors = (n + OPRIG_DSP_VECTOR_BYTES - 1) / OPRIG_DSP_VECTOR_BYTES;
  for (size_t start = 0; start < vectors; start += kSuperblock) {
    HVX_Vector h[2] = {walk.zero, walk.zero};
    HVX_Vector field = walk.first_field(), bounds[2];
    const HVX_Vector* b = bound(start, bounds);
    for (size_t v = start; v < std::min(vectors, start + kSuperblock); ++v) {
      const size_t valid = std::min<size_t>(n - v * OPRIG_DSP_VECTOR_BYTES, OPRIG_DSP_VECTOR_BYTES);
      walk.add(oprig_dsp_load_bytes(row + v * OPRIG_DSP_VECTOR_BYTES, valid), field, valid, b, h);
    }
    walk.merge(h, bases, start, m);
  }
  return horizontal_max(m);
}

// The greatest key of each of `width` (1..128) neighbouring lines of n codes,
// line l's element j at p + j * stride + l: m[v] holds lines 32 v .. 32 v + 31
// (lanes past width are unspecified). base: splat of rule.base(0).
template <class Bound = NoBound>
inline void column_max_plain(const uint8_t* p, size_t n, size_t stride, size_t width, HVX_Vector base,
                             const PlainWalk& walk, HVX_Vector m[4], const Bound& bound = {}) {
  for (size_t j = 0; j < 4; ++j) m[j] = walk.c->none;
  const HVX_Vector bases[4] = {base, base, base, base};
  for (size_t start = 0; start < n; start += kSuperblock) {
    HVX_Vector h[2] = {walk.zero, walk.zero};
    HVX_Vector field = walk.first_field(), bounds[2];
    const HVX_Vector* b = bound(start, bounds);
    for (size_t r = start; r < std::min(n, start + kSuperblock); ++r)
      walk.add(oprig_dsp_load_bytes(p + r * stride, width), field, OPRIG_DSP_VECTOR_BYTES, b, h);
    walk.merge(h, bases, start, m);
  }
}

}  // namespace oprig::opsuite::dsp_reduce
