// Residency: operands of device-placed operations stay in device memory
// across operations and loop iterations. What crosses between host and
// device is counted by the executor (ExecutionResult::transfers): inputs and
// constants once, outputs once, and per WHILE iteration exactly one
// condition byte read back.
#include <gtest/gtest.h>

#include "device_test_support.hpp"

namespace oprig::graph::device_test {
namespace {

class Residency : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    target_ = backend_or_null(GetParam());
    if (target_ == nullptr) GTEST_SKIP() << GetParam() << " is not available here";
  }
  Backend* target_ = nullptr;
};

TEST_P(Residency, OneConditionByteCrossesPerIteration) {
  const PreparedModel p = prepare_on(*target_, parse(kCountingLoop));
  const ExecutionResult warm_up = p.execute(std::vector<HostTensor>{i32(1)});
  const ExecutionResult ten = p.execute(std::vector<HostTensor>{i32(10)});
  const ExecutionResult thirty = p.execute(std::vector<HostTensor>{i32(30)});
  ASSERT_EQ(warm_up.status, ExecutionStatus::kOk) << warm_up.message;
  ASSERT_EQ(thirty.status, ExecutionStatus::kOk) << thirty.message;
  EXPECT_EQ(values<int32_t>(thirty.outputs.at(1)), std::vector<int32_t>{465});  // 30 * 31 / 2
  if (!device_memory(GetParam())) {  // the dsp's kernels take host memory: nothing ever crosses
    EXPECT_EQ(thirty.transfers.uploads + thirty.transfers.downloads + thirty.transfers.device_copies, 0u);
    return;
  }
  // 20 more iterations: 20 more reads of one byte each, nothing else.
  EXPECT_EQ(thirty.transfers.downloads - ten.transfers.downloads, 20u);
  EXPECT_EQ(thirty.transfers.download_bytes - ten.transfers.download_bytes, 20u);
  EXPECT_EQ(thirty.transfers.uploads, ten.transfers.uploads);
  // Once the constants are on the device: n goes up, the two initial values
  // are copied on the device into the loop's slots, and down come 11
  // conditions and the 2 outputs.
  EXPECT_EQ(ten.transfers.uploads, 1u);
  EXPECT_EQ(ten.transfers.upload_bytes, 4u);
  EXPECT_EQ(ten.transfers.device_copies, 2u);
  EXPECT_EQ(ten.transfers.downloads, 11u + 2u);
  EXPECT_EQ(ten.transfers.download_bytes, 11u + 2u * 4u);
}

TEST_P(Residency, ConstantsGoUpOncePerExecutionState) {
  const PreparedModel p = prepare_on(*target_, parse(kCountingLoop));
  const ExecutionResult first = p.execute(std::vector<HostTensor>{i32(3)});
  const ExecutionResult second = p.execute(std::vector<HostTensor>{i32(3)});
  ASSERT_EQ(second.status, ExecutionStatus::kOk) << second.message;
  if (!device_memory(GetParam())) GTEST_SKIP() << "host memory";
  // The first run uploads the two initial values and the body's constant 1.
  EXPECT_EQ(first.transfers.uploads, second.transfers.uploads + 3);
}

TEST_P(Residency, AChainOfOperationsStaysOnTheDevice) {
  const PreparedModel p = prepare_on(*target_, parse(add_chain_model(100)));
  const ExecutionResult r = p.execute(std::vector<HostTensor>{i32(-58)});
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{42});
  if (!device_memory(GetParam())) GTEST_SKIP() << "host memory";
  EXPECT_EQ(r.transfers.uploads, 2u);    // x and the constant 1
  EXPECT_EQ(r.transfers.downloads, 1u);  // y
}

TEST_P(Residency, AHostOperationBetweenDeviceOperationsTakesItsInputDown) {
  // ADD on the device, a quantised CAST on the host (no device kernel), ADD
  // on the device again: x up, the ADD's output down for the CAST, the
  // CAST's output up, y down.
  const PreparedModel p = prepare_on(*target_, parse(R"({"format": "oprig.model/1", "subgraphs": [{"operands": [
      {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "INT_32", "dims": [1], "lifetime": "TEMPORARY"},
      {"type": "UINT_8", "dims": [1], "scale": 0.5, "zero_point": 0, "lifetime": "TEMPORARY"},
      {"type": "INT_32", "dims": [1], "lifetime": "TEMPORARY"},
      {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
      "operations": [{"type": "ADD", "inputs": [0, 0], "outputs": [1]},
                     {"type": "CAST", "inputs": [1], "outputs": [2]},
                     {"type": "CAST", "inputs": [2], "outputs": [3]},
                     {"type": "ADD", "inputs": [3, 3], "outputs": [4]}],
      "inputs": [0], "outputs": [4]}]})"));
  ASSERT_EQ(p.placement_notes().size(), 2u);
  const ExecutionResult r = p.execute(std::vector<HostTensor>{i32(21)});
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  // 21 + 21 = 42 -> q 84 at scale 0.5 -> 42 -> 84.
  EXPECT_EQ(values<int32_t>(r.outputs.at(0)), std::vector<int32_t>{84});
  if (!device_memory(GetParam())) GTEST_SKIP() << "host memory";
  EXPECT_EQ(r.transfers.uploads, 2u);
  EXPECT_EQ(r.transfers.downloads, 2u);
}

INSTANTIATE_TEST_SUITE_P(Devices, Residency, ::testing::ValuesIn(kDevices),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace oprig::graph::device_test
