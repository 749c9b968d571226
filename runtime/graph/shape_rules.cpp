#include "graph/shape_rules.hpp"

#include "core/dtype.hpp"

namespace oprig::graph::shape_rules {
namespace {

bool is_arithmetic(BuiltinOp op) { return op == BuiltinOp::kAdd || op == BuiltinOp::kSub || op == BuiltinOp::kMul; }
bool is_comparison(BuiltinOp op) {
  return op == BuiltinOp::kLess || op == BuiltinOp::kLessEqual || op == BuiltinOp::kGreater ||
         op == BuiltinOp::kGreaterEqual || op == BuiltinOp::kEqual || op == BuiltinOp::kNotEqual;
}
bool is_quantisable(oprig_dtype d) { return d == OPRIG_DTYPE_UINT_8 || d == OPRIG_DTYPE_INT_8; }

std::string type_of(const Operand& o) { return operand_type_text(o); }

}  // namespace

uint64_t element_count(const std::vector<int64_t>& dims) {
  uint64_t n = 1;
  for (int64_t d : dims) n *= static_cast<uint64_t>(d);
  return n;
}

bool is_quantised(const Operand& o) { return o.scale != 0; }

bool dims_compatible(const std::optional<std::vector<int64_t>>& a, const std::optional<std::vector<int64_t>>& b) {
  if (!a || !b) return true;
  if (a->size() != b->size()) return false;
  for (size_t i = 0; i < a->size(); ++i)
    if ((*a)[i] != 0 && (*b)[i] != 0 && (*a)[i] != (*b)[i]) return false;
  return true;
}

std::optional<std::vector<int64_t>> broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if (a == b) return a;
  if (element_count(b) == 1) return a;
  if (element_count(a) == 1) return b;
  return std::nullopt;
}

bool check_builtin(BuiltinOp op, const std::vector<const Operand*>& in, const std::vector<const Operand*>& out,
                   std::string* why, int* culprit) {
  const size_t want_in = (op == BuiltinOp::kLogicalNot || op == BuiltinOp::kCast) ? 1 : 2;
  if (in.size() != want_in || out.size() != 1) {
    *why = "takes " + std::to_string(want_in) + " input(s) and 1 output, has " + std::to_string(in.size()) + " and " +
           std::to_string(out.size());
    return false;
  }
  const Operand& y = *out[0];
  const int y_index = static_cast<int>(in.size());
  auto bad = [&](int who, std::string reason) {
    *why = std::move(reason);
    *culprit = who;
    return false;
  };

  if (op == BuiltinOp::kCast) {
    const Operand& x = *in[0];
    auto castable = [](oprig_dtype d) {
      return d == OPRIG_DTYPE_INT_32 || d == OPRIG_DTYPE_FLOAT_32 || d == OPRIG_DTYPE_UINT_8 || d == OPRIG_DTYPE_INT_8 ||
             d == OPRIG_DTYPE_BOOL_8;
    };
    if (!castable(x.dtype)) return bad(0, "cannot cast from " + type_of(x));
    if (!castable(y.dtype)) return bad(y_index, "cannot cast to " + type_of(y));
    if (!dims_compatible(x.dims, y.dims)) return bad(y_index, "output shape " + dims_text(y.dims) + " differs from input " + dims_text(x.dims));
    return true;
  }

  const Operand& a = *in[0];
  if (in.size() == 2) {
    const Operand& b = *in[1];
    if (a.dtype != b.dtype)
      return bad(1, "inputs must have the same type: input 0 is " + type_of(a) + ", input 1 is " + type_of(b));
    if (a.fully_known_shape() && b.fully_known_shape() && !broadcast(*a.dims, *b.dims))
      return bad(1, "shapes " + dims_text(a.dims) + " and " + dims_text(b.dims) +
                        " are neither equal nor one of them a single element");
  }
  if (is_arithmetic(op)) {
    const bool quantised = is_quantisable(a.dtype) && is_quantised(a);
    if (!(a.dtype == OPRIG_DTYPE_INT_32 || a.dtype == OPRIG_DTYPE_FLOAT_32 || quantised))
      return bad(0, "works on INT_32, FLOAT_32 and quantised UINT_8/INT_8, not " + type_of(a));
    if (quantised && (!is_quantised(*in[1]) || !is_quantised(y)))
      return bad(is_quantised(*in[1]) ? y_index : 1, "quantised arithmetic needs scale != 0 on both inputs and the output");
    if (y.dtype != a.dtype) return bad(y_index, "output must be " + std::string(dtype_name(a.dtype)) + ", is " + type_of(y));
  } else if (is_comparison(op)) {
    const bool eq = op == BuiltinOp::kEqual || op == BuiltinOp::kNotEqual;
    if (!(a.dtype == OPRIG_DTYPE_INT_32 || a.dtype == OPRIG_DTYPE_FLOAT_32 || (eq && a.dtype == OPRIG_DTYPE_BOOL_8)))
      return bad(0, "compares INT_32 or FLOAT_32 (and BOOL_8 for EQUAL/NOT_EQUAL), not " + type_of(a));
    if (y.dtype != OPRIG_DTYPE_BOOL_8) return bad(y_index, "output must be BOOL_8, is " + type_of(y));
  } else {  // logical
    for (size_t i = 0; i < in.size(); ++i)
      if (in[i]->dtype != OPRIG_DTYPE_BOOL_8) return bad(static_cast<int>(i), "needs BOOL_8, not " + type_of(*in[i]));
    if (y.dtype != OPRIG_DTYPE_BOOL_8) return bad(y_index, "output must be BOOL_8, is " + type_of(y));
  }
  // The output's declared shape must be able to hold the result.
  if (a.fully_known_shape() && (in.size() == 1 || in[1]->fully_known_shape())) {
    const auto result = in.size() == 1 ? std::optional(*a.dims) : broadcast(*a.dims, *in[1]->dims);
    if (result && !dims_compatible(result, y.dims))
      return bad(y_index, "output is declared " + dims_text(y.dims) + ", the result is " + dims_text(result));
  }
  return true;
}

}  // namespace oprig::graph::shape_rules
