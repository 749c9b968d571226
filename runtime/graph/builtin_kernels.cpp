// Host kernels of the built-in operations. Operand types are fixed at
// prepare, so each operation gets a kernel specialised for its types; only
// shapes are looked at per run.
//
// INT_32 arithmetic wraps around (two's complement), as a loop counter would
// on a device, instead of being undefined. Quantised ADD/SUB/MUL dequantise
// both inputs (real = scale * (q - zero_point)), compute in double, and
// requantise: q = round(real / out_scale) + out_zero_point, rounded half away
// from zero, then clamped to the type's range. CAST goes through the same
// real value: quantised -> dequantised; to a quantised type -> requantised
// as above; to INT_32 (or a non-quantised 8-bit integer) -> truncated toward
// zero and saturated, NaN -> 0; to BOOL_8 -> real != 0.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "graph/runtime_types.hpp"

namespace oprig::graph {
namespace {

template <typename T>
T wrapping(T a, T b, BuiltinOp op) {
  if constexpr (std::is_same_v<T, int32_t>) {
    const auto ua = static_cast<uint32_t>(a), ub = static_cast<uint32_t>(b);
    const uint32_t r = op == BuiltinOp::kAdd ? ua + ub : op == BuiltinOp::kSub ? ua - ub : ua * ub;
    return static_cast<int32_t>(r);
  } else {
    return op == BuiltinOp::kAdd ? a + b : op == BuiltinOp::kSub ? a - b : a * b;
  }
}

template <BuiltinOp Op>
struct Arithmetic {
  template <typename T>
  T operator()(T a, T b) const { return wrapping(a, b, Op); }
};

template <BuiltinOp Op>
struct Compare {
  template <typename T>
  uint8_t operator()(T a, T b) const {
    switch (Op) {
      case BuiltinOp::kLess: return a < b;
      case BuiltinOp::kLessEqual: return a <= b;
      case BuiltinOp::kGreater: return a > b;
      case BuiltinOp::kGreaterEqual: return a >= b;
      case BuiltinOp::kEqual: return a == b;
      default: return a != b;
    }
  }
};

struct LogicalAnd {
  uint8_t operator()(uint8_t a, uint8_t b) const { return (a != 0) && (b != 0); }
};
struct LogicalOr {
  uint8_t operator()(uint8_t a, uint8_t b) const { return (a != 0) || (b != 0); }
};

// The broadcast shape of two present values, or nullptr.
const Shape* broadcast_shape(const Value& a, const Value& b, size_t* na, size_t* nb) {
  *na = a.shape.elements();
  *nb = b.shape.elements();
  if (a.shape == b.shape || *nb == 1) return &a.shape;
  if (*na == 1) return &b.shape;
  return nullptr;
}

StepStatus shape_error(Exec& x, const Frame& f, const Step& s, const Value& a, const Value& b) {
  auto text = [](const Shape& sh) {
    std::string t = "[";
    for (uint32_t i = 0; i < sh.rank; ++i) t += (i ? "," : "") + std::to_string(sh.dims[i]);
    return t + "]";
  };
  return step_error(x, f, s, "input shapes " + text(a.shape) + " and " + text(b.shape) + " do not broadcast");
}

template <typename In, typename Out, typename Fn>
StepStatus binary_step(Exec& x, Frame& f, const Step& s) {
  const Value& a = f.values[s.op->inputs[0]];
  const Value& b = f.values[s.op->inputs[1]];
  if (!a.present || !b.present) return step_error(x, f, s, "an input has no value");
  size_t na, nb;
  const Shape* shape = broadcast_shape(a, b, &na, &nb);
  if (shape == nullptr) return shape_error(x, f, s, a, b);
  Value* y = make_output(x, f, s, 0, *shape);
  if (y == nullptr) return StepStatus::kError;
  const In* pa = reinterpret_cast<const In*>(a.data);
  const In* pb = reinterpret_cast<const In*>(b.data);
  Out* py = reinterpret_cast<Out*>(y->data);
  const size_t n = y->shape.elements(), sa = na == 1 ? 0 : 1, sb = nb == 1 ? 0 : 1;
  const Fn fn{};
  for (size_t i = 0; i < n; ++i) py[i] = fn(pa[i * sa], pb[i * sb]);
  return StepStatus::kOk;
}

template <typename Q>
Q requantise(double real, double scale, int32_t zero_point) {
  const double q = std::round(real / scale) + zero_point;  // std::round: half away from zero
  if (!(q >= std::numeric_limits<Q>::min())) return std::numeric_limits<Q>::min();  // also NaN
  if (q > std::numeric_limits<Q>::max()) return std::numeric_limits<Q>::max();
  return static_cast<Q>(q);
}

template <typename Q, BuiltinOp Op>
StepStatus quantised_step(Exec& x, Frame& f, const Step& s) {
  const Value& a = f.values[s.op->inputs[0]];
  const Value& b = f.values[s.op->inputs[1]];
  if (!a.present || !b.present) return step_error(x, f, s, "an input has no value");
  size_t na, nb;
  const Shape* shape = broadcast_shape(a, b, &na, &nb);
  if (shape == nullptr) return shape_error(x, f, s, a, b);
  Value* y = make_output(x, f, s, 0, *shape);
  if (y == nullptr) return StepStatus::kError;
  const Operand& qa = *f.plan->operands[s.op->inputs[0]].decl;
  const Operand& qb = *f.plan->operands[s.op->inputs[1]].decl;
  const Operand& qy = *f.plan->operands[s.op->outputs[0]].decl;
  const Q* pa = reinterpret_cast<const Q*>(a.data);
  const Q* pb = reinterpret_cast<const Q*>(b.data);
  Q* py = reinterpret_cast<Q*>(y->data);
  const size_t n = y->shape.elements(), sa = na == 1 ? 0 : 1, sb = nb == 1 ? 0 : 1;
  for (size_t i = 0; i < n; ++i) {
    const double ra = static_cast<double>(qa.scale) * (pa[i * sa] - qa.zero_point);
    const double rb = static_cast<double>(qb.scale) * (pb[i * sb] - qb.zero_point);
    const double r = Op == BuiltinOp::kAdd ? ra + rb : Op == BuiltinOp::kSub ? ra - rb : ra * rb;
    py[i] = requantise<Q>(r, qy.scale, qy.zero_point);
  }
  return StepStatus::kOk;
}

StepStatus logical_not_step(Exec& x, Frame& f, const Step& s) {
  const Value& a = f.values[s.op->inputs[0]];
  if (!a.present) return step_error(x, f, s, "the input has no value");
  Value* y = make_output(x, f, s, 0, a.shape);
  if (y == nullptr) return StepStatus::kError;
  const size_t n = a.shape.elements();
  for (size_t i = 0; i < n; ++i) y->data[i] = std::byte{a.data[i] == std::byte{0}};
  return StepStatus::kOk;
}

double load_real(const std::byte* p, const Operand& o) {
  double v = 0;
  switch (o.dtype) {
    case OPRIG_DTYPE_FLOAT_32: v = *reinterpret_cast<const float*>(p); break;
    case OPRIG_DTYPE_INT_32: v = *reinterpret_cast<const int32_t*>(p); break;
    case OPRIG_DTYPE_UINT_8: v = *reinterpret_cast<const uint8_t*>(p); break;
    case OPRIG_DTYPE_INT_8: v = *reinterpret_cast<const int8_t*>(p); break;
    case OPRIG_DTYPE_BOOL_8: v = *reinterpret_cast<const uint8_t*>(p) != 0; break;
    default: break;
  }
  return o.scale != 0 ? static_cast<double>(o.scale) * (v - o.zero_point) : v;
}

template <typename I>
I truncate_saturate(double r) {
  if (std::isnan(r)) return 0;
  const double t = std::trunc(r);
  if (t <= std::numeric_limits<I>::min()) return std::numeric_limits<I>::min();
  if (t >= std::numeric_limits<I>::max()) return std::numeric_limits<I>::max();
  return static_cast<I>(t);
}

void store_real(double r, std::byte* p, const Operand& o) {
  switch (o.dtype) {
    case OPRIG_DTYPE_FLOAT_32: *reinterpret_cast<float*>(p) = static_cast<float>(r); break;
    case OPRIG_DTYPE_INT_32: *reinterpret_cast<int32_t*>(p) = truncate_saturate<int32_t>(r); break;
    case OPRIG_DTYPE_UINT_8:
      *reinterpret_cast<uint8_t*>(p) =
          o.scale != 0 ? requantise<uint8_t>(r, o.scale, o.zero_point) : truncate_saturate<uint8_t>(r);
      break;
    case OPRIG_DTYPE_INT_8:
      *reinterpret_cast<int8_t*>(p) =
          o.scale != 0 ? requantise<int8_t>(r, o.scale, o.zero_point) : truncate_saturate<int8_t>(r);
      break;
    case OPRIG_DTYPE_BOOL_8: *reinterpret_cast<uint8_t*>(p) = r != 0; break;
    default: break;
  }
}

StepStatus cast_step(Exec& x, Frame& f, const Step& s) {
  const Value& a = f.values[s.op->inputs[0]];
  if (!a.present) return step_error(x, f, s, "the input has no value");
  Value* y = make_output(x, f, s, 0, a.shape);
  if (y == nullptr) return StepStatus::kError;
  const OperandInfo& in = f.plan->operands[s.op->inputs[0]];
  const OperandInfo& out = f.plan->operands[s.op->outputs[0]];
  const size_t n = a.shape.elements();
  for (size_t i = 0; i < n; ++i)
    store_real(load_real(a.data + i * in.element_size, *in.decl), y->data + i * out.element_size, *out.decl);
  return StepStatus::kOk;
}

template <BuiltinOp Op>
StepFn arithmetic_kernel(const Operand& a) {
  if (a.scale != 0) {
    if (a.dtype == OPRIG_DTYPE_UINT_8) return &quantised_step<uint8_t, Op>;
    if (a.dtype == OPRIG_DTYPE_INT_8) return &quantised_step<int8_t, Op>;
    return nullptr;
  }
  if (a.dtype == OPRIG_DTYPE_INT_32) return &binary_step<int32_t, int32_t, Arithmetic<Op>>;
  if (a.dtype == OPRIG_DTYPE_FLOAT_32) return &binary_step<float, float, Arithmetic<Op>>;
  return nullptr;
}

template <BuiltinOp Op>
StepFn compare_kernel(const Operand& a) {
  if (a.dtype == OPRIG_DTYPE_INT_32) return &binary_step<int32_t, uint8_t, Compare<Op>>;
  if (a.dtype == OPRIG_DTYPE_FLOAT_32) return &binary_step<float, uint8_t, Compare<Op>>;
  if (a.dtype == OPRIG_DTYPE_BOOL_8) return &binary_step<uint8_t, uint8_t, Compare<Op>>;
  return nullptr;
}

}  // namespace

StepFn builtin_kernel(BuiltinOp op, const Plan& plan, const Operation& operation) {
  const Operand& a = *plan.operands[operation.inputs.at(0)].decl;
  switch (op) {
    case BuiltinOp::kAdd: return arithmetic_kernel<BuiltinOp::kAdd>(a);
    case BuiltinOp::kSub: return arithmetic_kernel<BuiltinOp::kSub>(a);
    case BuiltinOp::kMul: return arithmetic_kernel<BuiltinOp::kMul>(a);
    case BuiltinOp::kLess: return compare_kernel<BuiltinOp::kLess>(a);
    case BuiltinOp::kLessEqual: return compare_kernel<BuiltinOp::kLessEqual>(a);
    case BuiltinOp::kGreater: return compare_kernel<BuiltinOp::kGreater>(a);
    case BuiltinOp::kGreaterEqual: return compare_kernel<BuiltinOp::kGreaterEqual>(a);
    case BuiltinOp::kEqual: return compare_kernel<BuiltinOp::kEqual>(a);
    case BuiltinOp::kNotEqual: return compare_kernel<BuiltinOp::kNotEqual>(a);
    case BuiltinOp::kLogicalAnd: return &binary_step<uint8_t, uint8_t, LogicalAnd>;
    case BuiltinOp::kLogicalOr: return &binary_step<uint8_t, uint8_t, LogicalOr>;
    case BuiltinOp::kLogicalNot: return &logical_not_step;
    case BuiltinOp::kCast: return &cast_step;
    case BuiltinOp::kIf: return &run_if;
    case BuiltinOp::kWhile: return &run_while;
  }
  return nullptr;
}

}  // namespace oprig::graph
