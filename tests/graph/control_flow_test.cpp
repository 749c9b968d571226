// IF and WHILE semantics (NNAPI, seed 002) on the cpu backend. Expected values
// are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "graph_test_support.hpp"

namespace oprig::graph::test {
namespace {

using namespace std::chrono_literals;

TEST(If, TakesThenBranchWhenConditionTrue) {
  const PreparedModel p = prepare_on_cpu(load("if_select.json"));
  const std::vector<HostTensor> in = {b8(true), i32(4)};
  const ExecutionResult r = p.execute(in);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{14});  // 4 + 10
}

TEST(If, TakesElseBranchWhenConditionFalse) {
  const PreparedModel p = prepare_on_cpu(load("if_select.json"));
  const std::vector<HostTensor> in = {b8(false), i32(4)};
  const ExecutionResult r = p.execute(in);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{12});  // 4 * 3
}

TEST(If, SameSubgraphForBothBranches) {
  const PreparedModel p = prepare_on_cpu(load("if_same_branch.json"));
  for (bool c : {true, false}) {
    const std::vector<HostTensor> in = {b8(c), i32(8)};
    const ExecutionResult r = p.execute(in);
    ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
    EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{7});  // 8 - 1
  }
}

TEST(If, ConstantAndNoValueOperands) {
  // Constant condition true, constant 21 read from a .npy file, a NO_VALUE
  // operand passed to an input the branch never reads: 21 + 21 = 42.
  const PreparedModel p = prepare_on_cpu(load("if_constant_novalue.json"));
  const ExecutionResult r = p.execute({});
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{42});
}

TEST(While, CountedLoop) {
  // i = 0, acc = 0; while (i < 5) { acc += i; i += 1 } -> i = 5, acc = 0+1+2+3+4 = 10.
  const PreparedModel p = prepare_on_cpu(load("while_count.json"));
  const std::vector<HostTensor> in = {i32(5)};
  const ExecutionResult r = p.execute(in);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{5});
  EXPECT_EQ(values<int32_t>(r.outputs.at(1)), std::vector<int32_t>{10});
  EXPECT_EQ(r.loop_iterations, 5u);
}

TEST(While, ZeroIterationsGiveTheInitialValues) {
  const PreparedModel p = prepare_on_cpu(load("while_count.json"));
  for (int32_t n : {0, -3}) {
    const std::vector<HostTensor> in = {i32(n)};
    const ExecutionResult r = p.execute(in);
    ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
    EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{0});
    EXPECT_EQ(values<int32_t>(r.outputs.at(1)), std::vector<int32_t>{0});
    EXPECT_EQ(r.loop_iterations, 0u);
  }
}

TEST(While, NestedLoops) {
  // 0^2 + 1^2 + 2^2 + 3^2 = 0 + 1 + 4 + 9 = 14; the inner loop runs 0+1+2+3 = 6
  // times, the outer 4: 10 body runs in all.
  const PreparedModel p = prepare_on_cpu(load("while_nested.json"));
  const std::vector<HostTensor> in = {i32(4)};
  const ExecutionResult r = p.execute(in);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{14});
  EXPECT_EQ(r.loop_iterations, 10u);
  // n = 10: 0 + 1 + 4 + 9 + 16 + 25 + 36 + 49 + 64 + 81 = 285.
  const std::vector<HostTensor> in10 = {i32(10)};
  EXPECT_EQ(values<int32_t>(p.execute(in10).outputs.at(0)), std::vector<int32_t>{285});
}

TEST(While, InfiniteLoopMissesTheDeadline) {
  const PreparedModel p = prepare_on_cpu(load("while_infinite.json"));
  ExecutionOptions options;
  options.loop_timeout = 200ms;
  const auto start = std::chrono::steady_clock::now();
  const ExecutionResult r = p.execute({}, options);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.status, ExecutionStatus::kMissedDeadline);
  EXPECT_TRUE(r.outputs.empty()) << "no output may be reported after MISSED_DEADLINE";
  EXPECT_NE(r.message.find("MISSED_DEADLINE"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("subgraph 0 operation 0 (WHILE)"), std::string::npos) << r.message;
  EXPECT_GE(took, 200ms);
  EXPECT_LT(took, 200ms + 150ms) << "the loop must stop within the timeout plus a small margin";
  EXPECT_GT(r.loop_iterations, 0u);
}

TEST(While, NestedLoopsShareTheDeadline) {
  // The nested model with a huge n would run for minutes; the execution's one
  // deadline stops it whichever loop is running.
  const PreparedModel p = prepare_on_cpu(load("while_nested.json"));
  ExecutionOptions options;
  options.loop_timeout = 100ms;
  const std::vector<HostTensor> in = {i32(1 << 30)};
  const auto start = std::chrono::steady_clock::now();
  const ExecutionResult r = p.execute(in, options);
  EXPECT_EQ(r.status, ExecutionStatus::kMissedDeadline);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 100ms + 150ms);
}

TEST(While, LoopTimeoutDefaultsAndClamping) {
  EXPECT_EQ(effective_loop_timeout(std::nullopt), 2s);
  EXPECT_EQ(effective_loop_timeout(60s), 15s);
  EXPECT_EQ(effective_loop_timeout(15s), 15s);
  EXPECT_EQ(effective_loop_timeout(300ms), 300ms);
  const PreparedModel p = prepare_on_cpu(load("while_count.json"));
  const std::vector<HostTensor> in = {i32(3)};
  EXPECT_EQ(p.execute(in).loop_timeout, 2s);
  ExecutionOptions options;
  options.loop_timeout = 3600s;
  EXPECT_EQ(p.execute(in, options).loop_timeout, 15s);
}

TEST(While, AtanInsideTheLoopBody) {
  // x = atan(x) twice: atan(atan(0)) = 0, atan(atan(1)) = atan(pi/4) =
  // 0.66577375002835389 (fp64), and odd symmetry for -1.
  const PreparedModel p = prepare_on_cpu(load("while_atan.json"));
  const std::vector<HostTensor> in = {tensor<float>(OPRIG_DTYPE_FLOAT_32, {3}, {0.0f, 1.0f, -1.0f}), i32(2)};
  const ExecutionResult r = p.execute(in);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  const std::vector<float> y = values<float>(r.outputs.at(0));
  ASSERT_EQ(y.size(), 3u);
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_NEAR(y[1], 0.66577375002835389, 4e-7);  // a few fp32 ulp over two steps
  EXPECT_NEAR(y[2], -0.66577375002835389, 4e-7);
}

TEST(Shapes, UnknownDimsAndRankOnSubgraphOperands) {
  const PreparedModel p = prepare_on_cpu(load("unknown_dims.json"));
  const std::vector<HostTensor> in3 = {tensor<float>(OPRIG_DTYPE_FLOAT_32, {3}, {1.0f, -2.0f, 3.0f})};
  ExecutionResult r = p.execute(in3);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(r.outputs.at(0).shape, std::vector<int64_t>{3});
  EXPECT_EQ(values<float>(r.outputs.at(0)), (std::vector<float>{1.0f, 4.0f, 9.0f}));
  const std::vector<HostTensor> in5 = {tensor<float>(OPRIG_DTYPE_FLOAT_32, {5}, {1, 2, 3, 4, 5})};
  r = p.execute(in5);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<float>(r.outputs.at(0)), (std::vector<float>{1, 4, 9, 16, 25}));
  // The main input is declared rank 1: a rank-2 input is refused, nothing runs.
  const std::vector<HostTensor> bad = {tensor<float>(OPRIG_DTYPE_FLOAT_32, {2, 2}, {1, 2, 3, 4})};
  r = p.execute(bad);
  EXPECT_EQ(r.status, ExecutionStatus::kInvalidInput);
  EXPECT_NE(r.message.find("input 0"), std::string::npos) << r.message;
}

TEST(Shapes, DataDependentOutputShapes) {
  // v = Iota(n); w = Iota(0), then for i = 0..n-1: w = Iota(i). n = 4:
  // v = [0,1,2,3], w = [0,1,2]; n = 2: v = [0,1], w = [0]; n = 0: both empty.
  const PreparedModel p = prepare_on_cpu(load("iota_in_while.json"));
  struct Case {
    int32_t n;
    std::vector<int32_t> v, w;
  };
  for (const Case& c : {Case{4, {0, 1, 2, 3}, {0, 1, 2}}, Case{2, {0, 1}, {0}}, Case{0, {}, {}}}) {
    const std::vector<HostTensor> in = {i32(c.n)};
    const ExecutionResult r = p.execute(in);
    ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
    EXPECT_EQ(r.outputs.at(0).shape, std::vector<int64_t>{static_cast<int64_t>(c.v.size())});
    EXPECT_EQ(values<int32_t>(r.outputs.at(0)), c.v) << "n = " << c.n;
    EXPECT_EQ(values<int32_t>(r.outputs.at(1)), c.w) << "n = " << c.n;
  }
}

}  // namespace
}  // namespace oprig::graph::test
