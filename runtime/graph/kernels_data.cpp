// SLICE and CONCATENATION on the host (NeuralNetworks.h). SLICE copies the
// box [begin, begin + size) (size -1: to the end of the dimension); a
// quantised output keeps the input's scale and zero point. CONCATENATION
// joins its inputs along `axis` (0 <= axis < rank); a quantised input whose
// scale or zero point differs from the output's is requantised as NNAPI's
// reference does it, in float: q = round(q_in * s + b) + zero_out, clamped,
// with s = scale_in * (1 / scale_out) and b = -zero_in * s (TENSOR_QUANT8_
// ASYMM_SIGNED goes through the same uint8 arithmetic, offset by 128).
#include <cmath>
#include <vector>

#include "graph/host_kernels.hpp"
#include "graph/kernel_support.hpp"
#include "graph/shape_rules.hpp"

namespace oprig::graph::kernels {
namespace {

StepStatus slice_step(Exec& x, Frame& f, const Step& s) {
  const Value* in = input(x, f, s, 0);
  const Value* begin = in ? input(x, f, s, 1) : nullptr;
  const Value* size = begin ? input(x, f, s, 2) : nullptr;
  if (size == nullptr) return StepStatus::kError;
  const uint32_t rank = in->shape.rank;
  if (rank == 0) return step_error(x, f, s, "the input must have rank 1 or more");
  if (begin->shape.rank != 1 || begin->shape.dims[0] != rank || size->shape.rank != 1 || size->shape.dims[0] != rank)
    return step_error(x, f, s, "begin " + shape_text(begin->shape) + " and size " + shape_text(size->shape) +
                                   " must both be [" + std::to_string(rank) + "]");
  Shape out;
  out.rank = rank;
  std::string why;
  const auto* b = reinterpret_cast<const int32_t*>(begin->data);
  if (!shape_rules::slice_output_dims(in->shape.dims, rank, b, reinterpret_cast<const int32_t*>(size->data), out.dims, &why))
    return step_error(x, f, s, why);
  Value* y = make_output(x, f, s, 0, out);
  if (y == nullptr) return StepStatus::kError;
  const size_t element = f.plan->operands[s.op->inputs[0]].element_size;
  int64_t in_stride[OPRIG_MAX_RANK];
  int64_t stride = 1;
  for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
    in_stride[d] = stride;
    stride *= in->shape.dims[d];
  }
  const size_t n = out.elements();
  int64_t index[OPRIG_MAX_RANK] = {};
  for (size_t o = 0; o < n; ++o) {
    int64_t from = 0;
    for (uint32_t d = 0; d < rank; ++d) from += (index[d] + b[d]) * in_stride[d];
    std::memcpy(y->data + o * element, in->data + static_cast<size_t>(from) * element, element);
    for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
      if (++index[d] < out.dims[d]) break;
      index[d] = 0;
    }
  }
  return StepStatus::kOk;
}

// Requantises n codes of an 8-bit quantised tensor to the output's
// quantisation, through NNAPI's uint8 arithmetic (`offset` 128 maps int8 to
// uint8 and back).
void requantise(const std::byte* src, std::byte* dst, size_t n, const Operand& in, const Operand& out, int32_t offset) {
  const float scale = in.scale * (1.0f / out.scale);
  const float bias = -static_cast<float>(in.zero_point + offset) * scale;
  for (size_t i = 0; i < n; ++i) {
    const int32_t code = offset == 0 ? static_cast<int32_t>(static_cast<uint8_t>(src[i]))
                                     : static_cast<int32_t>(static_cast<int8_t>(src[i])) + offset;
    const int32_t value = static_cast<int32_t>(std::round(static_cast<float>(code) * scale + bias)) + out.zero_point + offset;
    dst[i] = static_cast<std::byte>(static_cast<uint8_t>(std::clamp(value, 0, 255) - offset));
  }
}

StepStatus concatenation_step(Exec& x, Frame& f, const Step& s) {
  const size_t n = s.op->inputs.size() - 1;
  std::vector<const Value*> in(n);
  for (size_t i = 0; i < n; ++i)
    if ((in[i] = input(x, f, s, i)) == nullptr) return StepStatus::kError;
  const Value* axis_value = input(x, f, s, n);
  if (axis_value == nullptr) return StepStatus::kError;
  int32_t axis;
  std::memcpy(&axis, axis_value->data, sizeof axis);
  const uint32_t rank = in[0]->shape.rank;
  if (rank > 4) return step_error(x, f, s, "NNAPI supports rank up to 4 here, got " + shape_text(in[0]->shape));
  if (axis < 0 || static_cast<uint32_t>(axis) >= rank)
    return step_error(x, f, s, "axis " + std::to_string(axis) + " is outside [0, " + std::to_string(rank) + ")");
  Shape out = in[0]->shape;
  out.dims[axis] = 0;
  for (size_t i = 0; i < n; ++i) {
    const Shape& si = in[i]->shape;
    bool fits = si.rank == rank;
    for (uint32_t d = 0; fits && d < rank; ++d) fits = d == static_cast<uint32_t>(axis) || si.dims[d] == out.dims[d];
    if (!fits)
      return step_error(x, f, s, "input " + std::to_string(i) + " " + shape_text(si) + " does not match input 0 " +
                                     shape_text(in[0]->shape) + " outside axis " + std::to_string(axis));
    out.dims[axis] += si.dims[axis];
  }
  Value* y = make_output(x, f, s, 0, out);
  if (y == nullptr) return StepStatus::kError;
  const Operand& dy = decl(f, s.op->outputs[0]);
  const size_t element = f.plan->operands[s.op->outputs[0]].element_size;
  size_t outer = 1, inner = 1;
  for (int32_t d = 0; d < axis; ++d) outer *= static_cast<size_t>(out.dims[d]);
  for (uint32_t d = static_cast<uint32_t>(axis) + 1; d < rank; ++d) inner *= static_cast<size_t>(out.dims[d]);
  std::byte* dst = y->data;
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < n; ++i) {
      const size_t count = static_cast<size_t>(in[i]->shape.dims[axis]) * inner;
      if (count == 0) continue;  // an empty input (the [1, 0] start of a growing loop tensor) has no data pointer
      const std::byte* src = in[i]->data + o * count * element;
      const Operand& di = decl(f, s.op->inputs[i]);
      const bool same_quantisation = di.scale == dy.scale && di.zero_point == dy.zero_point;
      if (dy.scale == 0 || same_quantisation)
        std::memcpy(dst, src, count * element);
      else
        requantise(src, dst, count, di, dy, di.dtype == OPRIG_DTYPE_INT_8 ? 128 : 0);
      dst += count * element;
    }
  return StepStatus::kOk;
}

}  // namespace

StepFn slice(const Operand& input) {
  const TensorKind k = tensor_kind(input);
  return k == TensorKind::kOther || k == TensorKind::kBool8 ? nullptr : &slice_step;
}

StepFn concatenation(const Operand& input0) {
  const TensorKind k = tensor_kind(input0);
  return k == TensorKind::kFloat32 || k == TensorKind::kFloat16 || is_quant8(k) ? &concatenation_step : nullptr;
}

}  // namespace oprig::graph::kernels
