// The Atan compute shader through the package ABI (dlopen of
// liboprig_opsuite_vulkan.so), against fp64 std::atan: <= 3 ulp on fp32 over
// random bit patterns and the edge set, exhaustive fp16 within one fp16 step
// of the correctly rounded result, empty tensors, NaN and infinities.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <random>

#include "core/half.hpp"
#include "support.hpp"

namespace oprig::vulkan::testing {
namespace {

constexpr double kMaxUlp = 3.0;

float from_bits(uint32_t bits) { return std::bit_cast<float>(bits); }

// ±0, ±Inf, NaNs, denormals, ±1, ±FLT_MAX, and the neighbours of every point
// where the shader changes path (reduction thresholds, the tiny-input cut).
std::vector<float> edge_values() {
  std::vector<float> edges = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1.0f, -1.0f,
                              FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN, FLT_TRUE_MIN, -FLT_TRUE_MIN,
                              from_bits(0x007fffffu), from_bits(0x807fffffu),
                              from_bits(0x00400000u), from_bits(0x80000123u),
                              from_bits(0x7fc00001u), from_bits(0x7f800001u)};
  for (double point : {0.41421356237309503, 2.414213562373095, 1.0, 0x1p-13, 0x1p-100, 1e30}) {
    float f = static_cast<float>(point);
    for (int step = 0; step < 4; ++step) {
      edges.push_back(f);
      edges.push_back(-f);
      f = std::nextafter(f, INFINITY);
    }
    f = static_cast<float>(point);
    for (int step = 0; step < 4; ++step) edges.push_back(f = std::nextafter(f, 0.0f));
  }
  return edges;
}

std::vector<float> random_and_edge_inputs(size_t random_count, uint32_t seed) {
  std::vector<float> values = edge_values();
  std::mt19937 rng(seed);
  // Uniform over bit patterns: every exponent, denormals and NaNs included.
  for (size_t i = 0; i < random_count; ++i) values.push_back(from_bits(static_cast<uint32_t>(rng())));
  // And plainly uniform over the region where atan bends.
  std::uniform_real_distribution<float> near(-8.0f, 8.0f);
  for (size_t i = 0; i < random_count / 4; ++i) values.push_back(near(rng));
  return values;
}

struct Worst {
  double ulp = 0;
  float input = 0;
  float got = 0;
  double expected = 0;
};

// The fp32 check: y = atan(x + offset), x + offset rounded in fp32 (host IEEE).
Worst worst_f32(const std::vector<float>& inputs, const std::vector<std::byte>& output,
                float offset) {
  Worst worst;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const float sum = inputs[i] + offset;
    const double expected = std::atan(static_cast<double>(sum));
    float got;
    std::memcpy(&got, output.data() + i * sizeof(float), sizeof got);
    const double error = ulp_error_f32(got, expected);
    if (!(error <= worst.ulp)) worst = {error, inputs[i], got, expected};
  }
  return worst;
}

void expect_f32_within_bound(Backend& backend, const std::vector<float>& inputs, float offset) {
  const AtanRun run = run_atan(backend, OPRIG_DTYPE_FLOAT_32, as_bytes(inputs), inputs.size(), offset);
  ASSERT_EQ(run.status, OPRIG_STATUS_OK);
  EXPECT_TRUE(run.input_unchanged);
  EXPECT_TRUE(run.guards_intact);
  const Worst worst = worst_f32(inputs, run.output, offset);
  EXPECT_LE(worst.ulp, kMaxUlp) << "offset " << offset << ": atan(" << worst.input << " + offset) = "
                                << worst.got << ", fp64 " << worst.expected;
  ::testing::Test::RecordProperty("max_ulp_x1000", static_cast<int>(worst.ulp * 1000));
  std::printf("[ info ] offset %g: max %.3f ulp over %zu inputs\n", offset, worst.ulp,
              inputs.size());
}

class VulkanAtan : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    backend_ = make_backend(&why);
    if (!backend_) GTEST_SKIP() << "no Vulkan backend: " << why;
    ASSERT_NE(opsuite_vulkan(&why), nullptr) << why;
  }
  std::unique_ptr<Backend> backend_;
};

TEST_F(VulkanAtan, F32WithinThreeUlpOverRandomBitsAndEdges) {
  expect_f32_within_bound(*backend_, random_and_edge_inputs(1 << 20, 1), 0.0f);
}

TEST_F(VulkanAtan, F32WithinThreeUlpWithOffsets) {
  const std::vector<float> inputs = random_and_edge_inputs(1 << 16, 2);
  for (float offset : {0.5f, -1.0f, 3.0f, -1e30f}) expect_f32_within_bound(*backend_, inputs, offset);
}

TEST_F(VulkanAtan, DenormalsAreNotFlushed) {
  // atan(d) = d for a denormal d, also when d comes from adding a denormal offset.
  std::vector<float> inputs;
  for (uint32_t m : {1u, 2u, 3u, 0x1234u, 0x400000u, 0x7ffffeu, 0x7fffffu}) {
    inputs.push_back(from_bits(m));
    inputs.push_back(from_bits(0x80000000u | m));
  }
  inputs.push_back(FLT_MIN);
  inputs.push_back(-FLT_MIN);
  for (float offset : {0.0f, from_bits(5u), -from_bits(0x00400000u), FLT_MIN}) {
    const AtanRun run = run_atan(*backend_, OPRIG_DTYPE_FLOAT_32, as_bytes(inputs), inputs.size(), offset);
    ASSERT_EQ(run.status, OPRIG_STATUS_OK);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const float sum = inputs[i] + offset;  // host fp32, IEEE denormals
      float got;
      std::memcpy(&got, run.output.data() + i * sizeof(float), sizeof got);
      EXPECT_EQ(std::bit_cast<uint32_t>(got) & 0x7fffffffu, std::bit_cast<uint32_t>(sum) & 0x7fffffffu)
          << "x bits 0x" << std::hex << std::bit_cast<uint32_t>(inputs[i]) << " offset 0x"
          << std::bit_cast<uint32_t>(offset) << ": got 0x" << std::bit_cast<uint32_t>(got)
          << " want 0x" << std::bit_cast<uint32_t>(sum);
    }
  }
}

TEST_F(VulkanAtan, NanAndInfinities) {
  const std::vector<float> inputs = {NAN, -NAN, INFINITY, -INFINITY, from_bits(0x7f800001u)};
  const AtanRun run = run_atan(*backend_, OPRIG_DTYPE_FLOAT_32, as_bytes(inputs), inputs.size(), 0.0f);
  ASSERT_EQ(run.status, OPRIG_STATUS_OK);
  std::vector<float> got(inputs.size());
  std::memcpy(got.data(), run.output.data(), run.output.size());
  const float half_pi = static_cast<float>(M_PI / 2);  // pi/2 rounded to fp32
  EXPECT_TRUE(std::isnan(got[0]));
  EXPECT_TRUE(std::isnan(got[1]));
  EXPECT_EQ(got[2], half_pi);
  EXPECT_EQ(got[3], -half_pi);
  EXPECT_TRUE(std::isnan(got[4]));
  // An infinite offset turns every finite input into ±pi/2.
  const std::vector<float> finite = {0.0f, -5.0f, 1e38f};
  const AtanRun shifted = run_atan(*backend_, OPRIG_DTYPE_FLOAT_32, as_bytes(finite), finite.size(), -INFINITY);
  ASSERT_EQ(shifted.status, OPRIG_STATUS_OK);
  for (size_t i = 0; i < finite.size(); ++i) {
    float y;
    std::memcpy(&y, shifted.output.data() + i * sizeof y, sizeof y);
    EXPECT_EQ(y, -half_pi);
  }
}

TEST_F(VulkanAtan, OddSizesCoverTheTail) {
  // Sizes that are not multiples of the 4-element vectors the shader loads.
  for (size_t n : {1u, 2u, 3u, 5u, 7u, 17u, 1023u}) {
    std::vector<float> inputs(n);
    for (size_t i = 0; i < n; ++i) inputs[i] = static_cast<float>(i) * 0.37f - 2.0f;
    expect_f32_within_bound(*backend_, inputs, 0.25f);
  }
}

TEST_F(VulkanAtan, EmptyTensor) {
  for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16}) {
    const AtanRun run = run_atan(*backend_, dtype, {}, 0, 1.0f);
    EXPECT_EQ(run.status, OPRIG_STATUS_OK);
    EXPECT_TRUE(run.output.empty());
    EXPECT_TRUE(run.guards_intact);
    EXPECT_EQ(run.cost.flops, 0u);
  }
}

TEST_F(VulkanAtan, CostCountsBytesAndFlops) {
  const std::vector<float> inputs(100, 1.0f);
  const AtanRun run = run_atan(*backend_, OPRIG_DTYPE_FLOAT_32, as_bytes(inputs), inputs.size(), 0.0f);
  ASSERT_EQ(run.status, OPRIG_STATUS_OK);
  EXPECT_EQ(run.cost.bytes_read, 400u);
  EXPECT_EQ(run.cost.bytes_written, 400u);
  EXPECT_GT(run.cost.flops, 100u);
}

TEST_F(VulkanAtan, UnsupportedDtypeIsReportedAsSuch) {
  const oprig_implementation_v1* impl = opsuite_vulkan(nullptr);
  oprig_kernel* kernel = nullptr;
  ASSERT_EQ(impl->create(&backend_->context(), "Atan", nullptr, 0, &kernel), OPRIG_STATUS_OK);
  oprig_tensor in{};
  in.dtype = OPRIG_DTYPE_UINT_8;
  in.rank = 1;
  in.dims[0] = 4;
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_UINT_8;
  EXPECT_EQ(impl->prepare(kernel, &in, 1, &out, 1), OPRIG_STATUS_UNSUPPORTED);
  impl->destroy(kernel);
}

// Every fp16 bit pattern but the last (an odd count, so the shader's
// half-word tail runs): within one fp16 step of atan(x + offset) correctly
// rounded to fp16 from fp64, x + offset rounded in fp32.
void expect_f16_exhaustive(Backend& backend, float offset) {
  std::vector<uint16_t> inputs(0xffff);
  for (size_t i = 0; i < inputs.size(); ++i) inputs[i] = static_cast<uint16_t>(i);
  const AtanRun run = run_atan(backend, OPRIG_DTYPE_FLOAT_16, as_bytes(inputs), inputs.size(), offset);
  ASSERT_EQ(run.status, OPRIG_STATUS_OK);
  EXPECT_TRUE(run.guards_intact) << "the odd half-word tail must not touch the guard";
  EXPECT_TRUE(run.input_unchanged);
  int worst = 0;
  size_t off_by_one = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    uint16_t got;
    std::memcpy(&got, run.output.data() + i * 2, 2);
    const float sum = half_to_float(inputs[i]) + offset;
    const double expected = std::atan(static_cast<double>(sum));
    if (std::isnan(expected)) {
      EXPECT_TRUE((got & 0x7c00) == 0x7c00 && (got & 0x3ff) != 0) << "NaN in, NaN out at " << i;
      continue;
    }
    const int steps = half_steps(got, round_to_half(expected));
    if (steps > 0) ++off_by_one;
    if (steps > worst) {
      worst = steps;
      EXPECT_LE(steps, 1) << "x 0x" << std::hex << inputs[i] << " got 0x" << got << " want 0x"
                          << round_to_half(expected);
    }
  }
  std::printf("[ info ] fp16 offset %g: max %d step, %zu of %zu not correctly rounded\n", offset,
              worst, off_by_one, inputs.size());
}

TEST_F(VulkanAtan, F16ExhaustiveWithinOneStep) {
  expect_f16_exhaustive(*backend_, 0.0f);
  expect_f16_exhaustive(*backend_, 0.75f);
}

TEST(VulkanAtanStaged, SameResultsThroughStagingBuffers) {
  OPRIG_VULKAN_BACKEND_OR_SKIP(staged, /*force_staging=*/true);
  OPRIG_VULKAN_BACKEND_OR_SKIP(mapped);
  const std::vector<float> inputs = random_and_edge_inputs(4096, 3);
  const AtanRun a = run_atan(*staged, OPRIG_DTYPE_FLOAT_32, as_bytes(inputs), inputs.size(), 0.5f);
  const AtanRun b = run_atan(*mapped, OPRIG_DTYPE_FLOAT_32, as_bytes(inputs), inputs.size(), 0.5f);
  ASSERT_EQ(a.status, OPRIG_STATUS_OK);
  ASSERT_EQ(b.status, OPRIG_STATUS_OK);
  EXPECT_TRUE(a.guards_intact);
  EXPECT_EQ(a.output, b.output) << "the memory path must not change a single bit";
}

TEST_F(VulkanAtan, RepeatedRunsAreBitwiseIdentical) {
  const std::vector<float> inputs = random_and_edge_inputs(1 << 14, 4);
  const AtanRun first = run_atan(*backend_, OPRIG_DTYPE_FLOAT_32, as_bytes(inputs), inputs.size(), 0.1f);
  const AtanRun second = run_atan(*backend_, OPRIG_DTYPE_FLOAT_32, as_bytes(inputs), inputs.size(), 0.1f);
  ASSERT_EQ(first.status, OPRIG_STATUS_OK);
  EXPECT_EQ(first.output, second.output);
}

}  // namespace
}  // namespace oprig::vulkan::testing
