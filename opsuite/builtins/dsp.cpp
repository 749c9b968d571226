// org.oprig.builtins on the dsp backend (liboprig_builtins_dsp.so): the
// fixed-point simulator does the integer and boolean types bit-exactly:
// Compare on INT_32 and BOOL_8, Logical, LogicalNot, and Cast between INT_32,
// UINT_8, INT_8 and BOOL_8. FLOAT_32 (there is no float on the simulated
// DSP) and broadcasts that are not one row (equal shapes, or one side a
// single value) are UNSUPPORTED. HVX programs, 128 bytes per vector:
// comparisons set a predicate and select 1 or 0; a 32-bit result of 32
// lanes per vector is narrowed four vectors at a time (saturating shifts by
// 0) into one vector of bytes, and bytes are widened to 32 bits by
// multiplying by 1 (u8 x s8 -> i16, then i16 x i16 -> i32).
#include <cstring>
#include <exception>
#include <new>
#include <vector>

#include "common/hvx_io.hpp"
#include "node.hpp"

struct oprig_kernel {
  oprig::builtins::Node node;
  bool a_repeats = false, b_repeats = false;
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

void run_compare(Core& core, const oprig_kernel& k, const oprig_tensor* in, uint8_t* y) {
  const Node& n = k.node;
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
  const oprig_status st = plan_node(&n, inputs, num_inputs, outputs, num_outputs);
  if (st != OPRIG_STATUS_OK) return st;
  const auto is_float = [](uint32_t t) { return t == OPRIG_DTYPE_FLOAT_32 || t == OPRIG_DTYPE_FLOAT_16; };
  if (is_float(n.in_dtype) || is_float(n.out_dtype) || (n.plan.merged != 1 && n.count != 0)) {
    n.prepared = false;
    return OPRIG_STATUS_UNSUPPORTED;  // no float on the DSP; strided broadcasts not written
  }
  k->a_repeats = n.plan.a_step() == 0 && n.count > 1;
  k->b_repeats = n.plan.b_step() == 0 && n.count > 1;
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
