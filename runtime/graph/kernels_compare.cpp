// Comparisons (LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL, NOT_EQUAL)
// and LOGICAL_AND / LOGICAL_OR / LOGICAL_NOT on the host, with NNAPI
// broadcasting, giving TENSOR_BOOL8 (0 or 1). Quantised inputs compare their
// real values, computed in float as NNAPI's reference does:
// (q - zero_point) * scale, each input with its own scale and zero point.
#include "graph/host_kernels.hpp"
#include "graph/kernel_support.hpp"

namespace oprig::graph::kernels {
namespace {

template <BuiltinOp Op, typename T>
bool compare(T a, T b) {
  if constexpr (Op == BuiltinOp::kLess) return a < b;
  if constexpr (Op == BuiltinOp::kLessEqual) return a <= b;
  if constexpr (Op == BuiltinOp::kGreater) return a > b;
  if constexpr (Op == BuiltinOp::kGreaterEqual) return a >= b;
  if constexpr (Op == BuiltinOp::kEqual) return a == b;
  return a != b;
}

// Reads element i of a value as the comparison sees it.
template <typename T>
struct Raw {
  const T* p;
  Raw(const Value& v, const Operand&) : p(reinterpret_cast<const T*>(v.data)) {}
  T operator()(size_t i) const { return p[i]; }
};
struct HalfAsFloat {
  const std::byte* p;
  HalfAsFloat(const Value& v, const Operand&) : p(v.data) {}
  float operator()(size_t i) const { return load_float<Half>(p, i); }
};
template <typename Q>
struct RealOf {
  const Q* p;
  int32_t zero_point;
  float scale;
  RealOf(const Value& v, const Operand& d)
      : p(reinterpret_cast<const Q*>(v.data)), zero_point(d.zero_point), scale(d.scale) {}
  float operator()(size_t i) const { return static_cast<float>(static_cast<int32_t>(p[i]) - zero_point) * scale; }
};

template <BuiltinOp Op, typename Reader>
StepStatus compare_step(Exec& x, Frame& f, const Step& s) {
  const Value* a = input(x, f, s, 0);
  const Value* b = a ? input(x, f, s, 1) : nullptr;
  if (b == nullptr) return StepStatus::kError;
  Shape shape;
  if (!broadcast_shape(a->shape, b->shape, &shape))
    return step_error(x, f, s, "input shapes " + shape_text(a->shape) + " and " + shape_text(b->shape) + " do not broadcast");
  Value* y = make_output(x, f, s, 0, shape);
  if (y == nullptr) return StepStatus::kError;
  const Reader ra(*a, decl(f, s.op->inputs[0])), rb(*b, decl(f, s.op->inputs[1]));
  auto* py = reinterpret_cast<uint8_t*>(y->data);
  for_each_broadcast(a->shape, b->shape, y->shape,
                     [&](size_t o, size_t i, size_t j) { py[o] = compare<Op>(ra(i), rb(j)) ? 1 : 0; });
  return StepStatus::kOk;
}

template <BuiltinOp Op>
StepFn compare_for(TensorKind kind) {
  switch (kind) {
    case TensorKind::kBool8: return &compare_step<Op, Raw<uint8_t>>;
    case TensorKind::kFloat16: return &compare_step<Op, HalfAsFloat>;
    case TensorKind::kFloat32: return &compare_step<Op, Raw<float>>;
    case TensorKind::kInt32: return &compare_step<Op, Raw<int32_t>>;
    case TensorKind::kQuant8: return &compare_step<Op, RealOf<uint8_t>>;
    case TensorKind::kQuant8Signed: return &compare_step<Op, RealOf<int8_t>>;
    case TensorKind::kOther: break;
  }
  return nullptr;
}

template <BuiltinOp Op>
StepStatus logical_binary_step(Exec& x, Frame& f, const Step& s) {
  const Value* a = input(x, f, s, 0);
  const Value* b = a ? input(x, f, s, 1) : nullptr;
  if (b == nullptr) return StepStatus::kError;
  Shape shape;
  if (!broadcast_shape(a->shape, b->shape, &shape))
    return step_error(x, f, s, "input shapes " + shape_text(a->shape) + " and " + shape_text(b->shape) + " do not broadcast");
  Value* y = make_output(x, f, s, 0, shape);
  if (y == nullptr) return StepStatus::kError;
  const auto* pa = reinterpret_cast<const uint8_t*>(a->data);
  const auto* pb = reinterpret_cast<const uint8_t*>(b->data);
  auto* py = reinterpret_cast<uint8_t*>(y->data);
  for_each_broadcast(a->shape, b->shape, y->shape, [&](size_t o, size_t i, size_t j) {
    const bool l = pa[i] != 0, r = pb[j] != 0;
    py[o] = (Op == BuiltinOp::kLogicalAnd ? (l && r) : (l || r)) ? 1 : 0;
  });
  return StepStatus::kOk;
}

StepStatus logical_not_step(Exec& x, Frame& f, const Step& s) {
  const Value* a = input(x, f, s, 0);
  if (a == nullptr) return StepStatus::kError;
  Value* y = make_output(x, f, s, 0, a->shape);
  if (y == nullptr) return StepStatus::kError;
  const auto* pa = reinterpret_cast<const uint8_t*>(a->data);
  auto* py = reinterpret_cast<uint8_t*>(y->data);
  const size_t n = a->shape.elements();
  for (size_t i = 0; i < n; ++i) py[i] = pa[i] == 0 ? 1 : 0;
  return StepStatus::kOk;
}

}  // namespace

StepFn comparison(BuiltinOp op, const Operand& input0) {
  const TensorKind kind = tensor_kind(input0);
  switch (op) {
    case BuiltinOp::kLess: return compare_for<BuiltinOp::kLess>(kind);
    case BuiltinOp::kLessEqual: return compare_for<BuiltinOp::kLessEqual>(kind);
    case BuiltinOp::kGreater: return compare_for<BuiltinOp::kGreater>(kind);
    case BuiltinOp::kGreaterEqual: return compare_for<BuiltinOp::kGreaterEqual>(kind);
    case BuiltinOp::kEqual: return compare_for<BuiltinOp::kEqual>(kind);
    case BuiltinOp::kNotEqual: return compare_for<BuiltinOp::kNotEqual>(kind);
    default: return nullptr;
  }
}

StepFn logical(BuiltinOp op) {
  switch (op) {
    case BuiltinOp::kLogicalAnd: return &logical_binary_step<BuiltinOp::kLogicalAnd>;
    case BuiltinOp::kLogicalOr: return &logical_binary_step<BuiltinOp::kLogicalOr>;
    case BuiltinOp::kLogicalNot: return &logical_not_step;
    default: return nullptr;
  }
}

}  // namespace oprig::graph::kernels
