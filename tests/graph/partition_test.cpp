// Partitioning: a control-flow op goes to the target only if the target has
// a kernel for every package op in every subgraph it references; otherwise
// it runs on cpu and the prepared model says why. The dsp simulator is the
// target here: its Atan kernel takes quantised UINT_8 only.
#include <gtest/gtest.h>

#include "graph_test_support.hpp"

namespace oprig::graph::test {
namespace {

TEST(Partition, WhileWithFloatAtanFallsBackToCpuAndSaysWhy) {
  Backend* dsp = backend_or_null("dsp");
  if (dsp == nullptr) GTEST_SKIP() << "dsp backend not built";
  const PreparedModel p = prepare(load("while_atan.json"), {dsp, &cpu()});
  ASSERT_EQ(p.placement_notes().size(), 1u);
  const std::string& note = p.placement_notes()[0];
  EXPECT_NE(note.find("subgraph 0 operation 0 (WHILE) runs on cpu"), std::string::npos) << note;
  EXPECT_NE(note.find("subgraph 2 operation 0 (org.oprig.opsuite:Atan)"), std::string::npos) << note;
  std::vector<std::string> backends;
  ExecutionOptions options;
  options.observer = [&](const OperandDump& d) {
    if (d.op_name == "org.oprig.opsuite:Atan") backends.emplace_back(d.backend);
  };
  const std::vector<HostTensor> in = {tensor<float>(OPRIG_DTYPE_FLOAT_32, {3}, {0.0f, 1.0f, -1.0f}), i32(1)};
  const ExecutionResult r = p.execute(in, options);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(backends, std::vector<std::string>{"cpu"});
  EXPECT_NEAR(values<float>(r.outputs.at(0))[1], 0.78539816339744831, 3e-7);  // atan(1) = pi/4
}

TEST(Partition, QuantisedAtanRunsOnTheTarget) {
  Backend* dsp = backend_or_null("dsp");
  if (dsp == nullptr) GTEST_SKIP() << "dsp backend not built";
  // x = 1.0 at (1/64, 128) is code 192; atan(1) = 0.785398... at (1/128, 128)
  // is 100.53 -> code 128 + 101 = 229 (1 LSB allowed).
  const Model m = parse(R"({"format": "oprig.model/1", "extensions": [{"prefix": 1, "package": "org.oprig.opsuite"}],
    "subgraphs": [{"operands": [
      {"type": "UINT_8", "dims": [1], "scale": 0.015625, "zero_point": 128, "lifetime": "SUBGRAPH_INPUT"},
      {"type": "UINT_8", "dims": [1], "scale": 0.0078125, "zero_point": 128, "lifetime": "SUBGRAPH_OUTPUT"}],
      "operations": [{"type": "org.oprig.opsuite:Atan", "inputs": [0], "outputs": [1]}],
      "inputs": [0], "outputs": [1]}]})");
  const PreparedModel p = prepare(m, {dsp, &cpu()});
  EXPECT_TRUE(p.placement_notes().empty());
  std::string ran_on;
  ExecutionOptions options;
  options.observer = [&](const OperandDump& d) { ran_on = std::string(d.backend); };
  HostTensor x = tensor<uint8_t>(OPRIG_DTYPE_UINT_8, {1}, {192});
  const std::vector<HostTensor> in = {x};
  const ExecutionResult r = p.execute(in, options);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(ran_on, "dsp");
  EXPECT_NEAR(values<uint8_t>(r.outputs.at(0)).at(0), 229, 1);
}

TEST(Partition, TopLevelPackageOpWithoutTargetKernelRunsOnCpu) {
  Backend* dsp = backend_or_null("dsp");
  if (dsp == nullptr) GTEST_SKIP() << "dsp backend not built";
  // Iota registers a cpu kernel only.
  const PreparedModel p = prepare(load("iota_in_while.json"), {dsp, &cpu()});
  ASSERT_EQ(p.placement_notes().size(), 3u);  // two top-level Iotas and the WHILE
  EXPECT_NE(p.placement_notes()[0].find("subgraph 0 operation 0 (org.oprig.test.iota:Iota) runs on cpu"),
            std::string::npos) << p.placement_notes()[0];
  EXPECT_NE(p.placement_notes()[0].find("registers no dsp kernel"), std::string::npos) << p.placement_notes()[0];
  const std::vector<HostTensor> in = {i32(3)};
  const ExecutionResult r = p.execute(in);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(1)), (std::vector<int32_t>{0, 1}));
}

}  // namespace
}  // namespace oprig::graph::test
