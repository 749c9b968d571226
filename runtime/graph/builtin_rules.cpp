// The load-time type rules of the built-in operations: operand kinds,
// counts, ranks, quantisation and constant arguments, as NeuralNetworks.h
// documents each operation (runtime/graph/README.md, "Built-ins", quotes the
// rule and where it comes from). Shapes that are declared unknown pass here
// and are checked by the host kernels when they run.
#include <cmath>
#include <cstring>
#include <initializer_list>

#include "core/dtype.hpp"
#include "graph/builtin_types.hpp"
#include "graph/quant_math.hpp"
#include "graph/shape_rules.hpp"

namespace oprig::graph::shape_rules {
namespace {

std::optional<std::vector<int32_t>> constant_int32s(const Operand& o) {
  if (o.lifetime != Lifetime::kConstant || o.dtype != OPRIG_DTYPE_INT_32) return std::nullopt;
  std::vector<int32_t> v(o.value.size() / sizeof(int32_t));
  if (!v.empty()) std::memcpy(v.data(), o.value.data(), v.size() * sizeof(int32_t));
  return v;
}

std::optional<size_t> rank_of(const Operand& o) {
  return o.dims ? std::optional<size_t>(o.dims->size()) : std::nullopt;
}

class Rules {
 public:
  Rules(BuiltinOp op, const std::vector<const Operand*>& in, const std::vector<const Operand*>& out, std::string* why,
        int* culprit)
      : op_(op), in_(in), out_(out), why_(why), culprit_(culprit) {}

  bool check() {
    switch (op_) {
      case BuiltinOp::kAdd:
      case BuiltinOp::kSub:
      case BuiltinOp::kMul:
      case BuiltinOp::kDiv: return arithmetic();
      case BuiltinOp::kLess:
      case BuiltinOp::kLessEqual:
      case BuiltinOp::kGreater:
      case BuiltinOp::kGreaterEqual:
      case BuiltinOp::kEqual:
      case BuiltinOp::kNotEqual: return comparison();
      case BuiltinOp::kLogicalAnd:
      case BuiltinOp::kLogicalOr:
      case BuiltinOp::kLogicalNot: return logical();
      case BuiltinOp::kCast: return cast();
      case BuiltinOp::kFullyConnected: return fully_connected();
      case BuiltinOp::kSlice: return slice();
      case BuiltinOp::kConcatenation: return concatenation();
      case BuiltinOp::kIf:
      case BuiltinOp::kWhile: break;
    }
    return true;
  }

 private:
  bool bad(int who, std::string reason) {
    *why_ = std::move(reason);
    *culprit_ = who;
    return false;
  }
  int output_index() const { return static_cast<int>(in_.size()); }
  static std::string type(const Operand& o) { return operand_type_text(o); }

  bool arity(std::initializer_list<size_t> inputs) {
    for (size_t n : inputs)
      if (in_.size() == n && out_.size() == 1) return true;
    std::string counts;
    for (size_t n : inputs) counts += (counts.empty() ? "" : " or ") + std::to_string(n);
    return bad(-1, "takes " + counts + " input(s) and 1 output, has " + std::to_string(in_.size()) + " and " +
                       std::to_string(out_.size()));
  }

  // Input `i` is a tensor of one of `allowed`; returns its kind or kOther
  // after setting the error.
  bool kind_in(size_t i, std::initializer_list<TensorKind> allowed, TensorKind* kind) {
    *kind = tensor_kind(*in_[i]);
    for (TensorKind k : allowed)
      if (k == *kind) return true;
    std::string names;
    for (TensorKind k : allowed) names += (names.empty() ? "" : ", ") + std::string(tensor_kind_name(k));
    return bad(static_cast<int>(i), "input " + std::to_string(i) + " must be one of " + names + ", is " + type(*in_[i]));
  }

  bool same_kind_inputs(size_t from, size_t to, TensorKind kind) {
    for (size_t i = from; i < to; ++i)
      if (tensor_kind(*in_[i]) != kind)
        return bad(static_cast<int>(i), "inputs must have the same type: input 0 is " + type(*in_[0]) + ", input " +
                                            std::to_string(i) + " is " + type(*in_[i]));
    return true;
  }

  bool output_kind(TensorKind kind) {
    const Operand& y = *out_[0];
    if (tensor_kind(y) != kind)
      return bad(output_index(), "output must be " + std::string(tensor_kind_name(kind)) + ", is " + type(y));
    return true;
  }

  bool max_rank(size_t i, size_t limit) {
    const auto r = rank_of(*in_[i]);
    if (r && *r > limit)
      return bad(static_cast<int>(i), "input " + std::to_string(i) + " has rank " + std::to_string(*r) +
                                          "; NNAPI supports rank up to " + std::to_string(limit) + " here");
    return true;
  }

  // The activation operand: an INT32 scalar holding a FuseCode; NONE for
  // TENSOR_INT32 (NNAPI: "For a TENSOR_INT32 tensor, the FuseCode must be
  // NONE"). A constant is checked now, any other value when the kernel runs.
  bool activation(size_t i, TensorKind kind) {
    const Operand& a = *in_[i];
    if (!is_int32_scalar(a))
      return bad(static_cast<int>(i), "input " + std::to_string(i) + " (the fused activation) must be an INT32 scalar, is " +
                                          type(a));
    if (const auto v = constant_int32s(a); v && v->size() == 1) {
      if (!is_fuse_code((*v)[0]))
        return bad(static_cast<int>(i), "fused activation " + std::to_string((*v)[0]) +
                                            " is not a FuseCode (0 NONE, 1 RELU, 2 RELU1, 3 RELU6)");
      if (kind == TensorKind::kInt32 && (*v)[0] != 0)
        return bad(static_cast<int>(i), "TENSOR_INT32 takes only the fused activation NONE (0), got " +
                                            std::to_string((*v)[0]));
    }
    return true;
  }

  bool output_dims(const std::optional<std::vector<int64_t>>& result) {
    const Operand& y = *out_[0];
    if (result && !dims_compatible(result, y.dims))
      return bad(output_index(), "output is declared " + dims_text(y.dims) + ", the result is " + dims_text(result));
    return true;
  }

  bool broadcast_output() {
    const Operand& a = *in_[0];
    const Operand& b = *in_[1];
    std::optional<std::vector<int64_t>> result;
    if (!broadcast_declared(a.dims, b.dims, &result))
      return bad(1, "shapes " + dims_text(a.dims) + " and " + dims_text(b.dims) +
                        " do not broadcast (each trailing dimension pair must be equal or contain a 1)");
    return output_dims(result);
  }

  bool arithmetic() {
    const bool div = op_ == BuiltinOp::kDiv;
    if (!arity({2, 3})) return false;
    TensorKind kind;
    const bool ok_kind = div ? kind_in(0, {TensorKind::kFloat32, TensorKind::kFloat16, TensorKind::kInt32}, &kind)
                             : kind_in(0, {TensorKind::kFloat32, TensorKind::kFloat16, TensorKind::kInt32,
                                           TensorKind::kQuant8, TensorKind::kQuant8Signed}, &kind);
    if (!ok_kind || !same_kind_inputs(1, 2, kind) || !output_kind(kind)) return false;
    if (!max_rank(0, 4) || !max_rank(1, 4)) return false;
    if (in_.size() == 3 && !activation(2, kind)) return false;
    if (is_quant8(kind)) {
      const Operand &a = *in_[0], &b = *in_[1], &y = *out_[0];
      if (op_ == BuiltinOp::kMul) {
        quant::MulParams p;
        if (!(static_cast<double>(y.scale) > static_cast<double>(a.scale) * b.scale) ||
            !quant::mul_params(a.scale, a.zero_point, b.scale, b.zero_point, y.scale, y.zero_point, &p))
          return bad(output_index(), "quantised MUL needs output scale > input0 scale * input1 scale (NNAPI), got " +
                                         std::to_string(y.scale) + " <= " + std::to_string(a.scale) + " * " +
                                         std::to_string(b.scale));
      } else {
        quant::AddParams p;
        if (!quant::add_params(a.scale, a.zero_point, b.scale, b.zero_point, y.scale, y.zero_point,
                               op_ == BuiltinOp::kSub, &p))
          return bad(output_index(), "the output scale " + std::to_string(y.scale) +
                                         " is too small for the input scales: NNAPI's requantisation needs 2 * max(input scales) < 2^20 * output scale");
      }
    }
    return broadcast_output();
  }

  bool comparison() {
    if (!arity({2})) return false;
    TensorKind kind;
    if (!kind_in(0, {TensorKind::kBool8, TensorKind::kFloat16, TensorKind::kFloat32, TensorKind::kInt32,
                     TensorKind::kQuant8, TensorKind::kQuant8Signed}, &kind))
      return false;
    if (!same_kind_inputs(1, 2, kind) || !output_kind(TensorKind::kBool8)) return false;
    return broadcast_output();
  }

  bool logical() {
    const bool unary = op_ == BuiltinOp::kLogicalNot;
    if (!arity({unary ? size_t{1} : size_t{2}})) return false;
    TensorKind kind;
    if (!kind_in(0, {TensorKind::kBool8}, &kind)) return false;
    if (!unary && !same_kind_inputs(1, 2, kind)) return false;
    if (!output_kind(TensorKind::kBool8)) return false;
    return unary ? output_dims(in_[0]->dims) : broadcast_output();
  }

  // oprig's CAST covers NNAPI's pairs (FLOAT16, FLOAT32, INT32, QUANT8_ASYMM
  // as raw uint8) plus BOOL_8 and INT_8 both ways; scale is ignored.
  bool cast() {
    if (!arity({1})) return false;
    auto castable = [](const Operand& o) {
      if (o.scalar || o.extension || o.is_subgraph_reference) return false;
      return o.dtype == OPRIG_DTYPE_INT_32 || o.dtype == OPRIG_DTYPE_FLOAT_32 || o.dtype == OPRIG_DTYPE_FLOAT_16 ||
             o.dtype == OPRIG_DTYPE_UINT_8 || o.dtype == OPRIG_DTYPE_INT_8 || o.dtype == OPRIG_DTYPE_BOOL_8;
    };
    if (!castable(*in_[0])) return bad(0, "cannot cast from " + type(*in_[0]));
    if (!castable(*out_[0])) return bad(output_index(), "cannot cast to " + type(*out_[0]));
    if (!dims_compatible(in_[0]->dims, out_[0]->dims))
      return bad(output_index(), "output shape " + dims_text(out_[0]->dims) + " differs from input " + dims_text(in_[0]->dims));
    return true;
  }

  bool fully_connected() {
    if (!arity({4})) return false;
    TensorKind kind;
    if (!kind_in(0, {TensorKind::kFloat32, TensorKind::kFloat16, TensorKind::kQuant8, TensorKind::kQuant8Signed}, &kind))
      return false;
    if (!same_kind_inputs(1, 2, kind) || !output_kind(kind) || !activation(3, kind)) return false;
    const Operand &x = *in_[0], &w = *in_[1], &bias = *in_[2];
    if (is_quant8(kind)) {
      // NNAPI: the bias is TENSOR_INT32 with zeroPoint 0 and scale
      // input_scale * weights_scale (the reference accepts a relative
      // difference of 1e-6).
      const double product = static_cast<double>(x.scale) * w.scale;
      if (bias.scalar || bias.extension || bias.dtype != OPRIG_DTYPE_INT_32 || bias.zero_point != 0 ||
          !(std::fabs(bias.scale - product) <= 1e-6 * std::min<double>(bias.scale, product)))
        return bad(2, "the bias of a quantised FULLY_CONNECTED is INT_32 with scale input scale * weights scale (" +
                          std::to_string(product) + ") and zero point 0, is " + type(bias));
      quant::Multiplier m;
      if (!quant::quantize_multiplier(product / out_[0]->scale, &m))
        return bad(output_index(), "the output scale gives a requantisation multiplier NNAPI cannot represent");
    } else if (tensor_kind(bias) != kind) {
      return bad(2, "the bias must be " + std::string(tensor_kind_name(kind)) + ", is " + type(bias));
    }
    const auto rx = rank_of(x), rw = rank_of(w), rb = rank_of(bias);
    if (rx && (*rx < 2 || *rx > 4)) return bad(0, "the input has rank " + std::to_string(*rx) + "; NNAPI needs 2 to 4");
    if (rw && *rw != 2) return bad(1, "the weights must have rank 2, have " + std::to_string(*rw));
    if (rb && *rb != 1) return bad(2, "the bias must have rank 1, has " + std::to_string(*rb));
    if (!rw) return true;
    const int64_t units = (*w.dims)[0], input_size = (*w.dims)[1];
    if (rb && units != 0 && (*bias.dims)[0] != 0 && (*bias.dims)[0] != units)
      return bad(2, "the bias has " + std::to_string((*bias.dims)[0]) + " elements, the weights " +
                        std::to_string(units) + " units");
    int64_t batch = 0;
    if (x.fully_known_shape() && input_size != 0) {
      const auto elements = static_cast<int64_t>(element_count(*x.dims));
      if (elements % input_size != 0)
        return bad(0, "the input's " + std::to_string(elements) + " elements are not a multiple of the weights' input size " +
                          std::to_string(input_size));
      batch = elements / input_size;
    }
    return output_dims(std::vector<int64_t>{batch, units});
  }

  bool slice() {
    if (!arity({3})) return false;
    TensorKind kind;
    if (!kind_in(0, {TensorKind::kFloat16, TensorKind::kFloat32, TensorKind::kInt32, TensorKind::kQuant8,
                     TensorKind::kQuant8Signed}, &kind))
      return false;
    const Operand &x = *in_[0], &y = *out_[0];
    for (size_t i = 1; i < 3; ++i) {
      const Operand& v = *in_[i];
      const auto r = rank_of(v);
      if (tensor_kind(v) != TensorKind::kInt32 || (r && *r != 1))
        return bad(static_cast<int>(i), std::string(i == 1 ? "begin" : "size") + " must be a 1-D TENSOR_INT32, is " + type(v));
      if (r && rank_of(x) && (*v.dims)[0] != 0 && static_cast<size_t>((*v.dims)[0]) != x.dims->size())
        return bad(static_cast<int>(i), std::string(i == 1 ? "begin" : "size") + " has " + std::to_string((*v.dims)[0]) +
                                            " entries, the input rank is " + std::to_string(x.dims->size()));
    }
    if (!output_kind(kind)) return false;
    if (is_quant8(kind) && (y.scale != x.scale || y.zero_point != x.zero_point))
      return bad(output_index(), "the output of a quantised SLICE keeps the input's scale and zero point (NNAPI)");
    if (!rank_of(x)) return true;
    std::optional<std::vector<int64_t>> result = std::vector<int64_t>(x.dims->size(), 0);
    const auto begin = constant_int32s(*in_[1]), size = constant_int32s(*in_[2]);
    if (x.fully_known_shape() && begin && size && begin->size() == x.dims->size() && size->size() == x.dims->size()) {
      std::string why;
      if (!slice_output_dims(x.dims->data(), x.dims->size(), begin->data(), size->data(), result->data(), &why))
        return bad(1, why);
    }
    return output_dims(result);
  }

  bool concatenation() {
    if (in_.size() < 2 || out_.size() != 1)
      return bad(-1, "takes input tensors and an axis, and 1 output; has " + std::to_string(in_.size()) + " inputs and " +
                         std::to_string(out_.size()) + " outputs");
    const size_t n = in_.size() - 1;
    TensorKind kind;
    if (!kind_in(0, {TensorKind::kFloat16, TensorKind::kFloat32, TensorKind::kQuant8, TensorKind::kQuant8Signed}, &kind))
      return false;
    if (!same_kind_inputs(1, n, kind) || !output_kind(kind)) return false;
    const Operand& axis_operand = *in_[n];
    if (!is_int32_scalar(axis_operand))
      return bad(static_cast<int>(n), "the last input (the axis) must be an INT32 scalar, is " + type(axis_operand));
    std::optional<size_t> rank;
    for (size_t i = 0; i < n; ++i) {
      if (!max_rank(i, 4)) return false;
      const auto r = rank_of(*in_[i]);
      if (r && rank && *r != *rank)
        return bad(static_cast<int>(i), "input " + std::to_string(i) + " has rank " + std::to_string(*r) +
                                            ", input 0 rank " + std::to_string(*rank));
      if (r) rank = r;
    }
    const auto axis = constant_int32s(axis_operand);
    if (!rank || !axis || axis->size() != 1) return true;
    const int32_t a = (*axis)[0];
    if (a < 0 || static_cast<size_t>(a) >= *rank)
      return bad(static_cast<int>(n), "axis " + std::to_string(a) + " is outside [0, " + std::to_string(*rank) + ")");
    std::vector<int64_t> result(*rank, 0);
    bool all_known = true;
    int64_t sum = 0;
    for (size_t i = 0; i < n; ++i) {
      if (!in_[i]->dims) {
        all_known = false;
        continue;
      }
      const std::vector<int64_t>& d = *in_[i]->dims;
      for (size_t k = 0; k < *rank; ++k) {
        if (k == static_cast<size_t>(a)) continue;
        if (d[k] != 0 && result[k] != 0 && d[k] != result[k])
          return bad(static_cast<int>(i), "input " + std::to_string(i) + " is " + dims_text(in_[i]->dims) +
                                              "; inputs differ only along the axis " + std::to_string(a));
        if (d[k] != 0) result[k] = d[k];
      }
      all_known = all_known && d[a] != 0;
      sum += d[a];
    }
    result[a] = all_known ? sum : 0;
    return output_dims(result);
  }

  BuiltinOp op_;
  const std::vector<const Operand*>& in_;
  const std::vector<const Operand*>& out_;
  std::string* why_;
  int* culprit_;
};

}  // namespace

bool check_builtin(BuiltinOp op, const std::vector<const Operand*>& inputs, const std::vector<const Operand*>& outputs,
                   std::string* why, int* culprit) {
  return Rules(op, inputs, outputs, why, culprit).check();
}

}  // namespace oprig::graph::shape_rules
