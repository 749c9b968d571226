// The Atan OpenCL kernel through the package ABI, run by the opencl backend,
// checked against std::atan in fp64 on the fp32 sum x + offset (the op's
// semantics): at most 3 fp32 ulp, 1 fp16 step from the correctly rounded
// fp16, exact special values, denormals not flushed.
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "atan_package.hpp"
#include "core/half.hpp"
#include "opencl_fixture.hpp"

namespace oprig::testing {
namespace {

// One fp32 ulp at the magnitude of r: the spacing of floats in r's binade
// (denormal spacing 2^-149 below FLT_MIN).
double fp32_ulp(double r) {
  const double a = std::fabs(r);
  if (a < FLT_MIN) return 0x1p-149;
  int exponent = 0;
  std::frexp(a, &exponent);  // a = m * 2^exponent, m in [0.5, 1)
  return std::ldexp(1.0, exponent - 24);
}

double ulp_error(float y, double reference) {
  return std::fabs(static_cast<double>(y) - reference) / fp32_ulp(reference);
}

// fp16 bit patterns in value order (both zeros at 0), so a difference counts
// representable steps.
int ordered_half(uint16_t h) {
  return (h & 0x8000u) ? -static_cast<int>(h & 0x7fffu) : static_cast<int>(h);
}

bool half_is_nan(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

// The fp16 nearest to r (ties to even), by checking the neighbours of a first guess.
uint16_t correctly_rounded_half(double r) {
  const uint16_t guess = float_to_half(static_cast<float>(r));
  uint16_t best = guess;
  double best_error = std::fabs(half_to_float(guess) - r);
  for (int delta : {-1, 1}) {
    const int ordered = ordered_half(guess) + delta;
    const uint16_t candidate = ordered < 0 ? static_cast<uint16_t>(0x8000u | -ordered)
                                           : static_cast<uint16_t>(ordered);
    if ((candidate & 0x7c00u) == 0x7c00u) continue;  // not past the finite range
    const double error = std::fabs(half_to_float(candidate) - r);
    if (error < best_error || (error == best_error && (candidate & 1u) == 0)) {
      best = candidate;
      best_error = error;
    }
  }
  return best;
}

struct AtanResult {
  oprig_status prepare_status = OPRIG_STATUS_INTERNAL;
  oprig_status execute_status = OPRIG_STATUS_INTERNAL;
  oprig_tensor output{};
  std::vector<std::byte> bytes;
  ExecTiming timing;
  oprig_cost cost{};
  bool guards_intact = false;
};

class OpenCLAtanTest : public OpenCLTest {
 protected:
  void SetUp() override {
    OpenCLTest::SetUp();
    if (IsSkipped()) return;
    static OpenCLImplementation library;  // loaded once per process
    impl_ = library.implementation();
    ASSERT_NE(impl_, nullptr) << library.error();
  }

  // create, prepare, execute through the backend, read back, destroy.
  AtanResult run(oprig_dtype dtype, std::vector<int64_t> dims, std::span<const std::byte> input,
                 float offset, oprig_dtype output_dtype = OPRIG_DTYPE_INVALID) {
    AtanResult result;
    const oprig_param param{"offset", OPRIG_DTYPE_FLOAT_32, 1, &offset};
    oprig_kernel* kernel = nullptr;
    EXPECT_EQ(impl_->create(&backend_->context(), "Atan", &param, 1, &kernel), OPRIG_STATUS_OK);
    if (kernel == nullptr) return result;

    oprig_tensor in{};
    in.dtype = dtype;
    in.rank = static_cast<uint32_t>(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) in.dims[i] = dims[i];
    oprig_tensor out{};
    out.dtype = output_dtype == OPRIG_DTYPE_INVALID ? dtype : output_dtype;
    out.rank = 99;  // the kernel must set it
    result.prepare_status = impl_->prepare(kernel, &in, 1, &out, 1);
    result.output = out;
    if (result.prepare_status != OPRIG_STATUS_OK) {
      impl_->destroy(kernel);
      return result;
    }
    auto src = backend_->allocate(input.size());
    auto dst = backend_->allocate(input.size());
    backend_->write(*src, input);
    src->bind(in);
    dst->bind(out);
    result.execute_status = backend_->execute(*impl_, kernel, {&in, 1}, {&out, 1}, result.timing);
    result.bytes.resize(input.size());
    backend_->read(*dst, result.bytes);
    result.guards_intact = src->guards_intact() && dst->guards_intact();
    EXPECT_EQ(impl_->cost(kernel, &result.cost), OPRIG_STATUS_OK);
    impl_->destroy(kernel);
    return result;
  }

  std::vector<float> run_f32(const std::vector<float>& x, float offset, AtanResult* keep = nullptr) {
    const auto input = std::as_bytes(std::span(x));
    AtanResult result = run(OPRIG_DTYPE_FLOAT_32, {static_cast<int64_t>(x.size())}, input, offset);
    EXPECT_EQ(result.prepare_status, OPRIG_STATUS_OK);
    EXPECT_EQ(result.execute_status, OPRIG_STATUS_OK);
    EXPECT_TRUE(result.guards_intact);
    std::vector<float> y(x.size());
    if (result.bytes.size() == y.size() * sizeof(float))
      std::memcpy(y.data(), result.bytes.data(), result.bytes.size());
    if (keep != nullptr) *keep = std::move(result);
    return y;
  }

  // Max ulp error over x (NaN inputs must give NaN and are not counted).
  static double max_ulp_error(const std::vector<float>& x, const std::vector<float>& y, float offset,
                              size_t* worst_index) {
    double worst = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const float v = x[i] + offset;  // fp32 sum, as the op defines it
      if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(y[i])) << "x=" << x[i];
        continue;
      }
      const double e = ulp_error(y[i], std::atan(static_cast<double>(v)));
      if (!(e <= worst)) {
        worst = e;
        *worst_index = i;
      }
    }
    return worst;
  }

  const oprig_implementation_v1* impl_ = nullptr;
};

std::vector<float> edge_values() {
  const float inf = std::numeric_limits<float>::infinity();
  return {0.0f,  -0.0f,    inf,      -inf,     std::numeric_limits<float>::quiet_NaN(),
          1.0f,  -1.0f,    FLT_MAX,  -FLT_MAX, FLT_MIN, -FLT_MIN,
          std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
          std::bit_cast<float>(0x007fffffu), std::bit_cast<float>(0x807fffffu),
          std::bit_cast<float>(0x00012345u), 0.41421356f, 0.41421359f, 2.4142134f, 2.4142137f,
          -0.41421356f, -2.4142137f, 1e-20f, 1e20f, 16777216.0f};
}

TEST_F(OpenCLAtanTest, WithinThreeUlpOverTheWholeFp32Range) {
  // Every 431st bit pattern (about 10M values over all signs, exponents,
  // denormals, infinities and NaNs) plus the edge set.
  std::vector<float> x;
  x.reserve((uint64_t{1} << 32) / 431 + 64);
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 431)
    x.push_back(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  for (float e : edge_values()) x.push_back(e);
  AtanResult timing;
  const std::vector<float> y = run_f32(x, 0.0f, &timing);
  size_t worst = 0;
  const double max_ulp = max_ulp_error(x, y, 0.0f, &worst);
  std::printf("[ max fp32 error ] %.3f ulp over %zu inputs (worst x = %a -> %a)\n", max_ulp,
              x.size(), x[worst], y[worst]);
  EXPECT_LE(max_ulp, 3.0) << "worst x = " << x[worst];
  EXPECT_GT(timing.timing.compute_ns, 0.0);
}

TEST_F(OpenCLAtanTest, WithinThreeUlpWithAnOffset) {
  std::mt19937 rng(20240601);
  std::uniform_real_distribution<float> moderate(-10.0f, 10.0f);
  std::uniform_real_distribution<float> exponent(-30.0f, 30.0f);
  std::vector<float> x(1 << 20);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = i % 2 ? moderate(rng) : std::copysign(std::exp2(exponent(rng)), moderate(rng));
  for (float offset : {0.75f, -1.0f, 3.0f}) {
    const std::vector<float> y = run_f32(x, offset);
    size_t worst = 0;
    const double max_ulp = max_ulp_error(x, y, offset, &worst);
    std::printf("[ max fp32 error ] %.3f ulp, offset %g\n", max_ulp, offset);
    EXPECT_LE(max_ulp, 3.0) << "offset " << offset << ", worst x = " << x[worst];
  }
}

TEST_F(OpenCLAtanTest, SpecialValuesAreExact) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float dmin = std::numeric_limits<float>::denorm_min();
  const float dmax = std::bit_cast<float>(0x007fffffu);
  const std::vector<float> x = {0.0f, -0.0f, inf, -inf, nan, -nan, dmin, -dmin, dmax, -dmax};
  // offset -0 keeps the sign of every zero (x + -0 = x for all x, -0 included);
  // with offset +0, -0 + +0 = +0 in IEEE arithmetic, so atan(-0 + 0) = +0.
  for (float offset : {-0.0f, 0.0f}) {
    const std::vector<float> y = run_f32(x, offset);
    ASSERT_EQ(y.size(), x.size());
    EXPECT_EQ(std::bit_cast<uint32_t>(y[0]), 0x00000000u) << "atan(+0) = +0";
    EXPECT_EQ(std::bit_cast<uint32_t>(y[1]), std::signbit(offset) ? 0x80000000u : 0u)
        << "atan(-0 + " << offset << ")";
    const float half_pi = static_cast<float>(std::atan(static_cast<double>(inf)));  // pi/2 rounded
    EXPECT_EQ(y[2], half_pi);
    EXPECT_EQ(y[3], -half_pi);
    EXPECT_TRUE(std::isnan(y[4]));
    EXPECT_TRUE(std::isnan(y[5]));
    for (size_t i = 6; i < x.size(); ++i)
      EXPECT_EQ(std::bit_cast<uint32_t>(y[i]), std::bit_cast<uint32_t>(x[i]))
          << "denormal " << x[i] << " must come back unflushed";
  }
}

TEST_F(OpenCLAtanTest, SeedExampleWithOffsetOne) {
  // Seed 001: atan(x + 1) for x = [-8, 0.5, 2, 2.2, 201].
  const std::vector<float> x = {-8.0f, 0.5f, 2.0f, 2.2f, 201.0f};
  const std::vector<double> expected = {-1.4288993, 0.98279375, 1.2490457, 1.2679114, 1.5658458};
  const std::vector<float> y = run_f32(x, 1.0f);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(y[i], expected[i], 2e-7) << "x = " << x[i];
    EXPECT_LE(ulp_error(y[i], std::atan(static_cast<double>(x[i] + 1.0f))), 3.0);
  }
}

TEST_F(OpenCLAtanTest, EveryFp16WithinOneStepOfTheCorrectlyRoundedResult) {
  std::vector<uint16_t> x(1 << 16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint16_t>(i);
  for (float offset : {0.0f, 0.5f}) {
    AtanResult result = run(OPRIG_DTYPE_FLOAT_16, {256, 256}, std::as_bytes(std::span(x)), offset);
    ASSERT_EQ(result.prepare_status, OPRIG_STATUS_OK);
    ASSERT_EQ(result.execute_status, OPRIG_STATUS_OK);
    EXPECT_TRUE(result.guards_intact);
    EXPECT_EQ(result.output.rank, 2u);
    std::vector<uint16_t> y(x.size());
    std::memcpy(y.data(), result.bytes.data(), result.bytes.size());
    int worst_steps = 0;
    size_t exact = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const float v = half_to_float(x[i]) + offset;
      if (std::isnan(v)) {
        EXPECT_TRUE(half_is_nan(y[i])) << "x bits " << x[i];
        continue;
      }
      const uint16_t want = correctly_rounded_half(std::atan(static_cast<double>(v)));
      const int steps = std::abs(ordered_half(y[i]) - ordered_half(want));
      worst_steps = std::max(worst_steps, steps);
      exact += steps == 0;
      EXPECT_LE(steps, 1) << "x bits " << x[i] << " got " << y[i] << " want " << want;
      if (offset == 0.0f && (x[i] & 0x7c00u) == 0) {
        // fp16 zeros and denormals come back as they are (-0 as +0: -0 + +0 = +0)
        EXPECT_EQ(y[i], x[i] == 0x8000u ? 0u : x[i]);
      }
    }
    std::printf("[ fp16 ] offset %g: max %d step(s), %zu of %zu correctly rounded\n", offset,
                worst_steps, exact, x.size());
  }
}

TEST_F(OpenCLAtanTest, ShapesAndTailsKeepEveryElementAndTheGuards) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-5.0f, 5.0f);
  for (const std::vector<int64_t>& dims :
       std::vector<std::vector<int64_t>>{{1}, {2}, {7}, {8}, {9}, {15}, {16}, {17}, {31}, {33},
                                         {127}, {1, 3, 5, 7}, {}}) {
    size_t n = 1;
    for (int64_t d : dims) n *= static_cast<size_t>(d);
    std::vector<float> x(n);
    for (float& v : x) v = dist(rng);
    AtanResult result = run(OPRIG_DTYPE_FLOAT_32, dims, std::as_bytes(std::span(x)), 0.25f);
    ASSERT_EQ(result.prepare_status, OPRIG_STATUS_OK);
    ASSERT_EQ(result.execute_status, OPRIG_STATUS_OK);
    EXPECT_TRUE(result.guards_intact) << n << " elements";
    ASSERT_EQ(result.output.rank, dims.size());
    for (size_t i = 0; i < dims.size(); ++i) EXPECT_EQ(result.output.dims[i], dims[i]);
    std::vector<float> y(n);
    std::memcpy(y.data(), result.bytes.data(), result.bytes.size());
    for (size_t i = 0; i < n; ++i)
      EXPECT_LE(ulp_error(y[i], std::atan(static_cast<double>(x[i] + 0.25f))), 3.0)
          << n << " elements, index " << i;
    EXPECT_EQ(result.cost.flops, 18u * n);
    EXPECT_EQ(result.cost.bytes_read, 4u * n);
    EXPECT_EQ(result.cost.bytes_written, 4u * n);
  }
}

TEST_F(OpenCLAtanTest, EmptyTensorRunsWithoutWork) {
  for (const std::vector<int64_t>& dims : std::vector<std::vector<int64_t>>{{0}, {2, 0, 3}}) {
    AtanResult result = run(OPRIG_DTYPE_FLOAT_32, dims, {}, 0.0f);
    EXPECT_EQ(result.prepare_status, OPRIG_STATUS_OK);
    EXPECT_EQ(result.execute_status, OPRIG_STATUS_OK);
    EXPECT_TRUE(result.guards_intact);
    EXPECT_EQ(result.timing.compute_ns, 0.0);
    EXPECT_EQ(result.cost.flops, 0u);
    ASSERT_EQ(result.output.rank, dims.size());
    for (size_t i = 0; i < dims.size(); ++i) EXPECT_EQ(result.output.dims[i], dims[i]);
  }
}

TEST_F(OpenCLAtanTest, RepeatedRunsAreBitwiseIdentical) {
  std::vector<float> x(100003);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  for (float& v : x) v = dist(rng);
  const std::vector<float> first = run_f32(x, 0.5f);
  const std::vector<float> second = run_f32(x, 0.5f);
  EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(float)), 0);
}

TEST_F(OpenCLAtanTest, RefusesWhatItDoesNotImplement) {
  const std::vector<std::byte> four(4);
  EXPECT_EQ(run(OPRIG_DTYPE_INT_32, {1}, four, 0.0f).prepare_status, OPRIG_STATUS_UNSUPPORTED);
  EXPECT_EQ(run(OPRIG_DTYPE_FLOAT_64, {1}, four, 0.0f).prepare_status, OPRIG_STATUS_UNSUPPORTED);
  EXPECT_EQ(run(OPRIG_DTYPE_FLOAT_32, {1}, four, 0.0f, OPRIG_DTYPE_FLOAT_16).prepare_status,
            OPRIG_STATUS_INVALID_ARGUMENT);
  oprig_kernel* kernel = reinterpret_cast<oprig_kernel*>(this);
  EXPECT_EQ(impl_->create(&backend_->context(), "Tan", nullptr, 0, &kernel),
            OPRIG_STATUS_UNSUPPORTED);
  EXPECT_EQ(kernel, nullptr) << "out-parameter cleared on failure";
}

}  // namespace
}  // namespace oprig::testing
