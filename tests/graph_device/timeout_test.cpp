// The loop timeout holds on the device: a WHILE that never ends, placed on
// the device, stops with MISSED_DEADLINE and no outputs once the timeout has
// passed (it is checked before every condition, whose byte comes back from
// the device each iteration).
#include <gtest/gtest.h>

#include <chrono>

#include "device_test_support.hpp"

namespace oprig::graph::device_test {
namespace {

class DeviceTimeout : public ::testing::TestWithParam<std::string> {};

TEST_P(DeviceTimeout, EndlessLoopOnTheDeviceMissesItsDeadline) {
  Backend* target = backend_or_null(GetParam());
  if (target == nullptr) GTEST_SKIP() << GetParam() << " is not available here";
  const PreparedModel p = prepare_on(*target, parse(kEndlessLoop));
  EXPECT_TRUE(p.placement_notes().empty());
  for (const OperationPlacement& placed : p.placements()) EXPECT_EQ(placed.backend, GetParam()) << placed.op_name;
  ExecutionOptions options;
  options.loop_timeout = std::chrono::milliseconds(100);
  const ExecutionResult r = p.execute(std::vector<HostTensor>{i32(0)}, options);
  EXPECT_EQ(r.status, ExecutionStatus::kMissedDeadline) << r.message;
  EXPECT_TRUE(r.outputs.empty());
  EXPECT_GE(r.elapsed, std::chrono::milliseconds(100));
  EXPECT_LT(r.elapsed, std::chrono::seconds(5));  // one iteration past the timeout, not minutes
  EXPECT_GT(r.loop_iterations, 0u);
  EXPECT_NE(r.message.find("MISSED_DEADLINE"), std::string::npos) << r.message;
  // The device is left usable: nothing of the stopped loop is pending there.
  const PreparedModel counting = prepare_on(*target, parse(kCountingLoop));
  const ExecutionResult after = counting.execute(std::vector<HostTensor>{i32(4)});
  ASSERT_EQ(after.status, ExecutionStatus::kOk) << after.message;
  EXPECT_EQ(values<int32_t>(after.outputs.at(1)), std::vector<int32_t>{10});
}

INSTANTIATE_TEST_SUITE_P(Devices, DeviceTimeout, ::testing::ValuesIn(kDevices),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace oprig::graph::device_test
