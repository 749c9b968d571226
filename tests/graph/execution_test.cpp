// Executor properties: concurrent executions, the memory plan, the per-operand
// observer, input checks.
#include <gtest/gtest.h>

#include <thread>

#include "graph/add_chain_model.hpp"
#include "graph_test_support.hpp"

namespace oprig::graph::test {
namespace {

TEST(Execution, ConcurrentExecutionsFromFourThreadsAgree) {
  const PreparedModel p = prepare_on_cpu(load("while_nested.json"));
  // Sum of squares 0..n-1 = (n-1) n (2n-1) / 6, by the closed form.
  auto expected = [](int32_t n) { return (n - 1) * n * (2 * n - 1) / 6; };
  std::vector<std::vector<int32_t>> got(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 50; ++k) {
        const int32_t n = 5 + (k + t) % 7;
        const std::vector<HostTensor> in = {i32(n)};
        const ExecutionResult r = p.execute(in);
        got[t].push_back(r.status == ExecutionStatus::kOk ? values<int32_t>(r.outputs.at(0)).at(0) - expected(n) : -1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(got[t], std::vector<int32_t>(50, 0)) << "thread " << t;
  EXPECT_GE(p.execution_states(), 1u);
  EXPECT_LE(p.execution_states(), 4u);
}

TEST(Execution, ConcurrentPackageOpsKeepPerExecutionKernels) {
  const PreparedModel p = prepare_on_cpu(load("iota_in_while.json"));
  std::vector<int> failures(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 50; ++k) {
        const int32_t n = 1 + (k * 3 + t) % 9;
        const std::vector<HostTensor> in = {i32(n)};
        const ExecutionResult r = p.execute(in);
        std::vector<int32_t> v(n);
        for (int32_t i = 0; i < n; ++i) v[i] = i;
        if (r.status != ExecutionStatus::kOk || values<int32_t>(r.outputs.at(0)) != v) ++failures[t];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

TEST(Execution, MemoryPlanReusesBuffers) {
  // 10 ADDs: t1..t9 and y. t(k) is dead once t(k+1) is written, so the
  // temporaries alternate between two buffers and y takes a dead one:
  // 10 planned operands, 2 buffers of 64 bytes (one aligned slot each).
  const PreparedModel p = prepare_on_cpu(parse(add_chain_model(10)));
  const MemoryStats stats = p.memory_stats();
  EXPECT_EQ(stats.planned_operands, 10u);
  EXPECT_EQ(stats.buffers, 2u);
  EXPECT_EQ(stats.naive_bytes, 640u);
  EXPECT_EQ(stats.arena_bytes, 128u);
  EXPECT_EQ(stats.dynamic_operands, 0u);
  const std::vector<HostTensor> in = {i32(5)};
  const ExecutionResult r = p.execute(in);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{15});  // 5 + 10 * 1
}

TEST(Execution, ObserverSeesEveryOperationOutput) {
  // n = 2: cond runs 3 times (1 output each), body twice (2 outputs), and the
  // WHILE itself has 2 outputs: 9 dumps.
  const PreparedModel p = prepare_on_cpu(load("while_count.json"));
  std::vector<std::string> sites;
  ExecutionOptions options;
  options.observer = [&](const OperandDump& d) {
    sites.push_back(std::string(d.site) + " op" + std::to_string(d.operation) + " out" + std::to_string(d.output_index) +
                    " " + std::string(d.op_name));
  };
  const std::vector<HostTensor> in = {i32(2)};
  const ExecutionResult r = p.execute(in, options);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  ASSERT_EQ(sites.size(), 9u);
  EXPECT_EQ(sites[0], "sg0/op0.cond[0]/sg1 op0 out0 LESS");
  EXPECT_EQ(sites[1], "sg0/op0.body[0]/sg2 op0 out0 ADD");
  EXPECT_EQ(sites[7], "sg0 op0 out0 WHILE");
}

TEST(Execution, RejectsWrongInputs) {
  const PreparedModel p = prepare_on_cpu(load("while_count.json"));
  EXPECT_EQ(p.execute({}).status, ExecutionStatus::kInvalidInput);
  const std::vector<HostTensor> wrong_type = {tensor<float>(OPRIG_DTYPE_FLOAT_32, {1}, {1.0f})};
  const ExecutionResult r = p.execute(wrong_type);
  EXPECT_EQ(r.status, ExecutionStatus::kInvalidInput);
  EXPECT_NE(r.message.find("FLOAT_32"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace oprig::graph::test
