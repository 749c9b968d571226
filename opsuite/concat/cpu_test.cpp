// The cpu Concat kernel through the package ABI: every ISA path and thread
// count gives, bit for bit, what the definition computed here element by
// element says, for 1 to 5 inputs, inputs of size 0 along the axis, chunks of
// one byte up to one huge chunk split between threads, and element sizes 1 to
// 8 bytes; outputs large enough to be streamed past the cache; the spec's
// default axis is 0; inputs that do not fit are rejected.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

HostTensor run_concat(CpuBackend& backend, const std::vector<HostTensor>& inputs, const ParamList& params) {
  oprig_tensor out{};
  out.dtype = inputs.at(0).dtype;
  KernelSession s(backend, cpu_impl(), "Concat", params, inputs, {out});
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  return s.output(0);
}

// Bytes that differ between elements and between inputs.
HostTensor pattern(oprig_dtype dtype, size_t esize, std::vector<int64_t> shape, unsigned seed) {
  size_t n = esize;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 37 + seed * 101 + i / 253);
  return HostTensor::of(dtype, std::move(shape), bytes);
}

// The oracle: for every output coordinate, find the input along the axis.
std::vector<std::byte> expected_concat(const std::vector<HostTensor>& inputs, size_t axis, size_t esize) {
  std::vector<int64_t> out_shape = inputs[0].shape;
  out_shape[axis] = 0;
  for (const HostTensor& in : inputs) out_shape[axis] += in.shape[axis];
  size_t count = 1;
  for (int64_t d : out_shape) count *= static_cast<size_t>(d);
  std::vector<std::byte> out;
  std::vector<int64_t> coords(out_shape.size(), 0);
  for (size_t i = 0; i < count; ++i) {
    size_t rest = i;
    for (size_t d = out_shape.size(); d-- > 0;) {
      coords[d] = static_cast<int64_t>(rest % static_cast<size_t>(out_shape[d]));
      rest /= static_cast<size_t>(out_shape[d]);
    }
    size_t k = 0;
    int64_t along = coords[axis];
    while (along >= inputs[k].shape[axis]) along -= inputs[k++].shape[axis];
    size_t at = 0;
    for (size_t d = 0; d < out_shape.size(); ++d)
      at = at * static_cast<size_t>(inputs[k].shape[d]) + static_cast<size_t>(d == axis ? along : coords[d]);
    const auto first = inputs[k].bytes.begin() + static_cast<std::ptrdiff_t>(at * esize);
    out.insert(out.end(), first, first + static_cast<std::ptrdiff_t>(esize));
  }
  return out;
}

struct Layout {
  std::vector<std::vector<int64_t>> shapes;
  int64_t axis;
};

TEST(ConcatCpu, EveryIsaPathAndThreadCountMatchesTheDefinition) {
  struct Dtype {
    oprig_dtype dtype;
    size_t size;
  };
  const Dtype dtypes[] = {{OPRIG_DTYPE_UINT_8, 1}, {OPRIG_DTYPE_FLOAT_16, 2}, {OPRIG_DTYPE_FLOAT_32, 4},
                          {OPRIG_DTYPE_FLOAT_64, 8}};
  const std::vector<Layout> layouts = {
      {{{5, 7}}, 0},                                                 // one input
      {{{3, 1, 4}, {3, 0, 4}, {3, 6, 4}, {3, 2, 4}, {3, 3, 4}}, 1},  // five, one empty
      {{{2, 5, 1}, {2, 5, 1}, {2, 5, 3}}, -1},                       // one-element chunks
      {{{4, 33}, {4, 1}, {4, 70}}, 1},                               // odd chunk lengths
      {{{1}, {1}}, 0},                                               // one element each
      {{{160, 1024}, {96, 1024}}, 0},                                // two big chunks, split between threads
      {{{90, 700}, {90, 1}, {90, 123}}, -1}};                        // many rows of three chunks
  const oprig_cpu_isa isas[] = {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512};
  for (const Dtype& d : dtypes) {
    for (const Layout& layout : layouts) {
      std::vector<HostTensor> inputs;
      for (size_t k = 0; k < layout.shapes.size(); ++k)
        inputs.push_back(pattern(d.dtype, d.size, layout.shapes[k], static_cast<unsigned>(k)));
      const int64_t rank = static_cast<int64_t>(layout.shapes[0].size());
      const auto axis = static_cast<size_t>(layout.axis < 0 ? layout.axis + rank : layout.axis);
      const std::vector<std::byte> want = expected_concat(inputs, axis, d.size);
      for (oprig_cpu_isa isa : isas) {
        if (isa > host_cpu_isa()) continue;  // the host lacks it
        for (unsigned threads : {1u, 2u}) {
          CpuBackend backend(threads, isa);
          EXPECT_EQ(run_concat(backend, inputs, ParamList().add_int("axis", layout.axis)).bytes, want)
              << "dtype " << d.dtype << " isa " << isa << " threads " << threads << " inputs " << inputs.size()
              << " axis " << layout.axis;
        }
      }
    }
  }
}

TEST(ConcatCpu, LargeOutputsStreamedPastTheCacheMatchTheDefinition) {
  // 8 MiB and more: the vector paths write with streaming stores; chunks of
  // 4000, 4 and 1996 bytes start at every alignment. The oracle copies chunk
  // by chunk.
  const std::vector<int64_t> widths = {1000, 1, 499};
  std::vector<HostTensor> inputs;
  for (size_t k = 0; k < widths.size(); ++k)
    inputs.push_back(pattern(OPRIG_DTYPE_FLOAT_32, 4, {1400, widths[k]}, static_cast<unsigned>(k)));
  std::vector<std::byte> want;
  for (size_t row = 0; row < 1400; ++row)
    for (size_t k = 0; k < widths.size(); ++k) {
      const size_t bytes = static_cast<size_t>(widths[k]) * 4;
      const auto from = inputs[k].bytes.begin() + static_cast<std::ptrdiff_t>(row * bytes);
      want.insert(want.end(), from, from + static_cast<std::ptrdiff_t>(bytes));
    }
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    for (unsigned threads : {1u, 2u}) {
      CpuBackend backend(threads, isa);
      EXPECT_EQ(run_concat(backend, inputs, ParamList().add_int("axis", 1)).bytes, want)
          << "isa " << isa << " threads " << threads;
    }
  }
}

TEST(ConcatCpu, AxisDefaultsToZero) {
  // [[1, 2]] and [[3, 4], [5, 6]] along axis 0: [[1, 2], [3, 4], [5, 6]].
  const HostTensor a = HostTensor::of(OPRIG_DTYPE_INT_32, {1, 2}, std::vector<int32_t>{1, 2});
  const HostTensor b = HostTensor::of(OPRIG_DTYPE_INT_32, {2, 2}, std::vector<int32_t>{3, 4, 5, 6});
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_INT_32;
  KernelSession s(backend, cpu_impl(), "Concat", ParamList(), {a, b}, {out});
  ASSERT_TRUE(s.ok()) << s.error();
  ASSERT_EQ(s.run(), OPRIG_STATUS_OK);
  EXPECT_EQ(s.outputs()[0].dims[0], 3);
  EXPECT_EQ(s.outputs()[0].dims[1], 2);
  EXPECT_EQ(s.output(0).as<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
}

TEST(ConcatCpu, RejectsInputsThatDoNotFitAndAxesOutsideTheRank) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  const HostTensor a = pattern(OPRIG_DTYPE_FLOAT_32, 4, {2, 3}, 0);
  const HostTensor other_rows = pattern(OPRIG_DTYPE_FLOAT_32, 4, {4, 3}, 1);
  const HostTensor other_rank = pattern(OPRIG_DTYPE_FLOAT_32, 4, {2, 3, 1}, 2);
  const HostTensor other_type = pattern(OPRIG_DTYPE_INT_32, 4, {2, 3}, 3);
  const auto status = [&](const std::vector<HostTensor>& inputs, int64_t axis) {
    KernelSession s(backend, cpu_impl(), "Concat", ParamList().add_int("axis", axis), inputs, {out});
    return s.prepare_status();
  };
  EXPECT_EQ(status({a, other_rows}, 1), OPRIG_STATUS_INVALID_ARGUMENT);  // rows differ off the axis
  EXPECT_EQ(status({a, other_rows}, 0), OPRIG_STATUS_OK);
  EXPECT_EQ(status({a, other_rank}, 0), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(status({a, other_type}, 0), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(status({a, a}, 2), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(status({a, a}, -3), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(status({a, a}, -2), OPRIG_STATUS_OK);
}

}  // namespace
}  // namespace oprig::harness
