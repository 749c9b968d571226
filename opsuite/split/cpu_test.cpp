// The cpu Split kernel through the package ABI: every ISA path and thread
// count gives, bit for bit, what the definition computed here element by
// element says, for 1 to 5 outputs, parts of size 0, equal parts without the
// split parameter, chunks of one byte up to one huge chunk split between
// threads, and element sizes 1 to 8 bytes; outputs large enough to be
// streamed past the cache; sizes that do not add up, equal parts that do not
// divide and axes outside the rank are rejected.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
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

ParamList params_of(int64_t axis, const std::optional<std::vector<int64_t>>& sizes) {
  ParamList p;
  p.add_int("axis", axis);
  if (sizes) p.add_ints("split", *sizes);
  return p;
}

std::vector<HostTensor> run_split(CpuBackend& backend, const HostTensor& in, size_t parts, const ParamList& params) {
  oprig_tensor out{};
  out.dtype = in.dtype;
  KernelSession s(backend, cpu_impl(), "Split", params, {in}, std::vector<oprig_tensor>(parts, out));
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  std::vector<HostTensor> outputs;
  for (size_t k = 0; k < parts; ++k) outputs.push_back(s.output(k));
  return outputs;
}

// Bytes that differ between elements.
HostTensor pattern(oprig_dtype dtype, size_t esize, std::vector<int64_t> shape) {
  size_t n = esize;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 37 + i / 253);
  return HostTensor::of(dtype, std::move(shape), bytes);
}

// The oracle: every element of part k at its coordinates, shifted along the axis.
std::vector<std::vector<std::byte>> expected_split(const HostTensor& in, size_t axis, const std::vector<int64_t>& sizes,
                                                   size_t esize) {
  std::vector<std::vector<std::byte>> parts;
  int64_t offset = 0;
  for (int64_t size : sizes) {
    std::vector<int64_t> shape = in.shape;
    shape[axis] = size;
    size_t count = 1;
    for (int64_t d : shape) count *= static_cast<size_t>(d);
    std::vector<std::byte> out;
    std::vector<int64_t> coords(shape.size());
    for (size_t i = 0; i < count; ++i) {
      size_t rest = i;
      for (size_t d = shape.size(); d-- > 0;) {
        coords[d] = static_cast<int64_t>(rest % static_cast<size_t>(shape[d]));
        rest /= static_cast<size_t>(shape[d]);
      }
      size_t at = 0;
      for (size_t d = 0; d < shape.size(); ++d)
        at = at * static_cast<size_t>(in.shape[d]) + static_cast<size_t>(coords[d] + (d == axis ? offset : 0));
      const auto first = in.bytes.begin() + static_cast<std::ptrdiff_t>(at * esize);
      out.insert(out.end(), first, first + static_cast<std::ptrdiff_t>(esize));
    }
    parts.push_back(std::move(out));
    offset += size;
  }
  return parts;
}

struct Layout {
  std::vector<int64_t> shape;
  int64_t axis;
  std::vector<int64_t> sizes;
  bool pass_sizes;  // false: equal parts, the sizes above are what the kernel must infer
};

TEST(SplitCpu, EveryIsaPathAndThreadCountMatchesTheDefinition) {
  struct Dtype {
    oprig_dtype dtype;
    size_t size;
  };
  const Dtype dtypes[] = {{OPRIG_DTYPE_UINT_8, 1}, {OPRIG_DTYPE_FLOAT_16, 2}, {OPRIG_DTYPE_FLOAT_32, 4},
                          {OPRIG_DTYPE_FLOAT_64, 8}};
  const std::vector<Layout> layouts = {
      {{5, 7}, 1, {7}, true},                       // one part
      {{3, 12, 4}, 1, {1, 0, 6, 2, 3}, true},       // five, one empty
      {{2, 5, 3}, -1, {1, 1, 1}, false},            // one-element chunks, equal parts
      {{4, 104}, 1, {33, 1, 70}, true},             // odd chunk lengths
      {{2}, 0, {1, 1}, false},                      // one element each
      {{256, 1024}, 0, {160, 96}, true},            // two big chunks, split between threads
      {{90, 824}, -1, {700, 1, 123}, true}};        // many rows of three chunks
  const oprig_cpu_isa isas[] = {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512};
  for (const Dtype& d : dtypes) {
    for (const Layout& layout : layouts) {
      const HostTensor in = pattern(d.dtype, d.size, layout.shape);
      const int64_t rank = static_cast<int64_t>(layout.shape.size());
      const auto axis = static_cast<size_t>(layout.axis < 0 ? layout.axis + rank : layout.axis);
      const std::vector<std::vector<std::byte>> want = expected_split(in, axis, layout.sizes, d.size);
      const ParamList params =
          params_of(layout.axis, layout.pass_sizes ? std::optional(layout.sizes) : std::nullopt);
      for (oprig_cpu_isa isa : isas) {
        if (isa > host_cpu_isa()) continue;  // the host lacks it
        for (unsigned threads : {1u, 2u}) {
          CpuBackend backend(threads, isa);
          const std::vector<HostTensor> got = run_split(backend, in, layout.sizes.size(), params);
          for (size_t k = 0; k < got.size(); ++k)
            EXPECT_EQ(got[k].bytes, want[k]) << "dtype " << d.dtype << " isa " << isa << " threads " << threads
                                             << " part " << k << " of " << got.size() << " axis " << layout.axis;
        }
      }
    }
  }
}

TEST(SplitCpu, LargeOutputsStreamedPastTheCacheMatchTheDefinition) {
  // 8 MiB and more: the vector paths write with streaming stores; chunks of
  // 4000, 4 and 1996 bytes start at every alignment. The oracle copies chunk
  // by chunk.
  const std::vector<int64_t> widths = {1000, 1, 499};
  const HostTensor in = pattern(OPRIG_DTYPE_FLOAT_32, 4, {1400, 1500});
  std::vector<std::vector<std::byte>> want(widths.size());
  for (size_t row = 0; row < 1400; ++row) {
    size_t at = row * 1500 * 4;
    for (size_t k = 0; k < widths.size(); ++k) {
      const size_t bytes = static_cast<size_t>(widths[k]) * 4;
      const auto from = in.bytes.begin() + static_cast<std::ptrdiff_t>(at);
      want[k].insert(want[k].end(), from, from + static_cast<std::ptrdiff_t>(bytes));
      at += bytes;
    }
  }
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512}) {
    if (isa > host_cpu_isa()) continue;
    for (unsigned threads : {1u, 2u}) {
      CpuBackend backend(threads, isa);
      const std::vector<HostTensor> got = run_split(backend, in, 3, params_of(1, widths));
      for (size_t k = 0; k < 3; ++k) EXPECT_EQ(got[k].bytes, want[k]) << "part " << k << " isa " << isa;
    }
  }
}

TEST(SplitCpu, OutputShapesFollowTheSizesOrEqualParts) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_INT_32;
  const HostTensor in =
      HostTensor::of(OPRIG_DTYPE_INT_32, {2, 6}, std::vector<int32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  // Sizes 2 and 4 along axis 1: [[1, 2], [7, 8]] and [[3, 4, 5, 6], [9, 10, 11, 12]].
  KernelSession sized(backend, cpu_impl(), "Split", params_of(1, std::vector<int64_t>{2, 4}), {in}, {out, out});
  ASSERT_TRUE(sized.ok()) << sized.error();
  ASSERT_EQ(sized.run(), OPRIG_STATUS_OK);
  EXPECT_EQ(sized.outputs()[0].dims[1], 2);
  EXPECT_EQ(sized.outputs()[1].dims[1], 4);
  EXPECT_EQ(sized.output(0).as<int32_t>(), (std::vector<int32_t>{1, 2, 7, 8}));
  EXPECT_EQ(sized.output(1).as<int32_t>(), (std::vector<int32_t>{3, 4, 5, 6, 9, 10, 11, 12}));
  // No sizes, three outputs, the default axis 0 has length 2: cannot be equal.
  KernelSession uneven(backend, cpu_impl(), "Split", ParamList(), {in}, {out, out, out});
  EXPECT_EQ(uneven.prepare_status(), OPRIG_STATUS_INVALID_ARGUMENT);
  // No sizes, two outputs along the default axis 0: one row each.
  KernelSession equal(backend, cpu_impl(), "Split", ParamList(), {in}, {out, out});
  ASSERT_TRUE(equal.ok()) << equal.error();
  ASSERT_EQ(equal.run(), OPRIG_STATUS_OK);
  EXPECT_EQ(equal.output(1).as<int32_t>(), (std::vector<int32_t>{7, 8, 9, 10, 11, 12}));
}

TEST(SplitCpu, RejectsSizesThatDoNotFitAndAxesOutsideTheRank) {
  CpuBackend backend(1);
  oprig_tensor out{};
  out.dtype = OPRIG_DTYPE_FLOAT_32;
  const HostTensor in = pattern(OPRIG_DTYPE_FLOAT_32, 4, {2, 6});
  const auto prepare = [&](const ParamList& params, size_t parts) {
    KernelSession s(backend, cpu_impl(), "Split", params, {in}, std::vector<oprig_tensor>(parts, out));
    return s.prepare_status();
  };
  EXPECT_EQ(prepare(params_of(1, std::vector<int64_t>{2, 3}), 2), OPRIG_STATUS_INVALID_ARGUMENT);  // sum 5, not 6
  EXPECT_EQ(prepare(params_of(1, std::vector<int64_t>{2, 4}), 3), OPRIG_STATUS_INVALID_ARGUMENT);  // 2 sizes, 3 outputs
  EXPECT_EQ(prepare(params_of(2, std::nullopt), 2), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(prepare(params_of(-3, std::nullopt), 2), OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(prepare(params_of(-1, std::nullopt), 4), OPRIG_STATUS_INVALID_ARGUMENT);  // 6 does not divide by 4
  EXPECT_EQ(prepare(params_of(-1, std::nullopt), 3), OPRIG_STATUS_OK);
  KernelSession negative(backend, cpu_impl(), "Split", params_of(1, std::vector<int64_t>{-1, 7}), {in}, {out, out});
  EXPECT_EQ(negative.create_status(), OPRIG_STATUS_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace oprig::harness
