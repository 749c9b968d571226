// The Atan UINT_8 kernel of liboprig_opsuite_dsp.so, loaded with dlopen and
// driven through the package C ABI and the dsp backend, exactly as the
// harness does. Expected codes come from an fp64 formula written here; the
// expected cycle counts from backends/dsp/cost_model.md ("Atan UINT_8").
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <numbers>
#include <random>
#include <vector>

#include "factories.hpp"

namespace oprig {
namespace {

struct Quant {
  float scale;
  int32_t zero_point;
};
// The harness's parameters: x in about [-10, 10], y in [-pi/2, pi/2].
const Quant kIn{20.0f / 255.0f, 128};
const Quant kOut{static_cast<float>(std::numbers::pi / 255.0), 128};

// q_out = clamp(round_half_away_from_zero(atan(s_in*(q - z_in) + offset) / s_out) + z_out, 0, 255)
int expected_code(int q, double offset, Quant in = kIn, Quant out = kOut) {
  const double y = std::atan(double{in.scale} * (q - in.zero_point) + offset) / double{out.scale};
  const double magnitude = std::floor(std::fabs(y) + 0.5);
  const double rounded = y < 0 ? -magnitude : magnitude;
  const double code = rounded + out.zero_point;
  return static_cast<int>(code < 0 ? 0 : code > 255 ? 255 : code);
}

// cost_model.md: 20 + 8 V cycles for V = ceil(n / 128) vectors, aligned
// tensors, one more (the vsetq of the predicated store) when n is not a
// multiple of 128; 20 for an empty tensor.
uint64_t predicted_cycles_aligned(size_t n) {
  const uint64_t vectors = (n + 127) / 128;
  return 20 + 8 * vectors + (n % 128 != 0 ? 1 : 0);
}

class AtanDsp : public ::testing::Test {
 protected:
  void SetUp() override {
    library_ = dlopen(OPRIG_OPSUITE_DSP_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library_, nullptr) << dlerror();
    auto query = reinterpret_cast<oprig_implementation_query_fn>(
        dlsym(library_, OPRIG_IMPLEMENTATION_QUERY_SYMBOL));
    ASSERT_NE(query, nullptr);
    impl_ = query(OPRIG_BACKEND_DSP, OPRIG_ABI_VERSION);
    ASSERT_NE(impl_, nullptr);
    ASSERT_EQ(impl_->backend_kind, uint32_t{OPRIG_BACKEND_DSP});
    std::string why;
    backend_ = create_dsp_backend(&why);
    ASSERT_NE(backend_, nullptr) << why;
  }
  void TearDown() override {
    backend_.reset();
    if (library_ != nullptr) dlclose(library_);
  }

  oprig_kernel* create(float offset) {
    const oprig_param param{"offset", OPRIG_DTYPE_FLOAT_32, 1, &offset};
    oprig_kernel* kernel = nullptr;
    EXPECT_EQ(impl_->create(&backend_->context(), "Atan", &param, 1, &kernel), OPRIG_STATUS_OK);
    return kernel;
  }

  static oprig_tensor tensor(size_t n, Quant q, oprig_dtype dtype = OPRIG_DTYPE_UINT_8) {
    oprig_tensor t{};
    t.dtype = dtype;
    t.rank = 1;
    t.dims[0] = static_cast<int64_t>(n);
    t.scale = q.scale;
    t.zero_point = q.zero_point;
    return t;
  }

  // Runs the kernel on `codes` (placed `misalign` bytes into an aligned
  // buffer); returns the output codes and the simulated cycles.
  std::vector<uint8_t> run(float offset, const std::vector<uint8_t>& codes, uint64_t* cycles,
                           size_t misalign = 0) {
    const size_t n = codes.size();
    oprig_kernel* kernel = create(offset);
    oprig_tensor in = tensor(n, kIn), out = tensor(n, kOut);
    EXPECT_EQ(impl_->prepare(kernel, &in, 1, &out, 1), OPRIG_STATUS_OK);
    EXPECT_EQ(out.rank, 1u);
    EXPECT_EQ(out.dims[0], static_cast<int64_t>(n));

    auto src = backend_->allocate(n + misalign);
    auto dst = backend_->allocate(n);
    std::vector<std::byte> staging(n + misalign);
    if (n > 0) std::memcpy(staging.data() + misalign, codes.data(), n);
    backend_->write(*src, staging);
    std::vector<std::byte> poison(n, std::byte{0xCD});
    backend_->write(*dst, poison);
    src->bind(in);
    dst->bind(out);
    in.data = static_cast<std::byte*>(in.data) + misalign;
    in.bytes = n;

    ExecTiming timing;
    EXPECT_EQ(backend_->execute(*impl_, kernel, {&in, 1}, {&out, 1}, timing), OPRIG_STATUS_OK);
    EXPECT_TRUE(src->guards_intact());
    EXPECT_TRUE(dst->guards_intact());
    EXPECT_DOUBLE_EQ(timing.compute_ns, static_cast<double>(timing.sim_cycles));  // 1 GHz
    *cycles = timing.sim_cycles;

    std::vector<std::byte> result(n);
    backend_->read(*dst, result);
    std::vector<uint8_t> codes_out(n);
    if (n > 0) std::memcpy(codes_out.data(), result.data(), n);
    impl_->destroy(kernel);
    return codes_out;
  }

  // Largest |got - expected| in LSB over all elements.
  static int max_lsb_error(const std::vector<uint8_t>& in, const std::vector<uint8_t>& got,
                           double offset) {
    int worst = 0;
    for (size_t i = 0; i < in.size(); ++i)
      worst = std::max(worst, std::abs(int{got[i]} - expected_code(in[i], offset)));
    return worst;
  }

  void* library_ = nullptr;
  const oprig_implementation_v1* impl_ = nullptr;
  std::unique_ptr<Backend> backend_;
};

TEST_F(AtanDsp, AllCodesWithinOneLsb) {
  std::vector<uint8_t> all(256);
  for (int q = 0; q < 256; ++q) all[static_cast<size_t>(q)] = static_cast<uint8_t>(q);
  for (float offset : {0.0f, 0.5f, -3.25f, 1e6f}) {
    uint64_t cycles = 0;
    const std::vector<uint8_t> got = run(offset, all, &cycles);
    const int worst = max_lsb_error(all, got, offset);
    std::cout << "[ dsp atan ] offset " << offset << ": max error " << worst << " LSB over 256 codes\n";
    RecordProperty("max_lsb_offset_" + std::to_string(static_cast<int>(offset)), worst);
    EXPECT_LE(worst, 1);
    EXPECT_EQ(cycles, predicted_cycles_aligned(256));
  }
}

TEST_F(AtanDsp, SizesAndCyclesMatchTheCostModel) {
  std::mt19937 rng(2024);
  for (size_t n : {size_t{0}, size_t{1}, size_t{127}, size_t{128}, size_t{129}, size_t{1000}}) {
    std::vector<uint8_t> codes(n);
    for (auto& c : codes) c = static_cast<uint8_t>(rng());
    uint64_t cycles = 0;
    const std::vector<uint8_t> got = run(0.25f, codes, &cycles);
    EXPECT_LE(max_lsb_error(codes, got, 0.25), 1) << "n = " << n;
    EXPECT_GT(cycles, 0u);
    EXPECT_EQ(cycles, predicted_cycles_aligned(n)) << "n = " << n;
  }
}

TEST_F(AtanDsp, MisalignedInputPaysTheUnalignedPenalty) {
  std::vector<uint8_t> codes(256);
  for (size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<uint8_t>(255 - i);
  uint64_t cycles = 0;
  const std::vector<uint8_t> got = run(0.0f, codes, &cycles, /*misalign=*/1);
  EXPECT_LE(max_lsb_error(codes, got, 0.0), 1);
  // cost_model.md: both loads are vmemu at an unaligned address, each a
  // permute more and a penalty cycle: 20 + 8 V + V + V with V = 2.
  EXPECT_EQ(cycles, 20u + 16 + 2 + 2);

  // One element 100 bytes into a line: a vmemu would reach into the next
  // line, which holds none of the tensor, so it is read as the aligned line
  // and rotated (vror, a permute): 8 lookups + vror + vsetq = 10 permutes.
  const std::vector<uint8_t> one = {7};
  const std::vector<uint8_t> got_one = run(0.0f, one, &cycles, /*misalign=*/100);
  EXPECT_LE(max_lsb_error(one, got_one, 0.0), 1);
  EXPECT_EQ(cycles, 20u + 10);
}

TEST_F(AtanDsp, OtherQuantisationParameters) {
  const Quant in{0.05f, 10}, out{0.01f, 100};
  std::vector<uint8_t> all(256);
  for (int q = 0; q < 256; ++q) all[static_cast<size_t>(q)] = static_cast<uint8_t>(q);
  oprig_kernel* kernel = create(0.0f);
  oprig_tensor ti = tensor(256, in), to = tensor(256, out);
  ASSERT_EQ(impl_->prepare(kernel, &ti, 1, &to, 1), OPRIG_STATUS_OK);
  auto src = backend_->allocate(256), dst = backend_->allocate(256);
  backend_->write(*src, std::as_bytes(std::span(all)));
  src->bind(ti);
  dst->bind(to);
  ExecTiming timing;
  ASSERT_EQ(backend_->execute(*impl_, kernel, {&ti, 1}, {&to, 1}, timing), OPRIG_STATUS_OK);
  std::vector<uint8_t> got(256);
  backend_->read(*dst, std::as_writable_bytes(std::span(got)));
  int worst = 0;
  for (int q = 0; q < 256; ++q)
    worst = std::max(worst, std::abs(int{got[static_cast<size_t>(q)]} - expected_code(q, 0.0, in, out)));
  EXPECT_LE(worst, 1);
  impl_->destroy(kernel);
}

TEST_F(AtanDsp, ShapesDtypesAndCost) {
  oprig_kernel* kernel = create(0.0f);
  oprig_tensor in = tensor(0, kIn), out = tensor(0, kOut);
  in.rank = 3;
  in.dims[0] = 2, in.dims[1] = 3, in.dims[2] = 5;
  ASSERT_EQ(impl_->prepare(kernel, &in, 1, &out, 1), OPRIG_STATUS_OK);
  EXPECT_EQ(out.rank, 3u);
  EXPECT_EQ(out.dims[0], 2);
  EXPECT_EQ(out.dims[1], 3);
  EXPECT_EQ(out.dims[2], 5);
  oprig_cost cost{};
  ASSERT_EQ(impl_->cost(kernel, &cost), OPRIG_STATUS_OK);
  EXPECT_EQ(cost.flops, 0u);
  EXPECT_EQ(cost.bytes_read, 30u + 256);  // input + the lookup table
  EXPECT_EQ(cost.bytes_written, 30u);

  oprig_tensor f32_in = tensor(4, Quant{0, 0}, OPRIG_DTYPE_FLOAT_32);
  oprig_tensor f32_out = tensor(4, Quant{0, 0}, OPRIG_DTYPE_FLOAT_32);
  EXPECT_EQ(impl_->prepare(kernel, &f32_in, 1, &f32_out, 1), OPRIG_STATUS_UNSUPPORTED);
  oprig_tensor i8_in = tensor(4, kIn, OPRIG_DTYPE_INT_8);
  EXPECT_EQ(impl_->prepare(kernel, &i8_in, 1, &out, 1), OPRIG_STATUS_UNSUPPORTED);
  impl_->destroy(kernel);

  oprig_kernel* none = nullptr;
  EXPECT_EQ(impl_->create(&backend_->context(), "Tanh", nullptr, 0, &none),
            OPRIG_STATUS_UNSUPPORTED);
  EXPECT_EQ(none, nullptr);
}

}  // namespace
}  // namespace oprig
