// org.oprig.builtins on the dsp backend (liboprig_builtins_dsp.so): HVX code
// on the simulator through oprig_dsp.h, bit-exact on the integer and boolean
// types:
// Compare on INT_32 and BOOL_8, Logical, LogicalNot, Cast between INT_32,
// UINT_8, INT_8 and BOOL_8, and QuantizedArithmetic (NNAPI's requantisation:
// codes widened to 32-bit lanes, offset, shifted left, scaled with gemmlowp's
// SaturatingRoundingDoublingHighMul and RoundingDivideByPOT in HVX
// instructions, clamped and narrowed back). Slice of the integer types is
// a byte copy: its box as a CopyPlan (slice_plan.hpp) run by the shared
// strided copy of common/dsp_byte_copy.hpp. Quantised FullyConnected is
// MatMul's vrmpy product (common/dsp_quant_gemm.hpp) with the INT_32 bias
// folded into its column biases. Quantised comparisons
// compare real values, fp32 products the DSP cannot form: prepare() does
// that arithmetic on the host, as the runtime does, and turns it into
// tables: for each code of a, how many codes of b have a smaller real value
// (lo) and how many a smaller or equal one (hi); b's real values grow with
// its code, so a < b is "b's rank >= hi", a == b "lo <= rank < hi", and the
// program looks the thresholds up (vlut32) and compares bytes. FLOAT_32 (there is no float on the simulated
// DSP) and broadcasts that are not one row (equal shapes, or one side a
// single value) are UNSUPPORTED. 128 bytes per vector: comparisons set a
// predicate and select 1 or 0 (vmux); a 32-bit result of 32 lanes per vector
// is narrowed four vectors at a time (saturating vpack) into one vector of
// bytes, and bytes are widened to 32 bits with vunpack.
#include <algorithm>
#include <cstring>
#include <new>

#include <vector>

#include "common/dsp_byte_copy.hpp"
#include "common/dsp_quant_gemm.hpp"
#include "common/dsp_quant_arith.hpp"
#include "node.hpp"
#include "oprig/oprig_dsp.h"
#include "slice_plan.hpp"

struct oprig_kernel {
  oprig::builtins::Node node;
  const oprig_backend_context* ctx = nullptr;
  bool a_repeats = false, b_repeats = false;
  // Quantised Compare, indexed by a's code byte and laid out for vlut32
  // (oprig_dsp_lut256_position): the thresholds lo and hi (0..256) as
  // min(t, 255) in b's code domain, and whether t is 256.
  alignas(128) uint8_t lo_code[256], lo_all[256], hi_code[256], hi_all[256];
  // Slice, from resolve_shapes(): the box as a byte copy (slice_plan.hpp).
  oprig::opsuite::CopyPlan slice_plan;
  std::vector<oprig::opsuite::DspCopyTarget> slice_targets;
  // Quantised FullyConnected: the shared vrmpy product (weights w[units][depth]).
  oprig::opsuite::DspQuantGemm gemm;
  // Quantised ADD/SUB: the fast program where it is exact for these parameters.
  oprig::opsuite::QuantAddFastPlan add_fast;
};

namespace oprig::builtins {
namespace {

constexpr size_t kVector = OPRIG_DSP_VECTOR_BYTES;
constexpr size_t kLanes32 = kVector / 4;

// One input of a two-input op: streamed, or a single value splatted.
struct Source {
  const uint8_t* base;
  size_t bytes;
  bool repeats;
  HVX_Vector splat;
  HVX_Vector at(size_t offset) const { return repeats ? splat : oprig_dsp_load_bytes(base + offset, bytes - offset); }
};

Source source(const oprig_tensor& t, bool repeats, size_t bytes, size_t element) {
  Source s{static_cast<const uint8_t*>(t.data), bytes, repeats, HVX_Vector{}};
  if (repeats) {
    if (element == 4) {
      int32_t v;
      std::memcpy(&v, s.base, sizeof v);
      s.splat = Q6_V_vsplat_R(v);
    } else {
      s.splat = Q6_Vb_vsplat_R(s.base[0]);
    }
  }
  return s;
}

// Four vectors of 32-bit lanes (any int32) -> one vector of saturated bytes.
HVX_Vector narrow_to_bytes(const HVX_Vector w[4], bool signed_bytes) {
  return signed_bytes ? oprig_dsp_narrow_w_b_sat(w) : oprig_dsp_narrow_w_ub_sat(w);
}

// Predicate for Compare's operation on words (INT_32) or unsigned bytes; the
// flag says whether the result is its negation.
HVX_VectorPred compare_pred(uint32_t op, HVX_Vector a, HVX_Vector b, bool words, bool* negate) {
  *negate = op == kLessEqual || op == kGreaterEqual || op == kNotEqual;
  auto gt = [&](HVX_Vector x, HVX_Vector y) { return words ? Q6_Q_vcmp_gt_VwVw(x, y) : Q6_Q_vcmp_gt_VubVub(x, y); };
  switch (op) {
    case kLess: return gt(b, a);
    case kLessEqual: return gt(a, b);  // !(a > b)
    case kGreater: return gt(a, b);
    case kGreaterEqual: return gt(b, a);  // !(b > a)
    default: return words ? Q6_Q_vcmp_eq_VwVw(a, b) : Q6_Q_vcmp_eq_VbVb(a, b);  // EQUAL, NOT_EQUAL (negated)
  }
}

HVX_Vector select01(HVX_VectorPred q, bool negate, HVX_Vector one, HVX_Vector zero) {
  return negate ? Q6_V_vmux_QVV(q, zero, one) : Q6_V_vmux_QVV(q, one, zero);
}

// The comparison tables of a quantised Compare (see the file comment).
void build_thresholds(oprig_kernel& k) {
  const Node& n = k.node;
  const bool is_signed = n.in_dtype == OPRIG_DTYPE_INT_8;
  const auto code_of = [&](int byte) { return is_signed ? static_cast<int32_t>(static_cast<int8_t>(byte)) : byte; };
  const auto real = [](int32_t code, const QuantisedInput& q) {
    return static_cast<float>(code - q.zero_point) * q.scale;  // as the host computes it
  };
  float b_reals[256];  // by rank: codes in ascending order
  for (int rank = 0; rank < 256; ++rank) b_reals[rank] = real(is_signed ? rank - 128 : rank, n.qb);
  const auto as_code_byte = [&](int t) { return static_cast<uint8_t>(std::min(t, 255) - (is_signed ? 128 : 0)); };
  for (int byte = 0; byte < 256; ++byte) {
    const float a = real(code_of(byte), n.qa);
    int lo = 0, hi = 0;
    for (const float b : b_reals) {
      lo += b < a ? 1 : 0;
      hi += b <= a ? 1 : 0;
    }
    const size_t at = oprig_dsp_lut256_position(static_cast<size_t>(byte));
    k.lo_code[at] = as_code_byte(lo);
    k.lo_all[at] = lo == 256 ? 1 : 0;
    k.hi_code[at] = as_code_byte(hi);
    k.hi_all[at] = hi == 256 ? 1 : 0;
  }
}

// table[x] for 256 entries, the table in vlut32's layout.
HVX_Vector lookup256(HVX_Vector x, const uint8_t* table) {
  return oprig_dsp_lut256(x, oprig_vmem_load(table), oprig_vmem_load(table + kVector));
}

void run_quantised_compare(const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
  const bool is_signed = n.in_dtype == OPRIG_DTYPE_INT_8;
  for (const uint8_t* table : {k.lo_code, k.lo_all, k.hi_code, k.hi_all})
    oprig_dsp_map(table, 256, "a comparison table");
  const Source a = source(in[0], k.a_repeats, n.count, 1);
  const Source b = source(in[1], k.b_repeats, n.count, 1);
  const HVX_Vector one = Q6_Vb_vsplat_R(1), zero = Q6_V_vzero();
  const auto negate = [&](HVX_Vector v) { return Q6_V_vmux_QVV(Q6_Q_vcmp_eq_VbVb(v, zero), one, zero); };
  for (size_t off = 0; off < n.count; off += kVector) {
    const HVX_Vector va = a.at(off), vb = b.at(off);
    // 1 where b's rank is below the threshold looked up for a's code.
    const auto below = [&](const uint8_t* code, const uint8_t* all) {
      const HVX_Vector t = lookup256(va, code);
      const HVX_VectorPred q = is_signed ? Q6_Q_vcmp_gt_VbVb(t, vb) : Q6_Q_vcmp_gt_VubVub(t, vb);
      return Q6_V_vor_VV(Q6_V_vmux_QVV(q, one, zero), lookup256(va, all));
    };
    HVX_Vector r;
    switch (n.operation) {
      case kLess: r = negate(below(k.hi_code, k.hi_all)); break;
      case kLessEqual: r = negate(below(k.lo_code, k.lo_all)); break;
      case kGreater: r = below(k.lo_code, k.lo_all); break;
      case kGreaterEqual: r = below(k.hi_code, k.hi_all); break;
      default: {
        const HVX_Vector equal = Q6_V_vand_VV(below(k.hi_code, k.hi_all), negate(below(k.lo_code, k.lo_all)));
        r = n.operation == kEqual ? equal : negate(equal);
        break;
      }
    }
    oprig_dsp_store_bytes(y + off, n.count - off, r);
  }
}

void run_compare(const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
  if (n.quantised) return run_quantised_compare(k, in, y);
  const bool words = n.in_dtype == OPRIG_DTYPE_INT_32;
  const size_t element = words ? 4 : 1, bytes = n.count * element;
  const Source a = source(in[0], k.a_repeats, bytes, element);
  const Source b = source(in[1], k.b_repeats, bytes, element);
  bool negate = false;
  if (!words) {
    const HVX_Vector one = Q6_Vb_vsplat_R(1), zero = Q6_V_vzero();
    for (size_t off = 0; off < n.count; off += kVector) {
      const HVX_VectorPred q = compare_pred(n.operation, a.at(off), b.at(off), false, &negate);
      oprig_dsp_store_bytes(y + off, n.count - off, select01(q, negate, one, zero));
    }
    return;
  }
  const HVX_Vector one = Q6_V_vsplat_R(1), zero = Q6_V_vzero();
  for (size_t first = 0; first < n.count; first += kVector) {  // 128 elements: 4 word vectors in
    HVX_Vector w[4];
    for (size_t part = 0; part < 4; ++part) {
      const size_t element_index = first + part * kLanes32;
      if (element_index >= n.count) {
        w[part] = zero;
        continue;
      }
      const size_t off = element_index * 4;
      const HVX_VectorPred q = compare_pred(n.operation, a.at(off), b.at(off), true, &negate);
      w[part] = select01(q, negate, one, zero);
    }
    oprig_dsp_store_bytes(y + first, n.count - first, narrow_to_bytes(w, false));
  }
}

void run_logical(const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
  const HVX_Vector one = Q6_Vb_vsplat_R(1), zero = Q6_V_vzero();
  const Source a = source(in[0], k.a_repeats, n.count, 1);
  const bool binary = n.op == Op::kLogical;
  const Source b = binary ? source(in[1], k.b_repeats, n.count, 1) : a;
  for (size_t off = 0; off < n.count; off += kVector) {
    const HVX_VectorPred a_false = Q6_Q_vcmp_eq_VbVb(a.at(off), zero);
    HVX_Vector r;
    if (!binary) {
      r = Q6_V_vmux_QVV(a_false, one, zero);
    } else {
      const HVX_VectorPred b_false = Q6_Q_vcmp_eq_VbVb(b.at(off), zero);
      if (n.operation == kAnd)
        r = Q6_V_vmux_QVV(a_false, zero, Q6_V_vmux_QVV(b_false, zero, one));
      else
        r = Q6_V_vmux_QVV(a_false, Q6_V_vmux_QVV(b_false, zero, one), one);
    }
    oprig_dsp_store_bytes(y + off, n.count - off, r);
  }
}

// Cast on bytes (UINT_8, INT_8, BOOL_8) to bytes.
HVX_Vector cast_bytes(HVX_Vector x, uint32_t from, uint32_t to, HVX_Vector one, HVX_Vector zero) {
  if (to == OPRIG_DTYPE_BOOL_8 || from == OPRIG_DTYPE_BOOL_8)
    // BOOL_8 -> UINT_8/INT_8 is the 0/1 value; x -> BOOL_8 is x != 0
    return Q6_V_vmux_QVV(Q6_Q_vcmp_eq_VbVb(x, zero), zero, one);
  if (from == to) return x;
  if (from == OPRIG_DTYPE_UINT_8) return Q6_Vub_vmin_VubVub(x, Q6_Vb_vsplat_R(127));  // UINT_8 -> INT_8 saturates
  return Q6_Vb_vmax_VbVb(x, zero);                                                    // INT_8 -> UINT_8 saturates
}

void run_cast(const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
  const uint32_t from = n.in_dtype, to = n.out_dtype;
  const size_t in_size = element_bytes(from), out_size = element_bytes(to);
  const auto* x = static_cast<const uint8_t*>(in[0].data);
  const size_t in_bytes = n.count * in_size, out_bytes = n.count * out_size;
  if (in_size == 4 && out_size == 4) {  // INT_32 -> INT_32
    for (size_t off = 0; off < in_bytes; off += kVector)
      oprig_dsp_store_bytes(y + off, out_bytes - off, oprig_dsp_load_bytes(x + off, in_bytes - off));
    return;
  }
  const HVX_Vector one_b = Q6_Vb_vsplat_R(1), zero = Q6_V_vzero();
  if (in_size == 1 && out_size == 1) {
    for (size_t off = 0; off < n.count; off += kVector)
      oprig_dsp_store_bytes(y + off, n.count - off, cast_bytes(oprig_dsp_load_bytes(x + off, n.count - off), from, to, one_b, zero));
    return;
  }
  if (in_size == 4) {  // INT_32 -> UINT_8 / INT_8 (saturating) or BOOL_8 (!= 0)
    const HVX_Vector one = Q6_V_vsplat_R(1);
    for (size_t first = 0; first < n.count; first += kVector) {
      HVX_Vector w[4];
      for (size_t part = 0; part < 4; ++part) {
        const size_t index = first + part * kLanes32;
        if (index >= n.count) {
          w[part] = zero;
          continue;
        }
        w[part] = oprig_dsp_load_bytes(x + index * 4, in_bytes - index * 4);
        if (to == OPRIG_DTYPE_BOOL_8) w[part] = Q6_V_vmux_QVV(Q6_Q_vcmp_eq_VwVw(w[part], zero), zero, one);
      }
      oprig_dsp_store_bytes(y + first, n.count - first, narrow_to_bytes(w, to == OPRIG_DTYPE_INT_8));
    }
    return;
  }
  // UINT_8 / INT_8 / BOOL_8 -> INT_32: widen with vunpack, signed for INT_8.
  for (size_t first = 0; first < n.count; first += kVector) {
    HVX_Vector v = oprig_dsp_load_bytes(x + first, n.count - first);
    if (from == OPRIG_DTYPE_BOOL_8) v = Q6_V_vmux_QVV(Q6_Q_vcmp_eq_VbVb(v, zero), zero, one_b);
    HVX_Vector parts[4];
    if (from == OPRIG_DTYPE_INT_8)
      oprig_dsp_widen_b_w(v, parts);
    else
      oprig_dsp_widen_ub_w(v, parts);
    for (size_t part = 0; part < 4; ++part) {
      const size_t index = first + part * kLanes32;
      if (index < n.count) oprig_dsp_store_bytes(y + index * 4, out_bytes - index * 4, parts[part]);
    }
  }
}

// Slice: the shared strided byte copy (common/dsp_byte_copy.hpp); a copy
// does not look at the values, so one kernel serves every element size.
oprig_status run_slice(const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const std::byte* source = static_cast<const std::byte*>(in[0].data);
  std::byte* destination = reinterpret_cast<std::byte*>(y);
  return opsuite::dsp_copy_plan(k.slice_plan, k.slice_targets, &source, 1, &destination) ? OPRIG_STATUS_OK
                                                                                         : OPRIG_STATUS_INTERNAL;
}

// Quantised FullyConnected: the weights (and the INT_32 bias, into the
// column biases) packed every execute, as they may be computed, then the
// batch rows kDspGemmRows at a time (common/dsp_quant_gemm.hpp).
void run_fully_connected(oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
  opsuite::dsp_quant_gemm_map(k.gemm);
  opsuite::dsp_quant_gemm_pack(k.gemm, static_cast<const uint8_t*>(in[1].data), static_cast<const int32_t*>(in[2].data));
  const opsuite::DspGemmTail tail = opsuite::dsp_gemm_tail(k.gemm);
  const auto* x = static_cast<const uint8_t*>(in[0].data);
  const auto batch = static_cast<size_t>(n.fc.batch), units = static_cast<size_t>(n.fc.units),
             depth = static_cast<size_t>(n.fc.depth);
  for (size_t m0 = 0; m0 < batch; m0 += opsuite::kDspGemmRows) {
    const size_t rows = std::min(opsuite::kDspGemmRows, batch - m0);
    const uint8_t* x_rows[opsuite::kDspGemmRows];
    uint8_t* y_rows[opsuite::kDspGemmRows];
    for (size_t r = 0; r < rows; ++r) {
      x_rows[r] = x + (m0 + r) * depth;
      y_rows[r] = y + (m0 + r) * units;
    }
    opsuite::dsp_quant_gemm_rows(k.gemm, x_rows, rows, 1, y_rows, tail);
  }
}

// The product of a quantised FullyConnected: NNAPI's rule (the host kernel,
// runtime/graph/kernels_fully_connected.cpp) with UINT_8 weights packed as
// INT_8 (sign bit flipped, zero point - 128: the same differences).
void plan_gemm(oprig_kernel& k) {
  const Node& n = k.node;
  opsuite::DspQuantGemm& g = k.gemm;
  const bool is_signed = n.in_dtype == OPRIG_DTYPE_INT_8;
  g.n = static_cast<size_t>(n.fc.units);
  g.k = static_cast<size_t>(n.fc.depth);
  g.z_a = -n.fc.x_offset;
  g.z_w = -n.fc.w_offset - (is_signed ? 0 : 128);
  g.z_out = n.fc.out_offset;
  g.signed_a = is_signed;
  g.transpose_b = true;
  g.flip_w = !is_signed;
  g.multiplier = n.fc.multiplier;
  g.range = n.fc.range;
  opsuite::dsp_quant_gemm_size(g);
}

void run_quant_arithmetic(const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
  const bool is_signed = n.in_dtype == OPRIG_DTYPE_INT_8;
  const Source a = source(in[0], k.a_repeats, n.count, 1);
  const Source b = source(in[1], k.b_repeats, n.count, 1);
  const opsuite::DspQuantArith arith = opsuite::make_dsp_quant_arith(n.arithmetic, n.operation == kMul, is_signed, k.add_fast);
  for (size_t first = 0; first < n.count; first += kVector)
    oprig_dsp_store_bytes(y + first, n.count - first,
                          opsuite::dsp_quant_arith_codes(arith, a.at(first), b.at(first), n.count - first));
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || ctx->kind != OPRIG_BACKEND_DSP) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (!oprig_dsp_available(ctx)) return OPRIG_STATUS_UNSUPPORTED;
  Node node;
  if (const oprig_status st = parse_node(op_name, params, num_params, &node); st != OPRIG_STATUS_OK) return st;
  auto* k = new (std::nothrow) oprig_kernel;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->node = node;
  k->ctx = ctx;
  *out_kernel = k;
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (k == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  Node& n = k->node;
  if (n.op == Op::kSlice) {
    if (inputs != nullptr && num_inputs > 0 &&
        (inputs[0].dtype == OPRIG_DTYPE_FLOAT_32 || inputs[0].dtype == OPRIG_DTYPE_FLOAT_16))
      return OPRIG_STATUS_UNSUPPORTED;  // the dsp backend holds no float tensors
    return plan_slice(&n, inputs, num_inputs, outputs, num_outputs);
  }
  if (n.op == Op::kFullyConnected) {
    if (const oprig_status st = plan_fully_connected(&n, inputs, num_inputs, outputs, num_outputs);
        st != OPRIG_STATUS_OK)
      return st;
    if (!n.quantised) {
      n.prepared = false;
      return OPRIG_STATUS_UNSUPPORTED;  // no float on the DSP
    }
    plan_gemm(*k);
    return OPRIG_STATUS_OK;
  }
  const oprig_status st = plan_node(&n, inputs, num_inputs, outputs, num_outputs);
  if (st != OPRIG_STATUS_OK) return st;
  const auto is_float = [](uint32_t t) { return t == OPRIG_DTYPE_FLOAT_32 || t == OPRIG_DTYPE_FLOAT_16; };
  if (is_float(n.in_dtype) || is_float(n.out_dtype) || (n.plan.merged != 1 && n.count != 0)) {
    n.prepared = false;
    return OPRIG_STATUS_UNSUPPORTED;  // no float on the DSP; strided broadcasts not written
  }
  k->a_repeats = n.plan.a_step() == 0 && n.count > 1;
  k->b_repeats = n.plan.b_step() == 0 && n.count > 1;
  if (n.op == Op::kCompare && n.quantised) build_thresholds(*k);
  k->add_fast = {};
  if (n.op == Op::kQuantizedArithmetic && n.operation != kMul)
    k->add_fast = opsuite::plan_dsp_quant_add_fast(n.arithmetic, n.in_dtype == OPRIG_DTYPE_INT_8);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info != nullptr) info->dsp_cycles = 0;
  if (k == nullptr || !k->node.prepared || inputs == nullptr || outputs == nullptr || info == nullptr ||
      num_outputs != 1 || num_inputs < 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const Node& n = k->node;
  if (n.op == Op::kSlice && !n.slice.resolved) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (n.count == 0) return OPRIG_STATUS_OK;
  for (size_t i = 0; i < num_inputs; ++i)
    if (inputs[i].data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (outputs[0].data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* y = static_cast<uint8_t*>(outputs[0].data);
  if (const oprig_status s = oprig_dsp_begin(k->ctx); s != OPRIG_STATUS_OK) return s;
  switch (n.op) {
    case Op::kCompare: run_compare(*k, inputs, y); break;
    case Op::kLogical:
    case Op::kLogicalNot: run_logical(*k, inputs, y); break;
    case Op::kCast: run_cast(*k, inputs, y); break;
    case Op::kQuantizedArithmetic: run_quant_arithmetic(*k, inputs, y); break;
    case Op::kSlice:
      if (const oprig_status s = run_slice(*k, inputs, y); s != OPRIG_STATUS_OK) {
        oprig_dsp_end(info);
        return s;
      }
      break;
    case Op::kFullyConnected: run_fully_connected(*k, inputs, y); break;
  }
  return oprig_dsp_end(info);
}

oprig_status resolve_shapes(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                            size_t num_outputs) {
  if (k == nullptr || k->node.op != Op::kSlice) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (const oprig_status st = resolve_slice(&k->node, inputs, num_inputs, outputs, num_outputs); st != OPRIG_STATUS_OK)
    return st;
  k->slice_plan = slice_copy_plan(k->node);
  if (!opsuite::dsp_copy_targets(k->slice_plan, &k->slice_targets)) {
    k->node.slice.resolved = false;
    return OPRIG_STATUS_INTERNAL;
  }
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* k) { delete k; }

const oprig_implementation_v1 kImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_DSP, create, prepare, execute, destroy,
    nullptr, resolve_shapes, {}};

}  // namespace
}  // namespace oprig::builtins

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                 uint32_t max_version) {
  if (max_version < OPRIG_ABI_VERSION || backend_kind != OPRIG_BACKEND_DSP) return nullptr;
  return &oprig::builtins::kImplementation;
}
