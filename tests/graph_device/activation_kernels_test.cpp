// ADD, SUB and MUL with NNAPI's fused-activation operand on every device: the
// constant FuseCode reaches ElementwiseBinary as its fused_activation
// parameter (the kernel takes the two tensors only). Hand-derived clamps
// (NaN and -0 pass, infinities clamp), every pair of edge values under every
// activation against the host kernels, and an activation that is not a
// constant keeping the operation on the host with a note saying why.
#include <bit>
#include <cmath>
#include <limits>

#include "builtin_kernel_fixture.hpp"

namespace oprig::graph::device_test {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// y = op(a, b, act) on FLOAT_32 (or `type`), act a constant.
std::string with_activation(const std::string& op, int32_t act, const std::vector<int64_t>& a,
                            const std::vector<int64_t>& b, oprig_dtype type = OPRIG_DTYPE_FLOAT_32) {
  return single_op(op, {input_operand(type, a), input_operand(type, b), int32_scalar(act), output_operand(type)});
}

TEST_P(BuiltinKernels, FusedActivationsClampOnTheDevice) {
  const std::vector<int64_t> dims = {6};
  // a + b = {-2, 5, 7, NaN, -0, 1e30}; RELU6 = min(max(r, 0), 6) keeps -0 and NaN.
  const HostTensor relu6 = run(with_activation("ADD", 3, dims, dims),
                               {tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {-3, 2, 5, kNaN, -0.0f, 1e30f}),
                                tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {1, 3, 2, 1, -0.0f, 1})},
                               has_float());
  const std::vector<float> r6 = values<float>(relu6);
  EXPECT_EQ(r6[0], 0.0f);
  EXPECT_EQ(r6[1], 5.0f);
  EXPECT_EQ(r6[2], 6.0f);
  EXPECT_TRUE(std::isnan(r6[3]));
  EXPECT_EQ(std::bit_cast<uint32_t>(r6[4]), 0x80000000u);  // -0
  EXPECT_EQ(r6[5], 6.0f);
  // a * b = {-3, 0.5, -0.5, -0.5, -inf, inf}; RELU1 clamps to [-1, 1].
  const HostTensor relu1 = run(with_activation("MUL", 2, dims, dims),
                               {tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {-3, 0.5f, -0.25f, 2, -kInf, kInf}),
                                tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {1, 1, 2, -0.25f, 1, 1})},
                               has_float());
  EXPECT_EQ(values<float>(relu1), (std::vector<float>{-1, 0.5f, -0.5f, -0.5f, -1, 1}));
  // a - b = {-1, 2, +0, -0, -inf, inf}; RELU = max(r, 0): -inf -> 0, -0 stays.
  const HostTensor relu = run(with_activation("SUB", 1, dims, dims),
                              {tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {1, -1, 0, -0.0f, -kInf, kInf}),
                               tensor<float>(OPRIG_DTYPE_FLOAT_32, dims, {2, -3, 0, 0, 1, 1})},
                              has_float());
  const std::vector<float> r = values<float>(relu);
  EXPECT_EQ(r[0], 0.0f);
  EXPECT_EQ(r[1], 2.0f);
  EXPECT_EQ(std::bit_cast<uint32_t>(r[2]), 0u);
  EXPECT_EQ(std::bit_cast<uint32_t>(r[3]), 0x80000000u);
  EXPECT_EQ(r[4], 0.0f);
  EXPECT_EQ(r[5], kInf);
}

TEST_P(BuiltinKernels, IntegerArithmeticWithActivationNoneRunsOnTheDevice) {
  // NNAPI allows only NONE on TENSOR_INT32; the operand is there all the same.
  const std::vector<int64_t> dims = {3}, one = {1};
  const HostTensor y = run(with_activation("SUB", 0, dims, one, OPRIG_DTYPE_INT_32),
                           {tensor<int32_t>(OPRIG_DTYPE_INT_32, dims, {5, -7, std::numeric_limits<int32_t>::min()}),
                            tensor<int32_t>(OPRIG_DTYPE_INT_32, one, {8})},
                           true);
  EXPECT_EQ(values<int32_t>(y), (std::vector<int32_t>{-3, -15, std::numeric_limits<int32_t>::max() - 7}));
}

TEST_P(BuiltinKernels, EveryActivationMatchesTheHostOnEveryPair) {
  const std::vector<float> edge = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.75f, 6.0f, 5.9999995f, 6.0000005f, -1.0000001f,
                                   std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
                                   std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(), kInf, -kInf,
                                   kNaN, 3.0f, -2.5f};
  for (const char* op : {"ADD", "SUB", "MUL"})
    for (int32_t act = 0; act <= 3; ++act) {
      SCOPED_TRACE(std::string(op) + " activation " + std::to_string(act));
      all_pairs<float>([&](const std::vector<int64_t>& a,
                           const std::vector<int64_t>& b) { return with_activation(op, act, a, b); },
                       OPRIG_DTYPE_FLOAT_32, edge, has_float());
    }
}

TEST_P(BuiltinKernels, AnActivationThatIsNoConstantStaysOnTheHost) {
  const std::vector<int64_t> dims = {2};
  const std::string model = single_op("ADD", {input_operand(OPRIG_DTYPE_INT_32, dims),
                                              input_operand(OPRIG_DTYPE_INT_32, dims), int32_scalar_input(),
                                              output_operand(OPRIG_DTYPE_INT_32)});
  const PreparedModel p = prepare_on(*target_, parse(model));
  EXPECT_EQ(p.placements().at(0).backend, "cpu");
  ASSERT_EQ(p.placement_notes().size(), 1u);
  EXPECT_NE(p.placement_notes()[0].find("the fused activation is not a constant"), std::string::npos)
      << p.placement_notes()[0];
  HostTensor act;
  act.dtype = OPRIG_DTYPE_INT_32;
  act.data.resize(4);  // a scalar 0: NONE
  const std::vector<HostTensor> in = {tensor<int32_t>(OPRIG_DTYPE_INT_32, dims, {1, 2}),
                                      tensor<int32_t>(OPRIG_DTYPE_INT_32, dims, {10, 20}), act};
  const ExecutionResult r = p.execute(in);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<int32_t>(r.outputs.at(0)), (std::vector<int32_t>{11, 22}));
}

}  // namespace
}  // namespace oprig::graph::device_test
