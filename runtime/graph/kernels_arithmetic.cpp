// ADD, SUB, MUL, DIV on the host, as NeuralNetworks.h defines them: NNAPI
// broadcasting, the fused activation applied to the result, TENSOR_FLOAT16
// computed in float and rounded once to binary16 (NNAPI's reference
// binaryOperationFloat16), TENSOR_INT32 in two's complement (wrapping where
// NNAPI's reference would overflow), DIV on TENSOR_INT32 as floor division
// with x / 0 = 0 (the doc leaves it undefined; NNAPI's reference returns 0),
// and the quantised types through NNAPI's fixed-point requantisation
// (quant_math.hpp).
#include <limits>

#include "graph/host_kernels.hpp"
#include "graph/kernel_support.hpp"
#include "graph/quant_math.hpp"

namespace oprig::graph::kernels {
namespace {

template <BuiltinOp Op>
float float_op(float a, float b) {
  if constexpr (Op == BuiltinOp::kAdd) return a + b;
  if constexpr (Op == BuiltinOp::kSub) return a - b;
  if constexpr (Op == BuiltinOp::kMul) return a * b;
  return a / b;
}

template <BuiltinOp Op>
int32_t int_op(int32_t a, int32_t b) {
  const auto ua = static_cast<uint32_t>(a), ub = static_cast<uint32_t>(b);
  if constexpr (Op == BuiltinOp::kAdd) return static_cast<int32_t>(ua + ub);
  if constexpr (Op == BuiltinOp::kSub) return static_cast<int32_t>(ua - ub);
  if constexpr (Op == BuiltinOp::kMul) return static_cast<int32_t>(ua * ub);
  if (b == 0) return 0;
  if (b == -1) return static_cast<int32_t>(0u - ua);  // INT32_MIN / -1 wraps to INT32_MIN
  int32_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;  // floor, like Python's //
  return q;
}

struct BinaryValues {
  const Value* a = nullptr;
  const Value* b = nullptr;
  Value* y = nullptr;
};

bool binary_values(Exec& x, Frame& f, const Step& s, BinaryValues* v) {
  v->a = input(x, f, s, 0);
  v->b = v->a ? input(x, f, s, 1) : nullptr;
  if (v->b == nullptr) return false;
  if (v->a->shape.rank > 4 || v->b->shape.rank > 4) {
    step_error(x, f, s, "NNAPI supports rank up to 4 here, got " + shape_text(v->a->shape) + " and " + shape_text(v->b->shape));
    return false;
  }
  Shape shape;
  if (!broadcast_shape(v->a->shape, v->b->shape, &shape)) {
    step_error(x, f, s, "input shapes " + shape_text(v->a->shape) + " and " + shape_text(v->b->shape) + " do not broadcast");
    return false;
  }
  v->y = make_output(x, f, s, 0, shape);
  return v->y != nullptr;
}

template <typename T, BuiltinOp Op>
StepStatus float_step(Exec& x, Frame& f, const Step& s) {
  BinaryValues v;
  FuseCode act;
  if (!binary_values(x, f, s, &v) || !read_activation(x, f, s, 2, false, &act)) return StepStatus::kError;
  const std::byte *pa = v.a->data, *pb = v.b->data;
  std::byte* py = v.y->data;
  for_each_broadcast(v.a->shape, v.b->shape, v.y->shape, [&](size_t o, size_t i, size_t j) {
    store_float<T>(py, o, apply_activation(float_op<Op>(load_float<T>(pa, i), load_float<T>(pb, j)), act));
  });
  return StepStatus::kOk;
}

template <BuiltinOp Op>
StepStatus int32_step(Exec& x, Frame& f, const Step& s) {
  BinaryValues v;
  FuseCode act;
  if (!binary_values(x, f, s, &v) || !read_activation(x, f, s, 2, true, &act)) return StepStatus::kError;
  const auto* pa = reinterpret_cast<const int32_t*>(v.a->data);
  const auto* pb = reinterpret_cast<const int32_t*>(v.b->data);
  auto* py = reinterpret_cast<int32_t*>(v.y->data);
  for_each_broadcast(v.a->shape, v.b->shape, v.y->shape,
                     [&](size_t o, size_t i, size_t j) { py[o] = int_op<Op>(pa[i], pb[j]); });
  return StepStatus::kOk;
}

template <typename Q, BuiltinOp Op>
StepStatus quantised_step(Exec& x, Frame& f, const Step& s) {
  BinaryValues v;
  FuseCode act;
  if (!binary_values(x, f, s, &v) || !read_activation(x, f, s, 2, false, &act)) return StepStatus::kError;
  const Operand& qa = decl(f, s.op->inputs[0]);
  const Operand& qb = decl(f, s.op->inputs[1]);
  const Operand& qy = decl(f, s.op->outputs[0]);
  const quant::Range range = quant::activation_range(act, qy.scale, qy.zero_point, std::numeric_limits<Q>::min(),
                                                     std::numeric_limits<Q>::max());
  const auto* pa = reinterpret_cast<const Q*>(v.a->data);
  const auto* pb = reinterpret_cast<const Q*>(v.b->data);
  auto* py = reinterpret_cast<Q*>(v.y->data);
  if constexpr (Op == BuiltinOp::kMul) {
    quant::MulParams p;
    if (!quant::mul_params(qa.scale, qa.zero_point, qb.scale, qb.zero_point, qy.scale, qy.zero_point, &p))
      return step_error(x, f, s, "the scales give no requantisation multiplier below 1");
    for_each_broadcast(v.a->shape, v.b->shape, v.y->shape, [&](size_t o, size_t i, size_t j) {
      py[o] = static_cast<Q>(quant::mul_quantised(pa[i], pb[j], p, range));
    });
  } else {
    quant::AddParams p;
    if (!quant::add_params(qa.scale, qa.zero_point, qb.scale, qb.zero_point, qy.scale, qy.zero_point,
                           Op == BuiltinOp::kSub, &p))
      return step_error(x, f, s, "the scales give no requantisation multipliers below 1");
    for_each_broadcast(v.a->shape, v.b->shape, v.y->shape, [&](size_t o, size_t i, size_t j) {
      py[o] = static_cast<Q>(quant::add_quantised(pa[i], pb[j], p, range));
    });
  }
  return StepStatus::kOk;
}

template <BuiltinOp Op>
StepFn for_kind(TensorKind kind) {
  switch (kind) {
    case TensorKind::kFloat32: return &float_step<float, Op>;
    case TensorKind::kFloat16: return &float_step<Half, Op>;
    case TensorKind::kInt32: return &int32_step<Op>;
    case TensorKind::kQuant8:
      if constexpr (Op != BuiltinOp::kDiv) return &quantised_step<uint8_t, Op>;
      break;
    case TensorKind::kQuant8Signed:
      if constexpr (Op != BuiltinOp::kDiv) return &quantised_step<int8_t, Op>;
      break;
    default: break;
  }
  return nullptr;
}

}  // namespace

StepFn arithmetic(BuiltinOp op, const Operand& input0) {
  const TensorKind kind = tensor_kind(input0);
  switch (op) {
    case BuiltinOp::kAdd: return for_kind<BuiltinOp::kAdd>(kind);
    case BuiltinOp::kSub: return for_kind<BuiltinOp::kSub>(kind);
    case BuiltinOp::kMul: return for_kind<BuiltinOp::kMul>(kind);
    case BuiltinOp::kDiv: return for_kind<BuiltinOp::kDiv>(kind);
    default: return nullptr;
  }
}

}  // namespace oprig::graph::kernels
