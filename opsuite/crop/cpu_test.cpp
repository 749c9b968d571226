// The cpu Crop kernel through the package ABI: every ISA path and thread count
// gives, bit for bit, what a plain index computation in this test says
// (out[n, h, w, c] = in[n, h + top, w + left, c]) for element sizes 1 to 8
// bytes and row lengths that leave every tail length of the vector moves;
// NaN payloads survive; crops larger than the input are rejected.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

struct Crops {
  int64_t top = 0, bottom = 0, left = 0, right = 0;
};

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

ParamList params_of(const Crops& c) {
  return ParamList()
      .add_int("crop_top", c.top)
      .add_int("crop_bottom", c.bottom)
      .add_int("crop_left", c.left)
      .add_int("crop_right", c.right);
}

HostTensor run_crop(CpuBackend& backend, const HostTensor& in, const Crops& c) {
  oprig_tensor out{};
  out.dtype = in.dtype;
  KernelSession s(backend, cpu_impl(), "Crop", params_of(c), {in}, {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s.output(0);
}

// Bytes that differ from element to element, so a misplaced one shows.
HostTensor pattern(oprig_dtype dtype, size_t esize, std::vector<int64_t> shape) {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  std::vector<uint8_t> bytes(n * esize);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 131 + i / 251);
  return HostTensor::of(dtype, std::move(shape), bytes);
}

// The oracle: the definition of Crop, one element at a time.
std::vector<std::byte> expected_crop(const HostTensor& in, size_t esize, const Crops& c) {
  const int64_t batches = in.shape[0], height = in.shape[1], width = in.shape[2], channels = in.shape[3];
  std::vector<std::byte> out;
  for (int64_t n = 0; n < batches; ++n)
    for (int64_t h = c.top; h < height - c.bottom; ++h)
      for (int64_t w = c.left; w < width - c.right; ++w)
        for (int64_t ch = 0; ch < channels; ++ch) {
          const size_t at = static_cast<size_t>(((n * height + h) * width + w) * channels + ch) * esize;
          out.insert(out.end(), in.bytes.begin() + static_cast<std::ptrdiff_t>(at),
                     in.bytes.begin() + static_cast<std::ptrdiff_t>(at + esize));
        }
  return out;
}

TEST(CropCpu, EveryIsaPathAndThreadCountMatchesTheDefinition) {
  struct Dtype {
    oprig_dtype dtype;
    size_t size;
  };
  const Dtype dtypes[] = {{OPRIG_DTYPE_UINT_8, 1}, {OPRIG_DTYPE_FLOAT_16, 2}, {OPRIG_DTYPE_FLOAT_32, 4},
                          {OPRIG_DTYPE_INT_64, 8}};
  struct Shape {
    std::vector<int64_t> dims;
    Crops crops;
  };
  // Row lengths in bytes cover every remainder modulo 64 over the types; the
  // last one is a single 3 MiB run, split between threads.
  const std::vector<Shape> shapes = {
      {{2, 9, 11, 3}, {1, 2, 3, 1}},   {{1, 6, 70, 1}, {0, 0, 1, 2}},  {{3, 5, 5, 7}, {2, 0, 0, 0}},
      {{1, 4, 37, 5}, {1, 1, 0, 0}},   {{1, 1, 1, 1}, {0, 0, 0, 0}},   {{2, 6, 9, 13}, {5, 1, 8, 1}},
      {{1, 256, 256, 3}, {0, 0, 0, 0}}, {{2, 300, 301, 2}, {3, 4, 5, 6}}};
  const oprig_cpu_isa isas[] = {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512};
  for (const Dtype& d : dtypes) {
    for (const Shape& sh : shapes) {
      const HostTensor in = pattern(d.dtype, d.size, sh.dims);
      const std::vector<std::byte> want = expected_crop(in, d.size, sh.crops);
      for (oprig_cpu_isa isa : isas) {
        if (isa > host_cpu_isa()) continue;  // the host lacks it
        for (unsigned threads : {1u, 2u}) {
          CpuBackend backend(threads, isa);
          EXPECT_EQ(run_crop(backend, in, sh.crops).bytes, want)
              << "dtype " << d.dtype << " isa " << isa << " threads " << threads << " shape "
              << sh.dims[0] << "x" << sh.dims[1] << "x" << sh.dims[2] << "x" << sh.dims[3];
        }
      }
    }
  }
}

TEST(CropCpu, LargeOutputsStreamedPastTheCacheMatchTheDefinition) {
  // 8 MiB and more: the vector paths write with streaming stores; rows of
  // 8200 bytes start at every alignment. The oracle copies row by row.
  const Crops c{1, 2, 3, 1};
  const HostTensor in = pattern(OPRIG_DTYPE_FLOAT_32, 4, {1, 1030, 1029, 2});
  const size_t in_row = 1029 * 2 * 4, out_row = 1025 * 2 * 4;
  std::vector<std::byte> want(1027 * out_row);
  for (size_t h = 0; h < 1027; ++h)
    std::copy_n(in.bytes.begin() + static_cast<std::ptrdiff_t>((h + 1) * in_row + 3 * 2 * 4), out_row,
                want.begin() + static_cast<std::ptrdiff_t>(h * out_row));
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    for (unsigned threads : {1u, 2u}) {
      CpuBackend backend(threads, isa);
      EXPECT_EQ(run_crop(backend, in, c).bytes, want) << "isa " << isa << " threads " << threads;
    }
  }
}

TEST(CropCpu, OutputShapeFollowsTheSeedFormula) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  const HostTensor in = pattern(OPRIG_DTYPE_FLOAT_32, 4, {2, 10, 12, 3});
  KernelSession s(backend, cpu_impl(), "Crop", params_of({1, 2, 3, 4}), {in}, {out});
  ASSERT_TRUE(s.ok()) << s.error();
  // output_height = 10 - 1 - 2, output_width = 12 - 3 - 4.
  ASSERT_EQ(s.outputs()[0].rank, 4u);
  EXPECT_EQ(s.outputs()[0].dims[0], 2);
  EXPECT_EQ(s.outputs()[0].dims[1], 7);
  EXPECT_EQ(s.outputs()[0].dims[2], 5);
  EXPECT_EQ(s.outputs()[0].dims[3], 3);
}

TEST(CropCpu, NaNPayloadsAndSignedZerosComeThroughUnchanged) {
  const std::vector<uint32_t> bits = {0x7fc00001u, 0xffa00000u, 0x80000000u, 0x00000001u,
                                      0x7f800000u, 0x3f800000u, 0x7fbfffffu, 0x00000000u};
  const HostTensor in = HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, 2, 4, 1}, bits);
  CpuBackend backend(1);
  const std::vector<uint32_t> got = run_crop(backend, in, {0, 0, 1, 1}).as<uint32_t>();
  EXPECT_EQ(got, (std::vector<uint32_t>{0xffa00000u, 0x80000000u, 0x3f800000u, 0x7fbfffffu}));
}

TEST(CropCpu, RejectsCropsLargerThanTheInputNegativeCropsAndOtherRanks) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  const HostTensor in = pattern(OPRIG_DTYPE_FLOAT_32, 4, {1, 4, 4, 2});
  KernelSession too_tall(backend, cpu_impl(), "Crop", params_of({3, 2, 0, 0}), {in}, {out});
  EXPECT_EQ(too_tall.prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  KernelSession too_wide(backend, cpu_impl(), "Crop", params_of({0, 0, 4, 1}), {in}, {out});
  EXPECT_EQ(too_wide.prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  KernelSession negative(backend, cpu_impl(), "Crop", params_of({-1, 0, 0, 0}), {in}, {out});
  EXPECT_EQ(negative.create_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  KernelSession rank3(backend, cpu_impl(), "Crop", params_of({0, 0, 0, 0}),
                      {pattern(OPRIG_DTYPE_FLOAT_32, 4, {4, 4, 2})}, {out});
  EXPECT_EQ(rank3.prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  // The whole input cropped away is legal: an empty output.
  KernelSession nothing_left(backend, cpu_impl(), "Crop", params_of({1, 3, 0, 0}), {in}, {out});
  ASSERT_TRUE(nothing_left.ok()) << nothing_left.error();
  EXPECT_EQ(nothing_left.outputs()[0].dims[1], 0);
  EXPECT_EQ(nothing_left.run(), OPRIG_STATUS_OK);
}

}  // namespace
}  // namespace oprig::harness
