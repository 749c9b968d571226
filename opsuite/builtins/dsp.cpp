// org.oprig.builtins on the dsp backend (liboprig_builtins_dsp.so): the
// fixed-point simulator does the integer and boolean types bit-exactly:
// Compare on INT_32 and BOOL_8, Logical, LogicalNot, Cast between INT_32,
// UINT_8, INT_8 and BOOL_8, and QuantizedArithmetic (NNAPI's requantisation:
// codes widened to 32-bit lanes, offset, shifted by a multiply, scaled with
// srdhm_w and rdbpot_w, clamped and narrowed back). Quantised comparisons
// compare real values, fp32 products the DSP cannot form: prepare() does
// that arithmetic on the host, as the runtime does, and turns it into
// tables: for each code of a, how many codes of b have a smaller real value
// (lo) and how many a smaller or equal one (hi); b's real values grow with
// its code, so a < b is "b's rank >= hi", a == b "lo <= rank < hi", and the
// program looks the thresholds up (vlut32) and compares bytes. FLOAT_32 (there is no float on the simulated
// DSP) and broadcasts that are not one row (equal shapes, or one side a
// single value) are UNSUPPORTED. HVX programs, 128 bytes per vector:
// comparisons set a predicate and select 1 or 0; a 32-bit result of 32
// lanes per vector is narrowed four vectors at a time (saturating shifts by
// 0) into one vector of bytes, and bytes are widened to 32 bits by
// multiplying by 1 (u8 x s8 -> i16, then i16 x i16 -> i32).
#include <algorithm>
#include <cstring>
#include <exception>
#include <new>
#include <vector>

#include "common/hvx_io.hpp"
#include "node.hpp"

struct oprig_kernel {
  oprig::builtins::Node node;
  bool a_repeats = false, b_repeats = false;
  // Quantised Compare, indexed by a's code byte: the thresholds lo and hi
  // (0..256) as min(t, 255) in b's code domain, and whether t is 256.
  alignas(128) uint8_t lo_code[256], lo_all[256], hi_code[256], hi_all[256];
};

namespace oprig::builtins {
namespace {

namespace hvx_io = opsuite::hvx_io;
using hvx::Core;
using hvx::Pred;
using hvx::Vec;
constexpr size_t kLanes32 = hvx::kVectorBytes / 4;

// One input of a two-input op: streamed, or a single value splatted.
struct Source {
  const uint8_t* base;
  size_t bytes;
  bool repeats;
  Vec splat;
  Vec at(Core& core, size_t offset) const { return repeats ? splat : hvx_io::load(core, base, offset, bytes); }
};

Source source(Core& core, const oprig_tensor& t, bool repeats, size_t bytes, size_t element) {
  Source s{static_cast<const uint8_t*>(t.data), bytes, repeats, {}};
  core.map_readable(s.base, repeats ? element : bytes);
  if (repeats) {
    if (element == 4) {
      int32_t v;
      std::memcpy(&v, s.base, sizeof v);
      s.splat = core.splat_w(v);
    } else {
      s.splat = core.splat_b(s.base[0]);
    }
  }
  return s;
}

// Four vectors of 32-bit 0/1 (or any int32) -> one vector of saturated bytes.
Vec narrow_to_bytes(Core& core, const Vec w[4], bool signed_bytes) {
  const Vec lo = core.asr_w_to_h_rnd_sat(w[0], w[1], 0);
  const Vec hi = core.asr_w_to_h_rnd_sat(w[2], w[3], 0);
  return signed_bytes ? core.asr_h_to_b_rnd_sat(lo, hi, 0) : core.asr_h_to_ub_rnd_sat(lo, hi, 0);
}

// Predicate for Compare's operation on words (INT_32) or unsigned bytes; the
// flag says whether the result is its negation.
Pred compare_pred(Core& core, uint32_t op, const Vec& a, const Vec& b, bool words, bool* negate) {
  *negate = op == kLessEqual || op == kGreaterEqual || op == kNotEqual;
  auto gt = [&](const Vec& x, const Vec& y) { return words ? core.cmp_gt_w(x, y) : core.cmp_gt_ub(x, y); };
  switch (op) {
    case kLess: return gt(b, a);
    case kLessEqual: return gt(a, b);  // !(a > b)
    case kGreater: return gt(a, b);
    case kGreaterEqual: return gt(b, a);  // !(b > a)
    default: return words ? core.cmp_eq_w(a, b) : core.cmp_eq_b(a, b);  // EQUAL, NOT_EQUAL (negated)
  }
}

Vec select01(Core& core, const Pred& q, bool negate, const Vec& one, const Vec& zero) {
  return negate ? core.mux(q, zero, one) : core.mux(q, one, zero);
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
    k.lo_code[byte] = as_code_byte(lo);
    k.lo_all[byte] = lo == 256 ? 1 : 0;
    k.hi_code[byte] = as_code_byte(hi);
    k.hi_all[byte] = hi == 256 ? 1 : 0;
  }
}

// table[x] for 256 entries: eight 32-entry lookups or-ed together.
Vec lookup256(Core& core, const Vec& x, const uint8_t* table) {
  const Vec low = core.vmem(table), high = core.vmem(table + hvx::kVectorBytes);
  Vec y = core.lut32(x, low, 0);
  for (uint32_t segment = 1; segment < 8; ++segment) y = core.lut32_or(y, x, segment < 4 ? low : high, segment);
  return y;
}

void run_quantised_compare(Core& core, const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
  const bool is_signed = n.in_dtype == OPRIG_DTYPE_INT_8;
  for (const uint8_t* table : {k.lo_code, k.lo_all, k.hi_code, k.hi_all}) core.map_readable(table, 256);
  const Source a = source(core, in[0], k.a_repeats, n.count, 1);
  const Source b = source(core, in[1], k.b_repeats, n.count, 1);
  const Vec one = core.splat_b(1), zero = core.splat_b(0);
  const auto negate = [&](const Vec& v) { return core.mux(core.cmp_eq_b(v, zero), one, zero); };
  for (size_t off = 0; off < n.count; off += hvx::kVectorBytes) {
    const Vec va = a.at(core, off), vb = b.at(core, off);
    // 1 where b's rank is below the threshold looked up for a's code.
    const auto below = [&](const uint8_t* code, const uint8_t* all) {
      const Vec t = lookup256(core, va, code);
      const Pred q = is_signed ? core.cmp_gt_b(t, vb) : core.cmp_gt_ub(t, vb);
      return core.vor(core.mux(q, one, zero), lookup256(core, va, all));
    };
    Vec r;
    switch (n.operation) {
      case kLess: r = negate(below(k.hi_code, k.hi_all)); break;
      case kLessEqual: r = negate(below(k.lo_code, k.lo_all)); break;
      case kGreater: r = below(k.lo_code, k.lo_all); break;
      case kGreaterEqual: r = below(k.hi_code, k.hi_all); break;
      default: {
        const Vec equal = core.vand(below(k.hi_code, k.hi_all), negate(below(k.lo_code, k.lo_all)));
        r = n.operation == kEqual ? equal : negate(equal);
        break;
      }
    }
    hvx_io::store(core, y, off, n.count, r);
  }
}

void run_compare(Core& core, const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
  if (n.quantised) return run_quantised_compare(core, k, in, y);
  const bool words = n.in_dtype == OPRIG_DTYPE_INT_32;
  const size_t element = words ? 4 : 1, bytes = n.count * element;
  const Source a = source(core, in[0], k.a_repeats, bytes, element);
  const Source b = source(core, in[1], k.b_repeats, bytes, element);
  bool negate = false;
  if (!words) {
    const Vec one = core.splat_b(1), zero = core.splat_b(0);
    for (size_t off = 0; off < n.count; off += hvx::kVectorBytes) {
      const Pred q = compare_pred(core, n.operation, a.at(core, off), b.at(core, off), false, &negate);
      hvx_io::store(core, y, off, n.count, select01(core, q, negate, one, zero));
    }
    return;
  }
  const Vec one = core.splat_w(1), zero = core.splat_w(0);
  for (size_t first = 0; first < n.count; first += hvx::kVectorBytes) {  // 128 elements: 4 word vectors in
    Vec w[4];
    for (size_t part = 0; part < 4; ++part) {
      const size_t element_index = first + part * kLanes32;
      if (element_index >= n.count) {
        w[part] = zero;
        continue;
      }
      const size_t off = element_index * 4;
      const Pred q = compare_pred(core, n.operation, a.at(core, off), b.at(core, off), true, &negate);
      w[part] = select01(core, q, negate, one, zero);
    }
    hvx_io::store(core, y, first, n.count, narrow_to_bytes(core, w, false));
  }
}

void run_logical(Core& core, const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
  const Vec one = core.splat_b(1), zero = core.splat_b(0);
  const Source a = source(core, in[0], k.a_repeats, n.count, 1);
  const bool binary = n.op == Op::kLogical;
  const Source b = binary ? source(core, in[1], k.b_repeats, n.count, 1) : a;
  for (size_t off = 0; off < n.count; off += hvx::kVectorBytes) {
    const Pred a_false = core.cmp_eq_b(a.at(core, off), zero);
    Vec r;
    if (!binary) {
      r = core.mux(a_false, one, zero);
    } else {
      const Pred b_false = core.cmp_eq_b(b.at(core, off), zero);
      if (n.operation == kAnd)
        r = core.mux(a_false, zero, core.mux(b_false, zero, one));
      else
        r = core.mux(a_false, core.mux(b_false, zero, one), one);
    }
    hvx_io::store(core, y, off, n.count, r);
  }
}

// Cast on bytes (UINT_8, INT_8, BOOL_8) to bytes.
Vec cast_bytes(Core& core, const Vec& x, uint32_t from, uint32_t to, const Vec& one, const Vec& zero) {
  if (to == OPRIG_DTYPE_BOOL_8 || from == OPRIG_DTYPE_BOOL_8) {
    const Vec normal = core.mux(core.cmp_eq_b(x, zero), zero, one);  // any non-zero byte -> 1
    return normal;  // BOOL_8 -> UINT_8/INT_8 is the 0/1 value; x -> BOOL_8 is x != 0
  }
  if (from == to) return x;
  if (from == OPRIG_DTYPE_UINT_8) return core.min_ub(x, core.splat_b(127));  // UINT_8 -> INT_8 saturates
  return core.max_b(x, zero);                                                // INT_8 -> UINT_8 saturates
}

void run_cast(Core& core, const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
  const uint32_t from = n.in_dtype, to = n.out_dtype;
  const size_t in_size = element_bytes(from), out_size = element_bytes(to);
  const auto* x = static_cast<const uint8_t*>(in[0].data);
  const size_t in_bytes = n.count * in_size, out_bytes = n.count * out_size;
  core.map_readable(x, in_bytes);
  if (in_size == 4 && out_size == 4) {  // INT_32 -> INT_32
    for (size_t off = 0; off < in_bytes; off += hvx::kVectorBytes)
      hvx_io::store(core, y, off, out_bytes, hvx_io::load(core, x, off, in_bytes));
    return;
  }
  const Vec one_b = core.splat_b(1), zero_b = core.splat_b(0);
  if (in_size == 1 && out_size == 1) {
    for (size_t off = 0; off < n.count; off += hvx::kVectorBytes)
      hvx_io::store(core, y, off, n.count, cast_bytes(core, hvx_io::load(core, x, off, n.count), from, to, one_b, zero_b));
    return;
  }
  if (in_size == 4) {  // INT_32 -> UINT_8 / INT_8 (saturating) or BOOL_8 (!= 0)
    const Vec one = core.splat_w(1), zero = core.splat_w(0);
    for (size_t first = 0; first < n.count; first += hvx::kVectorBytes) {
      Vec w[4];
      for (size_t part = 0; part < 4; ++part) {
        const size_t index = first + part * kLanes32;
        if (index >= n.count) {
          w[part] = zero;
          continue;
        }
        w[part] = hvx_io::load(core, x, index * 4, in_bytes);
        if (to == OPRIG_DTYPE_BOOL_8) w[part] = core.mux(core.cmp_eq_w(w[part], zero), zero, one);
      }
      hvx_io::store(core, y, first, n.count, narrow_to_bytes(core, w, to == OPRIG_DTYPE_INT_8));
    }
    return;
  }
  // UINT_8 / INT_8 / BOOL_8 -> INT_32: widen by multiplying by 1.
  const Vec one_h = core.splat_h(1);
  for (size_t first = 0; first < n.count; first += hvx::kVectorBytes) {
    Vec v = hvx_io::load(core, x, first, n.count);
    if (from == OPRIG_DTYPE_BOOL_8) v = core.mux(core.cmp_eq_b(v, zero_b), zero_b, one_b);
    // u8 x s8: the signed operand carries the sign, so INT_8 goes second.
    const hvx::VecPair h = from == OPRIG_DTYPE_INT_8 ? core.mpy_ub_b(one_b, v) : core.mpy_ub_b(v, one_b);
    const hvx::VecPair lo = core.mpy_h_h(h.lo, one_h), hi = core.mpy_h_h(h.hi, one_h);
    const Vec parts[4] = {lo.lo, lo.hi, hi.lo, hi.hi};
    for (size_t part = 0; part < 4; ++part) {
      const size_t index = first + part * kLanes32;
      if (index < n.count) hvx_io::store(core, y, index * 4, out_bytes, parts[part]);
    }
  }
}

// Bytes (UINT_8, or INT_8 when is_signed) widened to four vectors of 32-bit
// lanes, elements [32 * part, 32 * part + 32) in part `part`, by multiplying
// by 1 (u8 x s8 -> i16, then i16 x i16 -> i32; a signed operand goes second).
void widen_bytes(Core& core, const Vec& v, bool is_signed, Vec w[4]) {
  const Vec one_b = core.splat_b(1), one_h = core.splat_h(1);
  const hvx::VecPair h = is_signed ? core.mpy_ub_b(one_b, v) : core.mpy_ub_b(v, one_b);
  const hvx::VecPair lo = core.mpy_h_h(h.lo, one_h), hi = core.mpy_h_h(h.hi, one_h);
  w[0] = lo.lo;
  w[1] = lo.hi;
  w[2] = hi.lo;
  w[3] = hi.hi;
}

// x * M (quant.hpp): a left shift as a multiply by 2^left, srdhm_w, rdbpot_w.
Vec scale_by(Core& core, const Vec& x, const quant::Multiplier& mul) {
  const Vec shifted = mul.left > 0 ? core.mpyi_w(x, core.splat_w(1 << mul.left)) : x;
  return core.rdbpot_w(core.srdhm_w(shifted, core.splat_w(mul.m)), static_cast<uint32_t>(mul.right));
}

void run_quant_arithmetic(Core& core, const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
  const quant::ArithmeticParams& p = n.arithmetic;
  const bool is_signed = n.in_dtype == OPRIG_DTYPE_INT_8;
  const Source a = source(core, in[0], k.a_repeats, n.count, 1);
  const Source b = source(core, in[1], k.b_repeats, n.count, 1);
  const Vec in1_offset = core.splat_w(p.in1_offset), in2_offset = core.splat_w(p.in2_offset);
  const Vec out_offset = core.splat_w(p.out_offset), shift20 = core.splat_w(1 << quant::kAddLeftShift);
  const Vec lo = core.splat_w(p.range.lo), hi = core.splat_w(p.range.hi), zero = core.splat_w(0);
  for (size_t first = 0; first < n.count; first += hvx::kVectorBytes) {
    Vec wa[4], wb[4], r[4];
    widen_bytes(core, a.at(core, first), is_signed, wa);
    widen_bytes(core, b.at(core, first), is_signed, wb);
    for (size_t part = 0; part < 4; ++part) {
      if (first + part * kLanes32 >= n.count) {
        r[part] = zero;
        continue;
      }
      const Vec x = core.add_w(wa[part], in1_offset), z = core.add_w(wb[part], in2_offset);
      Vec raw;
      if (n.operation == kMul) {
        raw = scale_by(core, core.mpyi_w(x, z), p.out);
      } else {
        const Vec sx = scale_by(core, core.mpyi_w(x, shift20), p.in1);
        const Vec sz = scale_by(core, core.mpyi_w(z, shift20), p.in2);
        raw = scale_by(core, core.add_w(sx, sz), p.out);
      }
      r[part] = core.min_w(core.max_w(core.add_w(raw, out_offset), lo), hi);
    }
    hvx_io::store(core, y, first, n.count, narrow_to_bytes(core, r, is_signed));
  }
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || ctx->kind != OPRIG_BACKEND_DSP) return OPRIG_STATUS_INVALID_ARGUMENT;
  Node node;
  if (const oprig_status st = parse_node(op_name, params, num_params, &node); st != OPRIG_STATUS_OK) return st;
  auto* k = new (std::nothrow) oprig_kernel;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->node = node;
  *out_kernel = k;
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (k == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  Node& n = k->node;
  if (n.op == Op::kSlice || n.op == Op::kFullyConnected) return OPRIG_STATUS_UNSUPPORTED;  // opencl and vulkan only
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
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info != nullptr) info->dsp_cycles = 0;
  if (k == nullptr || !k->node.prepared || inputs == nullptr || outputs == nullptr || info == nullptr ||
      num_outputs != 1 || num_inputs < 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const Node& n = k->node;
  if (n.count == 0) return OPRIG_STATUS_OK;
  for (size_t i = 0; i < num_inputs; ++i)
    if (inputs[i].data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (outputs[0].data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* y = static_cast<uint8_t*>(outputs[0].data);
  try {
    Core core;  // one per execute: no state shared between instances
    core.map_writable(y, n.count * element_bytes(n.out_dtype));
    switch (n.op) {
      case Op::kCompare: run_compare(core, *k, inputs, y); break;
      case Op::kLogical:
      case Op::kLogicalNot: run_logical(core, *k, inputs, y); break;
      case Op::kCast: run_cast(core, *k, inputs, y); break;
      case Op::kQuantizedArithmetic: run_quant_arithmetic(core, *k, inputs, y); break;
      default: return OPRIG_STATUS_UNSUPPORTED;  // Slice and FullyConnected: not registered for dsp
    }
    info->dsp_cycles = core.cycles();
    return OPRIG_STATUS_OK;
  } catch (const hvx::Fault&) {
    return OPRIG_STATUS_BACKEND_ERROR;
  }
}

void destroy(oprig_kernel* k) { delete k; }

const oprig_implementation_v1 kImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_DSP, create, prepare, execute, destroy,
    nullptr, nullptr, {}};

}  // namespace
}  // namespace oprig::builtins

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                 uint32_t max_version) {
  if (max_version < OPRIG_ABI_VERSION || backend_kind != OPRIG_BACKEND_DSP) return nullptr;
  return &oprig::builtins::kImplementation;
}
