// CAST on the host. NeuralNetworks.h: "This operation ignores the scale and
// zeroPoint of quantized tensors, e.g. it treats a TENSOR_QUANT8_ASYMM input
// as a tensor of uint8 values." So every element is converted as the plain
// number it stores: to a float type by rounding to nearest, to an integer
// type by truncation toward zero, saturated to the type's range (NNAPI's
// reference saturates to [0, 255] for QUANT8_ASYMM; for INT32 the overflow it
// leaves undefined saturates here too, and NaN gives 0); to BOOL_8, x != 0.
// BOOL_8 and INT_8 as source or target of a cast between different types are
// oprig's extension (NNAPI casts them only to their own type).
#include <cmath>
#include <limits>

#include "graph/host_kernels.hpp"
#include "graph/kernel_support.hpp"

namespace oprig::graph::kernels {
namespace {

double load_number(const std::byte* p, oprig_dtype dtype) {
  switch (dtype) {
    case OPRIG_DTYPE_FLOAT_32: return load_float<float>(p, 0);
    case OPRIG_DTYPE_FLOAT_16: return load_float<Half>(p, 0);
    case OPRIG_DTYPE_INT_32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case OPRIG_DTYPE_UINT_8: return static_cast<uint8_t>(*p);
    case OPRIG_DTYPE_INT_8: return static_cast<int8_t>(*p);
    case OPRIG_DTYPE_BOOL_8: return *p != std::byte{0} ? 1.0 : 0.0;
    default: return 0;
  }
}

template <typename I>
I truncate_saturate(double v) {
  if (std::isnan(v)) return 0;
  const double t = std::trunc(v);
  if (t <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (t >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(t);
}

void store_number(double v, std::byte* p, oprig_dtype dtype) {
  switch (dtype) {
    case OPRIG_DTYPE_FLOAT_32: store_float<float>(p, 0, static_cast<float>(v)); break;
    case OPRIG_DTYPE_FLOAT_16: store_float<Half>(p, 0, static_cast<float>(v)); break;
    case OPRIG_DTYPE_INT_32: { const int32_t i = truncate_saturate<int32_t>(v); std::memcpy(p, &i, 4); break; }
    case OPRIG_DTYPE_UINT_8: *p = static_cast<std::byte>(truncate_saturate<uint8_t>(v)); break;
    case OPRIG_DTYPE_INT_8: *p = static_cast<std::byte>(truncate_saturate<int8_t>(v)); break;
    case OPRIG_DTYPE_BOOL_8: *p = std::byte{v != 0}; break;
    default: break;
  }
}

StepStatus cast_step(Exec& x, Frame& f, const Step& s) {
  const Value* a = input(x, f, s, 0);
  if (a == nullptr) return StepStatus::kError;
  Value* y = make_output(x, f, s, 0, a->shape);
  if (y == nullptr) return StepStatus::kError;
  const OperandInfo& in = f.plan->operands[s.op->inputs[0]];
  const OperandInfo& out = f.plan->operands[s.op->outputs[0]];
  const size_t n = a->shape.elements();
  for (size_t i = 0; i < n; ++i)
    store_number(load_number(a->data + i * in.element_size, in.dtype), y->data + i * out.element_size, out.dtype);
  return StepStatus::kOk;
}

}  // namespace

StepFn cast(const Operand&, const Operand&) { return &cast_step; }

}  // namespace oprig::graph::kernels
