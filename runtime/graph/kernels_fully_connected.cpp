// FULLY_CONNECTED on the host (NeuralNetworks.h): outputs = activation(
// inputs * weights' + bias). The input (rank 2 to 4) is read as [batch,
// input_size] with input_size = weights' second dimension; the output is
// [batch, num_units]. Floats accumulate in float in input order and then add
// the bias; TENSOR_FLOAT16 is computed in float and rounded once (NNAPI's
// reference). Quantised: acc = sum((x - x_zero) * (w - w_zero)) + bias in
// int32, then scaled by input_scale * weights_scale / output_scale with
// NNAPI's fixed-point multiplier (quant_math.hpp), offset and clamped to the
// activation's range.
#include <limits>

#include "graph/host_kernels.hpp"
#include "graph/kernel_support.hpp"
#include "graph/quant_math.hpp"

namespace oprig::graph::kernels {
namespace {

struct FcValues {
  const Value *x = nullptr, *w = nullptr, *b = nullptr;
  Value* y = nullptr;
  int64_t batch = 0, units = 0, depth = 0;
  FuseCode act = FuseCode::kNone;
};

bool fc_values(Exec& x, Frame& f, const Step& s, FcValues* v) {
  v->x = input(x, f, s, 0);
  v->w = v->x ? input(x, f, s, 1) : nullptr;
  v->b = v->w ? input(x, f, s, 2) : nullptr;
  if (v->b == nullptr || !read_activation(x, f, s, 3, false, &v->act)) return false;
  const Shape &in = v->x->shape, &w = v->w->shape, &b = v->b->shape;
  if (in.rank < 2 || in.rank > 4 || w.rank != 2 || b.rank != 1) {
    step_error(x, f, s, "needs an input of rank 2 to 4, weights of rank 2 and a bias of rank 1, got " + shape_text(in) +
                            ", " + shape_text(w) + ", " + shape_text(b));
    return false;
  }
  v->units = w.dims[0];
  v->depth = w.dims[1];
  const auto elements = static_cast<int64_t>(in.elements());
  if (v->depth == 0 || v->units == 0 || elements % v->depth != 0 || b.dims[0] != v->units) {
    step_error(x, f, s, "input " + shape_text(in) + ", weights " + shape_text(w) + " and bias " + shape_text(b) +
                            " do not fit together");
    return false;
  }
  v->batch = elements / v->depth;
  Shape out;
  out.rank = 2;
  out.dims[0] = v->batch;
  out.dims[1] = v->units;
  v->y = make_output(x, f, s, 0, out);
  return v->y != nullptr;
}

template <typename T>
StepStatus float_fc(Exec& x, Frame& f, const Step& s) {
  FcValues v;
  if (!fc_values(x, f, s, &v)) return StepStatus::kError;
  for (int64_t n = 0; n < v.batch; ++n)
    for (int64_t u = 0; u < v.units; ++u) {
      float acc = 0.0f;
      for (int64_t d = 0; d < v.depth; ++d)
        acc += load_float<T>(v.x->data, static_cast<size_t>(n * v.depth + d)) *
               load_float<T>(v.w->data, static_cast<size_t>(u * v.depth + d));
      const float total = acc + load_float<T>(v.b->data, static_cast<size_t>(u));
      store_float<T>(v.y->data, static_cast<size_t>(n * v.units + u), apply_activation(total, v.act));
    }
  return StepStatus::kOk;
}

template <typename Q>
StepStatus quantised_fc(Exec& x, Frame& f, const Step& s) {
  FcValues v;
  if (!fc_values(x, f, s, &v)) return StepStatus::kError;
  const Operand& dx = decl(f, s.op->inputs[0]);
  const Operand& dw = decl(f, s.op->inputs[1]);
  const Operand& dy = decl(f, s.op->outputs[0]);
  quant::Multiplier m;
  if (!quant::quantize_multiplier(static_cast<double>(dx.scale) * dw.scale / dy.scale, &m))
    return step_error(x, f, s, "the scales give no representable requantisation multiplier");
  const quant::Range range = quant::activation_range(v.act, dy.scale, dy.zero_point, std::numeric_limits<Q>::min(),
                                                     std::numeric_limits<Q>::max());
  const auto* px = reinterpret_cast<const Q*>(v.x->data);
  const auto* pw = reinterpret_cast<const Q*>(v.w->data);
  const auto* pb = reinterpret_cast<const int32_t*>(v.b->data);
  auto* py = reinterpret_cast<Q*>(v.y->data);
  for (int64_t n = 0; n < v.batch; ++n)
    for (int64_t u = 0; u < v.units; ++u) {
      int32_t acc = 0;
      for (int64_t d = 0; d < v.depth; ++d)
        acc += (static_cast<int32_t>(px[n * v.depth + d]) - dx.zero_point) *
               (static_cast<int32_t>(pw[u * v.depth + d]) - dw.zero_point);
      acc += pb[u];
      const int32_t q = quant::multiply(acc, m) + dy.zero_point;
      py[n * v.units + u] = static_cast<Q>(std::clamp(q, range.lo, range.hi));
    }
  return StepStatus::kOk;
}

}  // namespace

StepFn fully_connected(const Operand& input) {
  switch (tensor_kind(input)) {
    case TensorKind::kFloat32: return &float_fc<float>;
    case TensorKind::kFloat16: return &float_fc<Half>;
    case TensorKind::kQuant8: return &quantised_fc<uint8_t>;
    case TensorKind::kQuant8Signed: return &quantised_fc<int8_t>;
    default: return nullptr;
  }
}

}  // namespace oprig::graph::kernels
