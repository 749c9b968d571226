// Placement with the opsuite's built-in kernel map: a WHILE whose subgraphs
// hold only operations the device has kernels for runs there, operations
// and all; one operation without a kernel sends the whole WHILE to cpu with
// a note naming it; without a map the built-ins stay on the host.
#include <gtest/gtest.h>

#include "device_test_support.hpp"

namespace oprig::graph::device_test {
namespace {

class Placement : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    target_ = backend_or_null(GetParam());
    if (target_ == nullptr) GTEST_SKIP() << GetParam() << " is not available here";
  }
  Backend* target_ = nullptr;
};

// Every output an observer sees, with the backend that produced it.
std::vector<std::pair<std::string, std::string>> run_observed(const PreparedModel& p, const std::vector<HostTensor>& in,
                                                              ExecutionResult* result) {
  std::vector<std::pair<std::string, std::string>> seen;
  ExecutionOptions options;
  options.observer = [&](const OperandDump& d) { seen.emplace_back(std::string(d.op_name), std::string(d.backend)); };
  *result = p.execute(in, options);
  return seen;
}

TEST_P(Placement, WhileOfIntegerBuiltinsRunsOnTheDevice) {
  const PreparedModel p = prepare_on(*target_, parse(kCountingLoop));
  EXPECT_TRUE(p.placement_notes().empty()) << p.placement_notes().at(0);
  ASSERT_EQ(p.placements().size(), 4u);  // LESS, ADD, ADD, WHILE
  for (const OperationPlacement& placed : p.placements())
    EXPECT_EQ(placed.backend, GetParam()) << placed.op_name << " of subgraph " << placed.subgraph;
  ExecutionResult r;
  const auto seen = run_observed(p, {i32(5)}, &r);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  // n = 5: i counts to 5 and acc = 1 + 2 + 3 + 4 + 5 = 15.
  EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{5});
  EXPECT_EQ(values<int32_t>(r.outputs.at(1)), std::vector<int32_t>{15});
  EXPECT_EQ(r.loop_iterations, 5u);
  // 6 conditions, 5 x 2 ADDs, 2 WHILE outputs: all produced on the device.
  ASSERT_EQ(seen.size(), 18u);
  for (const auto& [op, backend] : seen) EXPECT_EQ(backend, GetParam()) << op;
}

TEST_P(Placement, OneOperationWithoutAKernelSendsTheWholeWhileToCpu) {
  const PreparedModel p = prepare_on(*target_, parse(kCountingLoopWithQuantisedCast));
  ASSERT_EQ(p.placement_notes().size(), 1u);
  const std::string& note = p.placement_notes()[0];
  EXPECT_NE(note.find("subgraph 0 operation 0 (WHILE) runs on cpu with every subgraph it references"),
            std::string::npos) << note;
  EXPECT_NE(note.find("subgraph 2 operation 2 (CAST)"), std::string::npos) << note;
  EXPECT_NE(note.find("no device kernel for CAST on INT_32 [1]"), std::string::npos) << note;
  EXPECT_NE(note.find("requantisation on the host"), std::string::npos) << note;
  for (const OperationPlacement& placed : p.placements()) EXPECT_EQ(placed.backend, "cpu") << placed.op_name;
  ExecutionResult r;
  const auto seen = run_observed(p, {i32(4)}, &r);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(1)), std::vector<int32_t>{10});  // 1 + 2 + 3 + 4, exact through q(1, 0)
  for (const auto& [op, backend] : seen) EXPECT_EQ(backend, "cpu") << op;
}

TEST_P(Placement, TopLevelBuiltinsRunOnTheDevice) {
  const PreparedModel p = prepare_on(*target_, parse(add_chain_model(3)));
  EXPECT_TRUE(p.placement_notes().empty());
  for (const OperationPlacement& placed : p.placements()) {
    EXPECT_EQ(placed.backend, GetParam());
    EXPECT_EQ(placed.kernel, "org.oprig.opsuite:ElementwiseBinary");
  }
  const ExecutionResult r = p.execute(std::vector<HostTensor>{i32(39)});
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{42});
}

TEST_P(Placement, WithoutAMapBuiltinsStayOnTheHost) {
  const PreparedModel p = prepare(parse(kCountingLoop), {target_, &cpu()});
  EXPECT_TRUE(p.placement_notes().empty());
  for (const OperationPlacement& placed : p.placements())
    if (placed.op_name != "WHILE") {
      EXPECT_EQ(placed.backend, "cpu") << placed.op_name;
    }
  const ExecutionResult r = p.execute(std::vector<HostTensor>{i32(3)});
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(1)), std::vector<int32_t>{6});
}

TEST_P(Placement, FloatBuiltinsFallBackOnTheDspSayingWhy) {
  if (GetParam() != "dsp") GTEST_SKIP() << "the dsp simulator is the one device without float";
  const PreparedModel p = prepare_on(*target_, parse(R"({"format": "oprig.model/1", "subgraphs": [{"operands": [
      {"type": "FLOAT_32", "dims": [2], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "FLOAT_32", "dims": [2], "lifetime": "SUBGRAPH_OUTPUT"}],
      "operations": [{"type": "ADD", "inputs": [0, 0], "outputs": [1]}], "inputs": [0], "outputs": [1]}]})"));
  ASSERT_EQ(p.placement_notes().size(), 1u);
  EXPECT_NE(p.placement_notes()[0].find("subgraph 0 operation 0 (ADD) runs on cpu: dsp has no FLOAT_32 kernels"),
            std::string::npos) << p.placement_notes()[0];
  EXPECT_EQ(p.placements().at(0).backend, "cpu");
  const ExecutionResult r = p.execute(std::vector<HostTensor>{tensor<float>(OPRIG_DTYPE_FLOAT_32, {2}, {1.5f, -2.0f})});
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<float>(r.outputs.at(0)), (std::vector<float>{3.0f, -4.0f}));
}

INSTANTIATE_TEST_SUITE_P(Devices, Placement, ::testing::ValuesIn(kDevices),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace oprig::graph::device_test
