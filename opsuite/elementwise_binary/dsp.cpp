// ElementwiseBinary on the dsp backend: every operation, fused activation,
// integer_division and broadcast the spec declares for DSP (INT_32 and
// UINT_8), as HVX code on the simulator through oprig_dsp.h.
//
// Broadcasting: the broadcast plan (common/broadcast.hpp) merges the shapes
// into rows of one inner dimension in which each input steps by 1 (streamed
// vector by vector) or 0 (its one value loaded into a scalar register and
// splatted); an outer loop runs one row program per row, the output rows
// being contiguous. Partial vectors are stored with masked stores.
//
// INT_32 (32 lanes per vector): ADD, SUB (wrap-around), MUL (low 32 bits:
// vmpyieo + vmpyie), MAX, MIN in one or two instructions. DIV has no vector
// divide on HVX: restoring long division of |a| by |b|, 32 steps of 6
// instructions (shift a bit of the dividend into the remainder, compare,
// conditional subtract, the quotient bit into the freed bit), then the sign, and for integer_division FLOOR one less
// where the signs differ and the remainder is not 0; x / 0 gives 0. POW: repeated squaring
// over the 31 exponent bits (two low-32-bit multiplies and a select a bit);
// a negative exponent gives the truncated 1 / base^-e (1, +-1 or 0).
// A fused activation clamps with vmax / vmin against splatted bounds.
//
// UINT_8 (128 codes per vector):
// - ADD, SUB, MUL: NNAPI's quantised arithmetic (quant.hpp), the vector code
//   shared with org.oprig.builtins (common/dsp_quant_arith.hpp).
// - MAX, MIN: each input requantised to the output's codes, then the larger
//   / smaller, clamped to the activation's bounds quantised the same way.
//   Quantising is monotonic, so the code of the max is the max of the codes:
//   exact (0 LSB). The requantisation is a 256-entry table built at prepare
//   in fp64 (common/dsp_requantize.hpp's CodeTable, vlut32: 8 permutes per
//   128 codes). Inputs quantised unlike each other instead run one affine
//   map each into halfwords (common/dsp_linear_requantize.hpp: vzxt,
//   vmpyacc, vshuffo), compared there and narrowed once, where prepare found
//   the map gives the table's code for all 256 codes of both inputs (the
//   tables elsewhere: ratios above about 128). Inputs quantised alike share
//   one table, looked up once after the compare, and an input quantised as
//   the output needs none.
// - DIV, POW: the result depends only on the two codes, so prepare() builds a
//   65536-entry table of output codes in fp64 (the reference's own rule:
//   dequantise, divide or pow, activation, round half away from zero, clamp;
//   NaN gives the zero point). Each execute copies it to VTCM (vector loads
//   and stores) and looks it up with HVX's halfword gathers: the byte offsets
//   a << 8 | b formed as halfwords in vector code (vshuff), two gathers of 64
//   per 128 codes, the gathered lines' low bytes packed back in element order
//   (vpacke).
// Costs per element: backends/dsp/cost_model.md, "ElementwiseBinary".
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <vector>

#include "common/broadcast.hpp"
#include "common/dsp_linear_requantize.hpp"
#include "common/dsp_quant_arith.hpp"
#include "common/dsp_requantize.hpp"
#include "common/dsp_kernel.hpp"
#include "common/kernel.hpp"
#include "common/quant.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

extern const KernelOps oprig_elementwise_binary__dsp;

namespace {

enum Op { kAdd, kSub, kMul, kDiv, kMax, kMin, kPow };
constexpr size_t kVector = OPRIG_DSP_VECTOR_BYTES;
constexpr size_t kTableEntries = 256 * 256;

// UINT_8 DIV, POW: the output code of every pair of codes, at an address
// vector loads can take whole lines from.
struct alignas(kVector) DivPowTable {
  uint8_t codes[kTableEntries];
};
// What the program puts in VTCM: the table, and the two lines its gathers
// store to.
struct alignas(kVector) DivPowVtcm {
  uint8_t codes[kTableEntries];
  HVX_Vector gathered[2];
};

struct BinaryDsp : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  int op = kAdd;
  int act = 0;  // fused_activation: NONE, RELU, RELU1, RELU6
  bool floor_division = false;
  bool prepared = false;
  bool quantised = false;  // UINT_8
  BroadcastPlan plan;
  quant::ArithmeticParams arith;                  // UINT_8 ADD, SUB, MUL
  QuantAddFastPlan add_fast;                      // UINT_8 ADD, SUB where the fast program is exact
  dsp::CodeTable to_out_a, to_out_b;                   // UINT_8 MAX, MIN: input code -> output code
  bool a_is_output_code = false, b_is_output_code = false;  // UINT_8 MAX, MIN: that table is the identity
  bool shared_table = false;                      // UINT_8 MAX, MIN: the inputs are quantised alike
  dsp::LinearRequantizePair linear;               // UINT_8 MAX, MIN: the tables as affine maps, where exact
  uint8_t lo = 0, hi = 255;                       // UINT_8 MAX, MIN: the activation's bounds in codes
  std::unique_ptr<DivPowTable> table;  // UINT_8 DIV, POW: the output code of (a << 8 | b)
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  return create_dsp_kernel<BinaryDsp>(ctx, &oprig_elementwise_binary__dsp, out_kernel, [&](BinaryDsp& k) {
    const std::optional<int> op =
        enum_param(params, num_params, "operation", {"ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "POW"});
    const std::optional<int> act =
        enum_param(params, num_params, "fused_activation", {"NONE", "RELU", "RELU1", "RELU6"});
    const std::optional<int> division = enum_param(params, num_params, "integer_division", {"TRUNCATE", "FLOOR"});
    if (!op || *op < 0 || (act && *act < 0) || (division && *division < 0)) return OPRIG_STATUS_INVALID_ARGUMENT;
    k.op = *op;
    k.act = act.value_or(0);
    k.floor_division = division.value_or(0) == 1;
    return OPRIG_STATUS_OK;
  });
}

double activate(int act, double r) {
  const auto clamp = [r](double lo, double hi) {
    const double low = r < lo ? lo : r;
    return hi < low ? hi : low;
  };
  switch (act) {
    case 1: return clamp(0.0, std::numeric_limits<double>::infinity());
    case 2: return clamp(-1.0, 1.0);
    case 3: return clamp(0.0, 6.0);
    default: return r;
  }
}

// DIV and POW of every pair of codes, in fp64 as the reference computes them.
void build_table(BinaryDsp& k, const oprig_tensor& a, const oprig_tensor& b, const oprig_tensor& y) {
  k.table = std::make_unique<DivPowTable>();
  for (int qa = 0; qa < 256; ++qa)
    for (int qb = 0; qb < 256; ++qb) {
      const double ra = static_cast<double>(a.scale) * (qa - a.zero_point);
      const double rb = static_cast<double>(b.scale) * (qb - b.zero_point);
      const double r = activate(k.act, k.op == kDiv ? ra / rb : std::pow(ra, rb));
      double code = y.zero_point;
      if (!std::isnan(r)) code = std::clamp(std::round(r / static_cast<double>(y.scale)) + y.zero_point, 0.0, 255.0);
      k.table->codes[static_cast<size_t>(qa) << 8 | static_cast<size_t>(qb)] = static_cast<uint8_t>(code);
    }
}

// A requantisation table that maps every code to itself (the input is
// quantised as the output): its lookups can be left out.
bool is_identity(const dsp::CodeTable& t) {
  for (size_t q = 0; q < 256; ++q)
    if (t.entries[oprig_dsp_lut256_position(q)] != q) return false;
  return true;
}

// UINT_8 parameters; false when the scales are outside what the rule handles.
bool prepare_quantised(BinaryDsp& k, const oprig_tensor& a, const oprig_tensor& b, const oprig_tensor& y) {
  if (!(a.scale > 0 && b.scale > 0 && y.scale > 0)) return false;
  switch (k.op) {
    case kAdd:
    case kSub:
    case kMul:
      if (!quant::arithmetic_params(static_cast<uint32_t>(k.op), a.scale, a.zero_point, b.scale, b.zero_point,
                                    y.scale, y.zero_point, static_cast<uint32_t>(k.act), false, &k.arith))
        return false;
      k.add_fast = k.op == kMul ? QuantAddFastPlan{} : plan_dsp_quant_add_fast(k.arith, false);
      return true;
    case kMax:
    case kMin: {
      k.to_out_a.build_requantize(a.scale, a.zero_point, y.scale, y.zero_point);
      k.to_out_b.build_requantize(b.scale, b.zero_point, y.scale, y.zero_point);
      k.a_is_output_code = is_identity(k.to_out_a);
      k.b_is_output_code = is_identity(k.to_out_b);
      k.shared_table = !k.a_is_output_code && k.to_out_a.entries == k.to_out_b.entries;
      // Unlike inputs: affine maps where exact. Alike ones keep their one
      // table after the compare (8 permutes, 0.0625 simulated cycles per
      // element; the affine map would reach the traffic bound, 0.047, but
      // the simulator's host takes 1.5x as long: vlut32 is its fastest).
      k.linear = {};
      if (!k.shared_table && !(k.a_is_output_code && k.b_is_output_code)) {
        const dsp::LinearRequantizeInput in_a{&k.to_out_a, a.scale, a.zero_point};
        const dsp::LinearRequantizeInput in_b{&k.to_out_b, b.scale, b.zero_point};
        k.linear = dsp::plan_linear_requantize_pair(in_a, &in_b, y.scale, y.zero_point);
      }
      const double low = activate(k.act, -std::numeric_limits<double>::infinity());
      const double high = activate(k.act, std::numeric_limits<double>::infinity());
      k.lo = std::isfinite(low) ? dsp::quantize_u8(low, y.scale, y.zero_point) : 0;
      k.hi = std::isfinite(high) ? dsp::quantize_u8(high, y.scale, y.zero_point) : 255;
      return true;
    }
    default: build_table(k, a, b, y); return true;
  }
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<BinaryDsp>(handle);
  k->prepared = false;
  const uint32_t dtype = inputs[0].dtype;
  if (dtype != OPRIG_DTYPE_INT_32 && dtype != OPRIG_DTYPE_UINT_8) return OPRIG_STATUS_UNSUPPORTED;
  if (inputs[1].dtype != dtype || outputs[0].dtype != dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  k->quantised = dtype == OPRIG_DTYPE_UINT_8;
  const bool scaled = inputs[0].scale != 0 || inputs[1].scale != 0 || outputs[0].scale != 0;
  if (scaled != k->quantised) return OPRIG_STATUS_UNSUPPORTED;  // INT_32 codes, or UINT_8 without a scale
  if (!plan_broadcast(inputs[0], inputs[1], &k->plan)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->quantised && !prepare_quantised(*k, inputs[0], inputs[1], outputs[0])) return OPRIG_STATUS_UNSUPPORTED;
  outputs[0].rank = k->plan.rank;
  std::copy(k->plan.out_dims, k->plan.out_dims + OPRIG_MAX_RANK, outputs[0].dims);
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

// The vectors a program uses, splatted once per execute.
struct Constants {
  HVX_Vector zero, one, minus_one, lo, hi;
};

// One input in a row: streamed from base, or one value splatted.
struct RowInput {
  const uint8_t* base;
  bool repeats;
  HVX_Vector splat;
  HVX_Vector at(size_t offset, size_t bytes) const {
    return repeats ? splat : oprig_dsp_load_bytes(base + offset, bytes - offset);
  }
};

RowInput row_input(const uint8_t* base, bool repeats, size_t element) {
  RowInput in{base, repeats, HVX_Vector{}};
  if (repeats) {  // a scalar load, then a splat
    if (element == 4) {
      int32_t value = 0;
      std::memcpy(&value, base, sizeof value);
      in.splat = Q6_V_vsplat_R(value);
    } else {
      in.splat = Q6_Vb_vsplat_R(base[0]);
    }
  }
  return in;
}

// Truncating (or flooring) a / b per word by restoring long division.
HVX_Vector divide_w(HVX_Vector a, HVX_Vector b, bool floor_division, const Constants& c) {
  // The dividend's bits leave n at the top as the quotient's bits enter at
  // the bottom: after 32 steps n is the quotient. Doubling with vadd keeps
  // the shifter (one per cycle) for the two shifts a step needs.
  HVX_Vector n = Q6_Vw_vabs_Vw(a);  // INT32_MIN stays 2^31 as an unsigned word
  const HVX_Vector d = Q6_Vw_vabs_Vw(b);
  HVX_Vector r = c.zero;
  for (int step = 0; step < 32; ++step) {
    r = Q6_Vw_vaslacc_VwVwR(Q6_Vuw_vlsr_VuwR(n, 31), r, 1);  // (r << 1) | next bit of n; r < 2^32
    n = Q6_Vw_vadd_VwVw(n, n);
    const HVX_VectorPred below = Q6_Q_vcmp_gt_VuwVuw(d, r);
    r = Q6_Vw_condnac_QnVwVw(below, r, d);
    n = Q6_Vw_condacc_QnVwVw(below, n, c.one);
  }
  HVX_Vector q = n;
  const HVX_VectorPred negative = Q6_Q_vcmp_gt_VwVw(c.zero, Q6_V_vxor_VV(a, b));
  q = Q6_V_vmux_QVV(negative, Q6_Vw_vsub_VwVw(c.zero, q), q);  // INT32_MIN / -1 wraps
  if (floor_division) {
    const HVX_Vector inexact = Q6_V_vmux_QVV(Q6_Q_vcmp_eq_VwVw(r, c.zero), c.zero, c.one);
    q = Q6_Vw_vsub_VwVw(q, Q6_V_vmux_QVV(negative, inexact, c.zero));
  }
  // x / 0 is outside the spec; 0 as the cpu kernel and NNAPI's reference give.
  return Q6_V_vmux_QVV(Q6_Q_vcmp_eq_VwVw(b, c.zero), c.zero, q);
}

// base^e per word by repeated squaring (wrapping like int32 multiplies),
// over as many exponent bits as the largest exponent of the 32 lanes has: a
// vror/vmax reduction and one vextract give the scalar core the loop count
// (the bench's exponents in [-4, 4] need 3 squarings, not 31). A negative
// exponent counts as 0 there: its result is decided after the loop.
HVX_Vector power_w(HVX_Vector base, HVX_Vector e, const Constants& c) {
  HVX_Vector top = Q6_Vw_vmax_VwVw(e, c.zero);
  for (int shift = OPRIG_DSP_VECTOR_BYTES / 2; shift >= 4; shift /= 2)
    top = Q6_Vw_vmax_VwVw(top, Q6_V_vror_VR(top, shift));
  const auto largest = static_cast<uint32_t>(Q6_R_vextract_VR(top, 0));
  const int bits = largest == 0 ? 0 : 32 - __builtin_clz(largest);
  HVX_Vector result = c.one, square = base, rest = e;
  for (int bit = 0; bit < bits; ++bit) {
    const HVX_VectorPred odd = Q6_Q_vcmp_eq_VwVw(Q6_V_vand_VV(rest, c.one), c.one);
    result = Q6_V_vmux_QVV(odd, oprig_dsp_mul_lo_w(result, square), result);
    if (bit + 1 == bits) break;
    square = oprig_dsp_mul_lo_w(square, square);
    rest = Q6_Vuw_vlsr_VuwR(rest, 1);
  }
  // e < 0: the truncated 1 / base^-e: 1 for base 1, -1 or 1 for base -1, else 0.
  const HVX_VectorPred odd_e = Q6_Q_vcmp_eq_VwVw(Q6_V_vand_VV(e, c.one), c.one);
  const HVX_Vector of_minus_one = Q6_V_vmux_QVV(odd_e, c.minus_one, c.one);
  const HVX_Vector small = Q6_V_vmux_QVV(Q6_Q_vcmp_eq_VwVw(base, c.one), c.one,
                                         Q6_V_vmux_QVV(Q6_Q_vcmp_eq_VwVw(base, c.minus_one), of_minus_one, c.zero));
  return Q6_V_vmux_QVV(Q6_Q_vcmp_gt_VwVw(c.zero, e), small, result);
}

HVX_Vector apply_w(const BinaryDsp& k, HVX_Vector a, HVX_Vector b, const Constants& c) {
  switch (k.op) {
    case kAdd: return Q6_Vw_vadd_VwVw(a, b);
    case kSub: return Q6_Vw_vsub_VwVw(a, b);
    case kMul: return oprig_dsp_mul_lo_w(a, b);
    case kDiv: return divide_w(a, b, k.floor_division, c);
    case kMax: return Q6_Vw_vmax_VwVw(a, b);
    case kMin: return Q6_Vw_vmin_VwVw(a, b);
    default: return power_w(a, b, c);
  }
}

void int32_row(const BinaryDsp& k, const RowInput& a, const RowInput& b, uint8_t* y, size_t count,
               const Constants& c) {
  const size_t bytes = count * sizeof(int32_t);
  for (size_t offset = 0; offset < bytes; offset += kVector) {
    HVX_Vector r = apply_w(k, a.at(offset, bytes), b.at(offset, bytes), c);
    if (k.act != 0) r = Q6_Vw_vmax_VwVw(r, c.lo);
    if (k.act >= 2) r = Q6_Vw_vmin_VwVw(r, c.hi);
    oprig_dsp_store_bytes(y + offset, bytes - offset, r);
  }
}

// UINT_8 MAX / MIN. Inputs quantised unlike each other, where prepare found
// both requantisations exact as affine maps (common/dsp_linear_requantize.hpp):
// each input becomes halfwords (the output code times 2^L, floored), the
// larger / smaller halfword is taken and one narrowing rounds them to codes
// (monotonic, so it commutes with the max). Elsewhere the codes are
// requantised by table (vlut32) and compared: an input quantised as the
// output keeps its codes (no lookup); inputs quantised alike share one
// table, looked up once after the compare (requantising is monotonic, so
// max(T[a], T[b]) = T[max(a, b)]). Then the activation's clamp.
struct MinMaxProgram {
  std::optional<dsp::LinearRequantize> linear_a, linear_b;  // the affine maps, or none
  std::optional<dsp::CodeLookup> to_out_a, to_out_b;  // tables; absent: the codes are the output's already
  bool shared = false;                                // to_out_a after the compare serves both
  HVX_Vector lo, hi;
};

HVX_Vector minmax_codes(const BinaryDsp& k, const MinMaxProgram& p, HVX_Vector va, HVX_Vector vb) {
  const bool max = k.op == kMax;
  const auto pick = [max](HVX_Vector x, HVX_Vector z) {
    return max ? Q6_Vub_vmax_VubVub(x, z) : Q6_Vub_vmin_VubVub(x, z);
  };
  const auto pick_h = [max](HVX_Vector x, HVX_Vector z) {
    return max ? Q6_Vh_vmax_VhVh(x, z) : Q6_Vh_vmin_VhVh(x, z);
  };
  HVX_Vector r;
  if (p.linear_a) {
    const dsp::SplitHalfwords ha = dsp::linear_requantize_halfwords(*p.linear_a, va);
    const dsp::SplitHalfwords hb = dsp::linear_requantize_halfwords(*p.linear_b, vb);
    r = dsp::linear_requantize_codes({pick_h(ha.even, hb.even), pick_h(ha.odd, hb.odd)}, p.linear_a->last_shift);
  } else if (p.shared) {
    r = (*p.to_out_a)(pick(va, vb));
  } else {
    r = pick(p.to_out_a ? (*p.to_out_a)(va) : va, p.to_out_b ? (*p.to_out_b)(vb) : vb);
  }
  if (k.lo != 0) r = Q6_Vub_vmax_VubVub(r, p.lo);
  if (k.hi != 255) r = Q6_Vub_vmin_VubVub(r, p.hi);
  return r;
}

// Puts the code table in VTCM with vector loads and stores (512 of each):
// VTCM is the program's for one execute, as on Hexagon, so every execute
// copies it.
void table_to_vtcm(const BinaryDsp& k, DivPowVtcm& vtcm) {
  oprig_dsp_map(k.table->codes, sizeof k.table->codes, "the DIV/POW code table");
  oprig_dsp_map_vtcm(&vtcm, sizeof vtcm, "the DIV/POW code table in VTCM");
  for (size_t i = 0; i < kTableEntries; i += kVector)
    oprig_vmem_store(vtcm.codes + i, oprig_vmem_load(k.table->codes + i));
}

// table[a << 8 | b] for 128 codes: the byte offsets a << 8 | b formed as
// halfwords in element order (one vshuff), two halfword gathers from the
// table in VTCM (the entry is the low byte of each halfword; the high byte
// of entry 65535 lies past the region and is dropped, never used), the two
// gathered lines loaded and their low bytes packed back in order (vpacke).
// Lanes past the valid codes gather too (any 16-bit offset is in the table).
HVX_Vector table_codes(DivPowVtcm& vtcm, HVX_Vector va, HVX_Vector vb) {
  const HVX_VectorPair offsets = Q6_W_vshuff_VVR(va, vb, -1);  // halfword i = b[i] | a[i] << 8
  const int table = static_cast<int>(reinterpret_cast<intptr_t>(vtcm.codes));  // Rt: a 32-bit address on Hexagon
  Q6_vgather_ARMVh(&vtcm.gathered[0], table, static_cast<int>(kTableEntries - 1), Q6_V_lo_W(offsets));
  Q6_vgather_ARMVh(&vtcm.gathered[1], table, static_cast<int>(kTableEntries - 1), Q6_V_hi_W(offsets));
  return Q6_Vb_vpacke_VhVh(oprig_vmem_load(&vtcm.gathered[1]), oprig_vmem_load(&vtcm.gathered[0]));
}

void uint8_rows(const BinaryDsp& k, const uint8_t* a, const uint8_t* b, uint8_t* y) {
  const BroadcastPlan& p = k.plan;
  const size_t inner = p.inner();
  const bool a_repeats = p.a_step() == 0, b_repeats = p.b_step() == 0;
  const bool arithmetic = k.op == kAdd || k.op == kSub || k.op == kMul;
  const bool tabled = k.op == kDiv || k.op == kPow;
  DspQuantArith arith{};
  std::optional<MinMaxProgram> minmax;
  std::unique_ptr<DivPowVtcm> vtcm;
  if (arithmetic) {
    arith = make_dsp_quant_arith(k.arith, k.op == kMul, false, k.add_fast);
  } else if (tabled) {
    vtcm = std::make_unique<DivPowVtcm>();
    table_to_vtcm(k, *vtcm);
  } else {
    MinMaxProgram& m = minmax.emplace();
    m.shared = k.shared_table;
    if (k.linear.a.usable) {
      m.linear_a.emplace(k.linear.a);
      m.linear_b.emplace(k.linear.b);
    } else {
      if (!k.a_is_output_code) m.to_out_a.emplace(k.to_out_a);
      if (!k.b_is_output_code && !k.shared_table) m.to_out_b.emplace(k.to_out_b);
    }
    if (k.lo != 0) m.lo = Q6_Vb_vsplat_R(k.lo);
    if (k.hi != 255) m.hi = Q6_Vb_vsplat_R(k.hi);
  }
  for (size_t row = 0; row < p.rows(); ++row) {
    size_t ao = 0, bo = 0;
    if (p.merged > 0) p.row_offsets(row, &ao, &bo);
    const RowInput ra = row_input(a + ao, a_repeats, 1), rb = row_input(b + bo, b_repeats, 1);
    uint8_t* out = y + row * inner;
    for (size_t first = 0; first < inner; first += kVector) {
      const HVX_Vector va = ra.at(first, inner), vb = rb.at(first, inner);
      const size_t valid = inner - first;
      HVX_Vector r;
      if (arithmetic)
        r = dsp_quant_arith_codes(arith, va, vb, valid);
      else if (tabled)
        r = table_codes(*vtcm, va, vb);
      else
        r = minmax_codes(k, *minmax, va, vb);
      oprig_dsp_store_bytes(out + first, valid, r);
    }
  }
}

void int32_rows(const BinaryDsp& k, const uint8_t* a, const uint8_t* b, uint8_t* y) {
  const BroadcastPlan& p = k.plan;
  const size_t inner = p.inner();
  const bool a_repeats = p.a_step() == 0, b_repeats = p.b_step() == 0;
  const bool divides = k.op == kDiv || k.op == kPow;
  Constants c{};
  if (divides || k.act != 0) c.zero = Q6_V_vzero();
  if (divides) c.one = Q6_V_vsplat_R(1);
  if (k.op == kPow) c.minus_one = Q6_V_vsplat_R(-1);
  if (k.act != 0) c.lo = Q6_V_vsplat_R(k.act == 2 ? -1 : 0);
  if (k.act >= 2) c.hi = Q6_V_vsplat_R(k.act == 2 ? 1 : 6);
  for (size_t row = 0; row < p.rows(); ++row) {
    size_t ao = 0, bo = 0;
    if (p.merged > 0) p.row_offsets(row, &ao, &bo);
    const RowInput ra = row_input(a + ao * 4, a_repeats, 4), rb = row_input(b + bo * 4, b_repeats, 4);
    int32_row(k, ra, rb, y + row * inner * 4, inner, c);
  }
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info != nullptr) info->dsp_cycles = 0;
  auto* k = from_handle<BinaryDsp>(handle);
  if (!k->prepared || num_inputs != 2 || num_outputs != 1 || inputs == nullptr || outputs == nullptr ||
      info == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->plan.count == 0) return OPRIG_STATUS_OK;
  if (inputs[0].data == nullptr || inputs[1].data == nullptr || outputs[0].data == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (const oprig_status s = oprig_dsp_begin(k->ctx); s != OPRIG_STATUS_OK) return s;
  const auto* a = static_cast<const uint8_t*>(inputs[0].data);
  const auto* b = static_cast<const uint8_t*>(inputs[1].data);
  auto* y = static_cast<uint8_t*>(outputs[0].data);
  if (k->quantised)
    uint8_rows(*k, a, b, y);
  else
    int32_rows(*k, a, b, y);
  return oprig_dsp_end(info);
}

void destroy(oprig_kernel* handle) { delete from_handle<BinaryDsp>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const BinaryDsp>(handle);
  const uint64_t n = k->plan.count, width = k->quantised ? 1 : 4;
  *out = {n, 2 * width * n, width * n};
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_elementwise_binary__dsp = {"ElementwiseBinary", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
