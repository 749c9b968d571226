// Shape texts and constraint relations as vendors write them (spec/expression.hpp):
// each expected relation is derived by hand from the text.
#include "spec/expression.hpp"

#include <gtest/gtest.h>

#include <map>

namespace oprig::spec {
namespace {

Scope scope_of(std::map<std::string, double> values, std::map<std::string, std::vector<double>> lists = {},
               std::map<std::string, std::vector<double>> shapes = {}) {
  Scope s;
  s.value = [values, lists](const std::string& n) -> std::optional<ExprValue> {
    if (auto it = values.find(n); it != values.end()) {
      ExprValue v;
      v.number = it->second;
      return v;
    }
    if (auto it = lists.find(n); it != lists.end()) {
      ExprValue v;
      v.is_list = true;
      v.list = it->second;
      return v;
    }
    return std::nullopt;
  };
  s.shape = [shapes](const std::string& n) -> std::optional<std::vector<double>> {
    if (auto it = shapes.find(n); it != shapes.end()) return it->second;
    return std::nullopt;
  };
  return s;
}

std::string text(const std::vector<Comparison>& r) {
  static const char* kOps[] = {"<", "<=", ">", ">=", "==", "!=", "divides"};
  std::string out;
  for (const Comparison& c : r)
    out += (out.empty() ? "" : "; ") + expression_text(c.lhs) + " " + kOps[static_cast<int>(c.op)] + " " +
           expression_text(c.rhs);
  return out;
}

TEST(Expression, ArithmeticAndPrecedence) {
  const auto e = parse_expression("channel_in / group + 2 * (k - 1)");
  ASSERT_TRUE(e);
  EXPECT_EQ(*evaluate(*e, scope_of({{"channel_in", 12}, {"group", 3}, {"k", 4}})), 4 + 2 * 3);
  EXPECT_FALSE(evaluate(*e, scope_of({{"channel_in", 12}})));  // group unknown
  EXPECT_FALSE(parse_expression("2D"));
  EXPECT_FALSE(parse_expression("a b"));
}

TEST(Expression, ShapesOfTensorsAndParameterElements) {
  const Scope s = scope_of({{"axis", -1}}, {{"pad_amount", {1, 2, 3, 4}}}, {{"in[0]", {2, 3, 9}}, {"x", {5, 6}}});
  EXPECT_EQ(*evaluate(*parse_expression("in[0].shape[axis]"), s), 9);
  EXPECT_EQ(*evaluate(*parse_expression("shape(x)[0]"), s), 5);
  EXPECT_EQ(*evaluate(*parse_expression("rank(in[0])"), s), 3);
  EXPECT_EQ(*evaluate(*parse_expression("pad_amount[1, 0]"), s), 3);
  EXPECT_EQ(*evaluate(*parse_expression("pad_amount[0][1]"), s), 2);
  EXPECT_EQ(*evaluate(*parse_expression("floor((9 - 3) / 2) + 1"), s), 4);
}

TEST(ShapeText, NamesExpressionsAndEllipses) {
  const auto conv = parse_shape_text("[kernel_height, kernel_width, channel_in / group, channel_out]");
  ASSERT_TRUE(conv);
  ASSERT_EQ(conv->size(), 4u);
  EXPECT_EQ(expression_text((*conv)[2].expr), "channel_in / group");
  const auto topk = parse_shape_text("[..., k]");
  ASSERT_TRUE(topk);
  ASSERT_EQ(topk->size(), 2u);
  EXPECT_TRUE((*topk)[0].ellipsis);
  EXPECT_EQ((*topk)[1].expr.name, "k");
  const auto generic = parse_shape_text("[d0, ..., dN-1]");
  ASSERT_TRUE(generic);
  ASSERT_EQ(generic->size(), 1u);
  EXPECT_TRUE((*generic)[0].ellipsis);
  EXPECT_TRUE(parse_shape_text("shape [channel_out]"));
  EXPECT_EQ(parse_shape_text("[]")->size(), 0u);
  EXPECT_FALSE(parse_shape_text("a 4-D tensor"));
  // Forms the opsuite's own specs use: named leading dimensions, names of several words, alternatives.
  const auto matmul = parse_shape_text("[batch..., M, K], or [batch..., K, M] with transpose_a");
  ASSERT_TRUE(matmul);
  ASSERT_EQ(matmul->size(), 3u);
  EXPECT_TRUE((*matmul)[0].ellipsis);
  EXPECT_EQ((*matmul)[2].expr.name, "K");
  const auto out = parse_shape_text("[broadcast(batch of in0, batch of in1)..., M, N]");
  ASSERT_TRUE(out);
  ASSERT_EQ(out->size(), 3u);
  EXPECT_TRUE((*out)[0].ellipsis);
  const auto attention = parse_shape_text("[batch, heads, query length, depth]");
  ASSERT_TRUE(attention);
  ASSERT_EQ(attention->size(), 4u);
  EXPECT_EQ((*attention)[2].expr.name, "query_length");
}

TEST(Relations, NegativeBoundsAndChains) {
  EXPECT_EQ(text(parse_relations("-N <= axis <= N-1")), "-N <= axis; axis <= N - 1");
  EXPECT_EQ(text(parse_relations("axis must satisfy -N <= axis < N")), "-N <= axis; axis < N");
  EXPECT_EQ(text(parse_relations("axis in [-N, N-1]")), "axis >= -N; axis <= N - 1");
  EXPECT_EQ(text(parse_relations("must be in range [0, rank(in))")), "_self >= 0; _self < rank(in)");
  EXPECT_EQ(text(parse_relations("\u2212N \u2264 axis \u2264 N\u22121")), "-N <= axis; axis <= N - 1");
  const auto r = parse_relations("-N <= axis <= N-1");
  EXPECT_TRUE(*holds(r[0], scope_of({{"N", 4}, {"axis", -4}})));
  EXPECT_FALSE(*holds(r[0], scope_of({{"N", 4}, {"axis", -5}})));
}

TEST(Relations, ParametersAgainstDimensions) {
  EXPECT_EQ(text(parse_relations("1 <= k <= in[0].shape[axis]")), "1 <= k; k <= in[0].shape[axis]");
  EXPECT_EQ(text(parse_relations("group >= 1 divides channel_in and channel_out")),
            "group >= 1; group divides channel_in; group divides channel_out");
  EXPECT_EQ(text(parse_relations("channel_in must be a multiple of group")), "group divides channel_in");
  EXPECT_EQ(text(parse_relations("channel_out divisible by group")), "group divides channel_out");
  const auto k = parse_relations("k <= in.shape[axis]");
  EXPECT_EQ(text(k), "k <= in.shape[axis]");
  EXPECT_TRUE(*holds(k[0], scope_of({{"k", 3}, {"axis", 1}}, {}, {{"in", {2, 3}}})));
  EXPECT_FALSE(*holds(k[0], scope_of({{"k", 4}, {"axis", 1}}, {}, {{"in", {2, 3}}})));
}

TEST(Relations, ProseAroundValues) {
  EXPECT_EQ(text(parse_relations("every element >= 1")), "_self >= 1");
  EXPECT_EQ(text(parse_relations("beta > 0, finite")), "beta > 0");
  EXPECT_EQ(text(parse_relations("must be positive")), "_self > 0");
  EXPECT_EQ(text(parse_relations("non-negative")), "_self >= 0");
  EXPECT_EQ(text(parse_relations("[0, 1]")), "_self >= 0; _self <= 1");
  EXPECT_EQ(text(parse_relations("alpha between 0 and 1")), "alpha >= 0; alpha <= 1");
  EXPECT_EQ(text(parse_relations("same data type as in")), "");
}

}  // namespace
}  // namespace oprig::spec
