// Plans derived from the bundled specs of three complex ops (Conv2D, TopK,
// Softmax), judged by oprig's fp64 references as `oprig plan init` does for
// the bundled package: every node valid, every parameter's domain swept,
// the hostile sizes and fills present, tolerances that do not hide bugs.
// The expectations come from the list (tests/README.md), not from
// the derivation's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "cases/case.hpp"
#include "cases/derive_plan.hpp"
#include "cases/plan.hpp"
#include "common/reference.hpp"
#include "runner/node_judges.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {
namespace {

using nlohmann::ordered_json;

const std::filesystem::path kOpsuite = std::filesystem::path(OPRIG_SOURCE_DIR) / "opsuite";

struct Derived {
  OpCaseSpace space;
  ordered_json json;
  TestPlan plan;
};

Derived derive(const std::string& file, const std::string& op) {
  Derived d;
  d.space = case_space_from_spec(kOpsuite / file, op);
  d.json = derive_plan_here(d.space, std::filesystem::path(file).filename().string(), nullptr,
                            opsuite::find_reference(d.space.op));
  d.plan = parse_plan(nlohmann::json::parse(d.json.dump()), kOpsuite / file);
  return d;
}

const Derived& conv() {
  static const Derived d = derive("conv2d/conv2d.xml", "Conv2D");
  return d;
}
const Derived& topk() {
  static const Derived d = derive("top_k/top_k.json", "TopK");
  return d;
}
const Derived& softmax() {
  static const Derived d = derive("softmax/softmax.xml", "Softmax");
  return d;
}

// Values one parameter takes across the plan's shape entries.
std::vector<nlohmann::json> values_of(const Derived& d, const std::string& param) {
  std::vector<nlohmann::json> out;
  for (const ordered_json& e : d.json.at("shapes"))
    if (e.contains("params") && e["params"].contains(param)) out.push_back(e["params"][param]);
  return out;
}

TEST(DeriveNodes, EveryConvNodeIsOneTheReferenceAccepts) {
  const ordered_json& der = conv().json.at("derivation");
  EXPECT_NE(der.at("judge").get<std::string>().find("reference"), std::string::npos) << der.dump();
  const size_t entries = conv().json.at("shapes").size();
  EXPECT_GE(entries, 40u);
  EXPECT_EQ(der.at("nodes").get<size_t>(), entries);
  // Asked again, independently of the derivation's bookkeeping: the bundled reference takes every entry.
  OpJudges judges = make_judges(conv().space, nullptr, opsuite::find_reference("Conv2D"));
  ASSERT_FALSE(judges.per_layout.empty());
  for (const ordered_json& e : conv().json.at("shapes")) {
    Node n;
    for (const auto& s : e.at("inputs"))
      n.inputs.push_back(s.is_null() ? std::nullopt : std::optional(s.get<std::vector<int64_t>>()));
    if (e.contains("params")) n.params = e["params"];
    const std::string layout = e.value("layout", std::string());
    for (const LayoutJudge& j : judges.per_layout)
      if (j.layout == layout && j.judge != nullptr) {
        const NodeAnswer a = j.judge->judge(n);
        EXPECT_TRUE(a.valid) << e.dump() << ": " << a.reason;
      }
  }
}

TEST(DeriveNodes, ConvSweepsDilationGroupsAsymmetricPadsAndStridesThatDoNotDivide) {
  bool dilated = false, asymmetric = false, grouped = false;
  for (const auto& v : values_of(conv(), "dilation")) dilated |= v[0].get<int>() > 1 || v[1].get<int>() > 1;
  for (const auto& v : values_of(conv(), "pad_amount"))
    asymmetric |= v[0][0] != v[0][1] || v[1][0] != v[1][1];
  for (const auto& v : values_of(conv(), "group")) grouped |= v.get<int>() > 1;
  EXPECT_TRUE(dilated);
  EXPECT_TRUE(asymmetric);
  EXPECT_TRUE(grouped);
  std::set<std::string> paddings;
  for (const auto& v : values_of(conv(), "padding")) paddings.insert(v.get<std::string>());
  EXPECT_EQ(paddings.size(), 4u) << "every Enumeration value of padding";
  // A stride that does not divide the (NHWC) height or width.
  bool not_dividing = false;
  for (const ordered_json& e : conv().json.at("shapes")) {
    if (!e.contains("params") || !e["params"].contains("stride") || e.value("layout", std::string()) != "NHWC") continue;
    const auto in = e["inputs"][0].get<std::vector<int64_t>>();
    const auto s = e["params"]["stride"].get<std::vector<int64_t>>();
    not_dividing |= (s[0] > 1 && in[1] % s[0] != 0) || (s[1] > 1 && in[2] % s[1] != 0);
  }
  EXPECT_TRUE(not_dividing);
}

// Large in its input and in its output: a kernel may split its work by
// either, and Conv2D's output (few output channels) is smaller than its input.
TEST(DeriveNodes, ConvChannelsLeaveTheVectorWidthAndOneNodeIsLarge) {
  OpJudges judges = make_judges(conv().space, nullptr, opsuite::find_reference("Conv2D"));
  std::set<int64_t> tails;
  bool large = false;
  const auto elements = [](const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t x : shape) n *= x;
    return n;
  };
  for (const ordered_json& e : conv().json.at("shapes")) {
    const std::string layout = e.value("layout", std::string());
    const auto in = e["inputs"][0].get<std::vector<int64_t>>();
    const auto w = e["inputs"][1].get<std::vector<int64_t>>();
    if (layout == "NHWC") {
      tails.insert(w[3] % 8);   // channel_out
      tails.insert(in[3] % 8);  // channel_in
    }
    if (e.value("about", std::string()).find("threaded") == std::string::npos) continue;
    EXPECT_GE(elements(in), int64_t{1} << 18) << e.dump();
    Node n;
    for (const auto& s : e.at("inputs"))
      n.inputs.push_back(s.is_null() ? std::nullopt : std::optional(s.get<std::vector<int64_t>>()));
    if (e.contains("params")) n.params = e["params"];
    for (const LayoutJudge& j : judges.per_layout) {
      if (j.layout != layout || j.judge == nullptr) continue;
      const NodeAnswer a = j.judge->judge(n);
      ASSERT_TRUE(a.valid && a.outputs.size() == 1) << e.dump() << ": " << a.reason;
      large |= elements(a.outputs[0]) >= (int64_t{1} << 18);
    }
  }
  for (int64_t r = 1; r < 8; ++r) EXPECT_TRUE(tails.count(r)) << "no channel count " << r << " mod 8";
  EXPECT_TRUE(large) << "the large node's output is not above the threaded path's threshold";
}

TEST(DeriveNodes, TopKSweepsKFromOneToTheAxisSizeAndNegativeAxes) {
  bool k_one = false, k_full = false, negative_axis = false;
  for (const ordered_json& e : topk().json.at("shapes")) {
    const auto in = e["inputs"][0].get<std::vector<int64_t>>();
    const ordered_json p = e.value("params", ordered_json::object());
    const int64_t axis = p.value("axis", int64_t{-1});
    const int64_t k = p.value("k", int64_t{-1});
    const int64_t size = in.empty() ? 0 : in[static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(in.size()) : axis)];
    ASSERT_LE(k, size) << e.dump() << ": k above the axis size is no node of TopK";
    k_one |= k == 1;
    k_full |= k == size && size > 1;
    negative_axis |= axis < -1;
  }
  EXPECT_TRUE(k_one);
  EXPECT_TRUE(k_full);
  EXPECT_TRUE(negative_axis);
}

TEST(DeriveNodes, TopKIndicesAreExactTiesAreFilledAndSortedFalseIsOrderInsensitive) {
  const ordered_json& tol = topk().json.at("tolerance");
  ASSERT_TRUE(tol.contains("indices")) << tol.dump();
  EXPECT_EQ(tol["indices"]["lsb"].get<int>(), 0) << "one-based indices must fail";
  ASSERT_TRUE(topk().json.at("fills").contains("ties"));
  ASSERT_TRUE(topk().json.contains("order_insensitive"));
  const ordered_json& o = topk().json["order_insensitive"][0];
  EXPECT_EQ(o.at("when").at("sorted"), false);
  EXPECT_EQ(topk().plan.order_insensitive.size(), 1u);
}

TEST(DeriveNodes, SoftmaxHasLongReductionsEveryRankHostileFillsAndWorkScaledTolerances) {
  double longest = 0;
  std::set<size_t> ranks;
  for (const ordered_json& e : softmax().json.at("shapes")) {
    longest = std::max(longest, e.value("reduction_length", 1.0));
    ranks.insert(e["inputs"][0].size());
  }
  EXPECT_GT(longest, 1024.0);
  for (size_t r = 1; r <= 5; ++r) EXPECT_TRUE(ranks.count(r)) << "rank " << r;
  const ordered_json& fills = softmax().json.at("fills");
  ASSERT_TRUE(fills.contains("specials"));
  const std::string specials = fills["specials"].dump();
  for (const char* v : {"\"nan\"", "\"inf\"", "\"-inf\"", "\"-0\"", "\"denorm_min\"", "\"huge\""})
    EXPECT_NE(specials.find(v), std::string::npos) << v;
  EXPECT_TRUE(fills.contains("huge"));
  EXPECT_TRUE(fills.contains("small_int"));
  // Float tolerances grow with the work, not a fixed atol.
  const ordered_json& f32 = softmax().json.at("tolerance").at("FLOAT_32");
  EXPECT_FALSE(f32.contains("atol")) << f32.dump();
  EXPECT_EQ(f32.at("accumulation").get<std::string>(), "FLOAT_32");
}

TEST(DeriveNodes, BaseNodesHaveLifecycleCompanions) {
  // The re-prepare pass needs cases with the base node's parameters and other shapes.
  for (const Derived* d : {&conv(), &topk(), &softmax()}) {
    size_t companions = 0;
    for (const ordered_json& e : d->json.at("shapes"))
      if (e.value("name", std::string()).rfind("small_", 0) == 0 || e.value("name", std::string()).rfind("medium_", 0) == 0)
        ++companions;
    EXPECT_GE(companions, 2u) << d->space.op;
  }
}

}  // namespace
}  // namespace oprig::harness
