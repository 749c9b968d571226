// F(1..n) through create/prepare/resolve_shapes/execute. Expected values are
// the textbook sequence written out by hand, never computed by the kernel's
// own code.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "fibonacci_library.hpp"

namespace {

using oprig::test::FibonacciLibrary;
using oprig::test::run_fibonacci;

// F(1..20), from any table of Fibonacci numbers.
const std::vector<uint64_t> kFirst20 = {1,   1,   2,   3,   5,   8,    13,   21,   34,   55,
                                        89,  144, 233, 377, 610, 987, 1597, 2584, 4181, 6765};

class FibonacciSequence : public ::testing::Test {
 protected:
  void SetUp() override {
    cpu_ = library_.cpu();
    ASSERT_NE(cpu_, nullptr) << library_.error();
  }
  FibonacciLibrary library_;
  const oprig_implementation_v1* cpu_ = nullptr;
};

TEST_F(FibonacciSequence, PrepareLeavesTheLengthUnknown) {
  const auto run = run_fibonacci(*cpu_, 10.0f, OPRIG_DTYPE_FLOAT_32);
  ASSERT_EQ(run.status, OPRIG_STATUS_OK) << run.failed_call;
  EXPECT_EQ(run.prepared_length, -1);
  EXPECT_EQ(run.resolved_length, 10);
}

TEST_F(FibonacciSequence, Float32ForSeveralN) {
  for (size_t n : {1u, 2u, 3u, 7u, 10u, 20u}) {
    const auto run = run_fibonacci(*cpu_, static_cast<float>(n), OPRIG_DTYPE_FLOAT_32);
    ASSERT_EQ(run.status, OPRIG_STATUS_OK) << "n=" << n << " " << run.failed_call;
    ASSERT_EQ(run.f32.size(), n);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(run.f32[i], static_cast<float>(kFirst20[i])) << "n=" << n << " i=" << i;
  }
  const auto ten = run_fibonacci(*cpu_, 10.0f, OPRIG_DTYPE_FLOAT_32);
  ASSERT_EQ(ten.f32.size(), 10u);
  EXPECT_EQ(ten.f32.back(), 55.0f);  // F(10) = 55
}

TEST_F(FibonacciSequence, Float32IsExactUpToF36AndRoundsToNearestEvenAfter) {
  const auto run = run_fibonacci(*cpu_, 37.0f, OPRIG_DTYPE_FLOAT_32);
  ASSERT_EQ(run.status, OPRIG_STATUS_OK) << run.failed_call;
  ASSERT_EQ(run.f32.size(), 37u);
  EXPECT_EQ(run.f32[35], 14930352.0f);  // F(36) < 2^24: exact
  // F(37) = 24157817 lies in [2^24, 2^25) where fp32 steps by 2: a tie between
  // 24157816 (mantissa 12078908, even) and 24157818 (odd); nearest-even picks
  // 24157816.
  EXPECT_EQ(run.f32[36], 24157816.0f);
}

TEST_F(FibonacciSequence, Uint64PlainUpToF93) {
  const auto run = run_fibonacci(*cpu_, 93.0f, OPRIG_DTYPE_UINT_64);
  ASSERT_EQ(run.status, OPRIG_STATUS_OK) << run.failed_call;
  ASSERT_EQ(run.u64.size(), 93u);
  for (size_t i = 0; i < kFirst20.size(); ++i) EXPECT_EQ(run.u64[i], kFirst20[i]) << i;
  EXPECT_EQ(run.u64[89], 2880067194370816120ull);   // F(90)
  EXPECT_EQ(run.u64[90], 4660046610375530309ull);   // F(91)
  EXPECT_EQ(run.u64[91], 7540113804746346429ull);   // F(92)
  EXPECT_EQ(run.u64[92], 12200160415121876738ull);  // F(93), the last below 2^64
}

TEST_F(FibonacciSequence, NIsTruncatedTowardZero) {
  struct Case {
    float x;
    int64_t n;
  };
  for (const Case c : {Case{3.7f, 3}, Case{0.99f, 0}, Case{-0.0f, 0}, Case{93.9f, 93}, Case{1.0f, 1}}) {
    const auto run = run_fibonacci(*cpu_, c.x, OPRIG_DTYPE_UINT_64);
    ASSERT_EQ(run.status, OPRIG_STATUS_OK) << "x=" << c.x << " " << run.failed_call;
    EXPECT_EQ(run.resolved_length, c.n) << "x=" << c.x;
    EXPECT_EQ(static_cast<int64_t>(run.u64.size()), c.n) << "x=" << c.x;
  }
}

TEST_F(FibonacciSequence, ZeroGivesAnEmptyOutput) {
  for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_UINT_64}) {
    const auto run = run_fibonacci(*cpu_, 0.0f, dtype);
    ASSERT_EQ(run.status, OPRIG_STATUS_OK) << run.failed_call;
    EXPECT_EQ(run.resolved_length, 0);
    EXPECT_TRUE(run.f32.empty() && run.u64.empty());
  }
}

TEST_F(FibonacciSequence, InvalidNIsRejectedWhenTheShapeIsResolved) {
  const float inf = std::numeric_limits<float>::infinity();
  for (float x : {-1.0f, -0.5f, 94.0f, 1000.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN()}) {
    const auto run = run_fibonacci(*cpu_, x, OPRIG_DTYPE_FLOAT_32);
    EXPECT_EQ(run.status, OPRIG_STATUS_INVALID_ARGUMENT) << "x=" << x;
    EXPECT_EQ(run.failed_call, "resolve_shapes") << "x=" << x;
  }
}

// n as an EXAMPLE_INT64 scalar (8 bytes), the output as
// EXAMPLE_TENSOR_QUANT64_ASYMM at (0.25, 7): q = 4F + 7.
TEST_F(FibonacciSequence, ExtensionTypesInAndOut) {
  const oprig_backend_context ctx = oprig::test::cpu_context();
  oprig_kernel* kernel = nullptr;
  ASSERT_EQ(cpu_->create(&ctx, "Fibonacci", nullptr, 0, &kernel), OPRIG_STATUS_OK);
  int64_t n = 6;
  std::vector<uint64_t> out(6, 0);
  oprig_tensor src{}, dst{};
  src.dtype = OPRIG_DTYPE_EXTENSION(0);
  dst.dtype = OPRIG_DTYPE_EXTENSION(1);
  dst.scale = 0.25f;
  dst.zero_point = 7;
  ASSERT_EQ(cpu_->prepare(kernel, &src, 1, &dst, 1), OPRIG_STATUS_OK);
  EXPECT_EQ(dst.dims[0], -1);
  src.data = &n;
  src.bytes = sizeof n;
  ASSERT_EQ(cpu_->resolve_shapes(kernel, &src, 1, &dst, 1), OPRIG_STATUS_OK);
  ASSERT_EQ(dst.dims[0], 6);
  dst.data = out.data();
  dst.bytes = out.size() * sizeof(uint64_t);
  oprig_execute_info info{};
  info.struct_size = sizeof info;
  ASSERT_EQ(cpu_->execute(kernel, &src, 1, &dst, 1, &info), OPRIG_STATUS_OK);
  EXPECT_EQ(out, (std::vector<uint64_t>{11, 11, 15, 19, 27, 39}));  // F = 1 1 2 3 5 8
  // An EXAMPLE_INT64 n outside 0..93 has no sequence.
  for (int64_t bad : {int64_t{-1}, int64_t{94}}) {
    n = bad;
    EXPECT_EQ(cpu_->resolve_shapes(kernel, &src, 1, &dst, 1), OPRIG_STATUS_INVALID_ARGUMENT) << bad;
  }
  cpu_->destroy(kernel);
}

TEST_F(FibonacciSequence, ExecuteRefusesAnOutputOfTheWrongLength) {
  const oprig_backend_context ctx = oprig::test::cpu_context();
  oprig_kernel* kernel = nullptr;
  ASSERT_EQ(cpu_->create(&ctx, "Fibonacci", nullptr, 0, &kernel), OPRIG_STATUS_OK);
  float n = 10.0f;
  std::vector<float> out(5, 0.0f);
  oprig_tensor src{}, dst{};
  src.dtype = dst.dtype = OPRIG_DTYPE_FLOAT_32;
  src.rank = 1;
  src.dims[0] = 1;
  ASSERT_EQ(cpu_->prepare(kernel, &src, 1, &dst, 1), OPRIG_STATUS_OK);
  src.data = &n;
  src.bytes = sizeof n;
  dst.dims[0] = 5;  // the host skipped resolve_shapes: 5 is not n
  dst.data = out.data();
  dst.bytes = out.size() * sizeof(float);
  oprig_execute_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(cpu_->execute(kernel, &src, 1, &dst, 1, &info), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(out, std::vector<float>(5, 0.0f));  // nothing written
  cpu_->destroy(kernel);
}

TEST_F(FibonacciSequence, PrepareRefusesWrongTypes) {
  const oprig_backend_context ctx = oprig::test::cpu_context();
  oprig_kernel* kernel = nullptr;
  ASSERT_EQ(cpu_->create(&ctx, "Fibonacci", nullptr, 0, &kernel), OPRIG_STATUS_OK);
  oprig_tensor src{}, dst{};
  src.dtype = OPRIG_DTYPE_INT_32;
  src.rank = 1;
  src.dims[0] = 1;
  dst.dtype = OPRIG_DTYPE_FLOAT_32;
  EXPECT_EQ(cpu_->prepare(kernel, &src, 1, &dst, 1), OPRIG_STATUS_UNSUPPORTED);
  src.dtype = OPRIG_DTYPE_FLOAT_32;
  dst.dtype = OPRIG_DTYPE_INT_64;
  EXPECT_EQ(cpu_->prepare(kernel, &src, 1, &dst, 1), OPRIG_STATUS_UNSUPPORTED);
  cpu_->destroy(kernel);
}

}  // namespace

namespace {

// Hosts that hand prepare() a host pointer to n (runtime/graph's executor
// does, for outputs of unknown shape) get the length from prepare itself.
TEST_F(FibonacciSequence, PrepareGivenAHostValueResolvesTheLength) {
  const oprig_backend_context ctx = oprig::test::cpu_context();
  oprig_kernel* kernel = nullptr;
  ASSERT_EQ(cpu_->create(&ctx, "Fibonacci", nullptr, 0, &kernel), OPRIG_STATUS_OK);
  float n = 12.0f;
  oprig_tensor src{}, dst{};
  src.dtype = dst.dtype = OPRIG_DTYPE_FLOAT_32;
  src.rank = 1;
  src.dims[0] = 1;
  src.data = &n;
  src.bytes = sizeof n;
  ASSERT_EQ(cpu_->prepare(kernel, &src, 1, &dst, 1), OPRIG_STATUS_OK);
  EXPECT_EQ(dst.rank, 1u);
  EXPECT_EQ(dst.dims[0], 12);
  n = -3.0f;
  EXPECT_EQ(cpu_->prepare(kernel, &src, 1, &dst, 1), OPRIG_STATUS_INVALID_ARGUMENT);
  cpu_->destroy(kernel);
}

}  // namespace
