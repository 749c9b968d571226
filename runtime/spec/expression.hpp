// The arithmetic vendors write into specs, read so that oprig can derive
// valid test nodes: shape texts ("[batch, height, width, channel_in]",
// "[kernel_height, kernel_width, channel_in / group, channel_out]",
// "[..., k]") and the relations of constraint texts ("-N <= axis <= N-1",
// "axis in [-N, N)", "1 <= k <= in[0].shape[axis]", "group >= 1 divides
// channel_in and channel_out", "beta > 0, finite"). Prose around them is
// skipped; what does not parse is left out, never guessed.
//
// Expressions: numbers, names ([A-Za-z_][A-Za-z0-9_]*), + - * / %, unary
// minus, parentheses, calls f(a, b), indexing x[i] or x[i, j], members x.y.
// Evaluation resolves names and the forms x.shape[i], shape(x)[i], rank(x),
// x.rank, len(x.shape), dim(x, i), p[i], p[i, j] through a Scope the caller
// fills; a name it cannot resolve makes the expression unknown (nullopt).
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace oprig::spec {

struct Expr {
  enum class Kind { kNumber, kName, kNegate, kAdd, kSubtract, kMultiply, kDivide, kModulo, kCall, kIndex, kMember };
  Kind kind = Kind::kNumber;
  double number = 0;
  std::string name;        // kName, kCall (function), kMember (member)
  std::vector<Expr> args;  // operands; kIndex: base then indices; kMember: base; kCall: arguments
};

// The whole text as one expression; nullopt when it is not one.
std::optional<Expr> parse_expression(std::string_view text);
// "a + b", with names as written.
std::string expression_text(const Expr& e);
// Every plain name the expression refers to (not function or member names).
void collect_names(const Expr& e, std::set<std::string>& names);

// A value while evaluating: a number, or a list (a shape, a tensor parameter).
struct ExprValue {
  std::optional<double> number;
  std::vector<double> list;
  bool is_list = false;
  std::vector<size_t> dims;  // a list's shape when it has several dimensions (a [2, 2] parameter)
};

// What names mean while evaluating. `value` resolves a plain name (a
// dimension, a parameter, N); `shape` the shape of a tensor by name (for
// x.shape, shape(x), rank(x)); either returns nullopt when it does not know.
struct Scope {
  std::function<std::optional<ExprValue>(const std::string& name)> value;
  std::function<std::optional<std::vector<double>>(const std::string& tensor)> shape;
};

std::optional<double> evaluate(const Expr& e, const Scope& scope);

// One dimension of a shape text: an expression, or "..." (any number of
// leading or inner dimensions).
struct ShapeDim {
  bool ellipsis = false;
  Expr expr;
  std::string text;  // as written, trimmed
};

// "[a, b / c, ..., k]" (also "(a, b)", "a x b", "shape [a, b]"); nullopt
// when the text is not such a list. "d0, ..., dN-1"-style generic shapes
// read as one ellipsis.
std::optional<std::vector<ShapeDim>> parse_shape_text(std::string_view text);

enum class Relation { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual, kDivides };

// lhs op rhs. kDivides: lhs divides rhs (rhs % lhs == 0). A subject that is
// missing or only prose ("every element >= 1", "must be > 0") is the name
// "_self": the tensor or parameter the constraint belongs to.
struct Comparison {
  Expr lhs;
  Relation op = Relation::kLessEqual;
  Expr rhs;
};

inline constexpr const char* kSelf = "_self";

// Every relation the text states: comparison chains ("a <= b < c"),
// intervals ("x in [a, b)", "range [a, b]", or a bare "[a, b]" naming the
// subject's range), "x divides a and b", "a multiple of x", "divisible by
// x", "positive", "non-negative"/"nonnegative".
std::vector<Comparison> parse_relations(std::string_view text);

// Whether the relation holds; nullopt when a side is unknown.
std::optional<bool> holds(const Comparison& c, const Scope& scope);

}  // namespace oprig::spec
