// The block copy the ops that only move bytes share on opencl and vulkan
// (device_copy.hpp, strided_copy_kernel.hpp), through Concat, Split
// and Crop, where the plan's cases do not reach: every unit width (16, 8, 4,
// 2 and 1 bytes) and vulkan's word slots, including rows narrower than a
// word whose words are shared with the next row or another part's dispatch;
// more parts than the old 7-input limit, parts of size 0; blocks of more
// units than a dispatch's grid (vulkan loops) with row indices far past
// 2^16 (the fast divisions); element sizes 1 to 8 bytes. The oracle is the
// definition, element by element from coordinates; bytes must be equal.
// Skipped where the backend is absent.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/op_test_support.hpp"
#include "common/strided_copy.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

using op_test::DeviceTest;

struct Bytes {
  oprig_dtype dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
  size_t esize() const { return opsuite::element_bytes(dtype); }
  HostTensor tensor() const { return HostTensor::of(dtype, shape, data); }
};

// Bytes that differ between elements and between tensors.
Bytes pattern(oprig_dtype dtype, std::vector<int64_t> shape, unsigned seed) {
  Bytes b{dtype, std::move(shape), {}};
  b.data.resize(op_test::count(b.shape) * b.esize());
  for (size_t i = 0; i < b.data.size(); ++i) b.data[i] = static_cast<uint8_t>(i * 37 + seed * 101 + i / 253);
  return b;
}

std::vector<Bytes> run(Backend& backend, const std::string& op, const ParamList& params,
                       const std::vector<Bytes>& inputs, size_t num_outputs) {
  std::vector<HostTensor> in;
  for (const Bytes& b : inputs) in.push_back(b.tensor());
  std::vector<oprig_tensor> out(num_outputs, op_test::output_of(inputs.at(0).dtype));
  KernelSession s(backend, op_test::implementation(backend.kind()), op, params, in, out);
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error(op + ": execute failed");
  std::vector<Bytes> results;
  for (size_t k = 0; k < num_outputs; ++k) {
    const oprig_tensor& d = s.outputs()[k];
    results.push_back({static_cast<oprig_dtype>(d.dtype), std::vector<int64_t>(d.dims, d.dims + d.rank),
                       s.output(k).as<uint8_t>()});
  }
  return results;
}

// The flat index of `coords` in `shape`.
size_t flat(const std::vector<int64_t>& coords, const std::vector<int64_t>& shape) {
  size_t i = 0;
  for (size_t d = 0; d < shape.size(); ++d) i = i * static_cast<size_t>(shape[d]) + static_cast<size_t>(coords[d]);
  return i;
}

// Calls visit(coords) for every coordinate of `shape`, in order.
template <class Visit>
void for_each_coordinate(const std::vector<int64_t>& shape, Visit visit) {
  const size_t n = op_test::count(shape);
  std::vector<int64_t> coords(shape.size(), 0);
  for (size_t i = 0; i < n; ++i) {
    size_t rest = i;
    for (size_t d = shape.size(); d-- > 0;) {
      coords[d] = static_cast<int64_t>(rest % static_cast<size_t>(shape[d]));
      rest /= static_cast<size_t>(shape[d]);
    }
    visit(coords);
  }
}

void copy_element(const Bytes& from, size_t i, Bytes& to, size_t j) {
  for (size_t b = 0; b < from.esize(); ++b) to.data[j * from.esize() + b] = from.data[i * from.esize() + b];
}

// Split by the definition: output k holds the input at offset_k + x along axis.
std::vector<Bytes> split_by_definition(const Bytes& in, size_t axis, const std::vector<int64_t>& sizes) {
  std::vector<Bytes> outs;
  int64_t offset = 0;
  for (int64_t size : sizes) {
    Bytes out{in.dtype, in.shape, {}};
    out.shape[axis] = size;
    out.data.resize(op_test::count(out.shape) * in.esize());
    for_each_coordinate(out.shape, [&](std::vector<int64_t> c) {
      const size_t j = flat(c, out.shape);
      c[axis] += offset;
      copy_element(in, flat(c, in.shape), out, j);
    });
    offset += size;
    outs.push_back(std::move(out));
  }
  return outs;
}

// Concat by the definition: the output at x along axis comes from the input
// whose range along axis holds x.
Bytes concat_by_definition(const std::vector<Bytes>& ins, size_t axis) {
  Bytes out{ins[0].dtype, ins[0].shape, {}};
  out.shape[axis] = 0;
  for (const Bytes& in : ins) out.shape[axis] += in.shape[axis];
  out.data.resize(op_test::count(out.shape) * out.esize());
  for_each_coordinate(out.shape, [&](std::vector<int64_t> c) {
    const size_t j = flat(c, out.shape);
    size_t k = 0;
    while (c[axis] >= ins[k].shape[axis]) c[axis] -= ins[k++].shape[axis];
    copy_element(ins[k], flat(c, ins[k].shape), out, j);
  });
  return out;
}

// Crop by the definition: out[n, h, w, c] = in[n, h + top, w + left, c].
Bytes crop_by_definition(const Bytes& in, int64_t top, int64_t bottom, int64_t left, int64_t right) {
  Bytes out{in.dtype, {in.shape[0], in.shape[1] - top - bottom, in.shape[2] - left - right, in.shape[3]}, {}};
  out.data.resize(op_test::count(out.shape) * in.esize());
  for_each_coordinate(out.shape, [&](std::vector<int64_t> c) {
    const size_t j = flat(c, out.shape);
    c[1] += top;
    c[2] += left;
    copy_element(in, flat(c, in.shape), out, j);
  });
  return out;
}

std::string what(const std::string& op, const Bytes& in, size_t axis) {
  std::string s = op + " dtype " + std::to_string(in.dtype) + " axis " + std::to_string(axis) + " shape";
  for (int64_t d : in.shape) s += " " + std::to_string(d);
  return s;
}

void expect_same(const Bytes& got, const Bytes& want, const std::string& where) {
  ASSERT_EQ(got.shape, want.shape) << where;
  ASSERT_EQ(got.data.size(), want.data.size()) << where;
  for (size_t i = 0; i < want.data.size(); ++i)
    ASSERT_EQ(got.data[i], want.data[i]) << where << ": byte " << i << " of " << want.data.size();
}

using StridedCopy = DeviceTest;

// Types of 1, 2, 4 and 8 bytes, so that the same element counts give rows
// of every alignment.
const oprig_dtype kTypes[] = {OPRIG_DTYPE_UINT_8, OPRIG_DTYPE_FLOAT_16, OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_INT_64};

TEST_P(StridedCopy, SplitIntoNineOutputsOfEveryWidthEqualsTheDefinition) {
  // Parts of 1 to 8 elements and of size 0 along the last axis, in rows of
  // 28 elements (1-byte elements: chunks of 1 to 8 bytes, several in one
  // word and words shared between rows); then the middle axis.
  const std::vector<int64_t> sizes = {1, 0, 2, 3, 8, 5, 1, 4, 4};
  for (oprig_dtype dtype : kTypes)
    for (size_t axis : {size_t{2}, size_t{1}}) {
      std::vector<int64_t> shape = {3, 7, 5};
      shape[axis] = std::accumulate(sizes.begin(), sizes.end(), int64_t{0});
      const Bytes in = pattern(dtype, shape, 1);
      const auto params = ParamList().add_int("axis", static_cast<int64_t>(axis)).add_ints("split", sizes);
      const std::vector<Bytes> got = run(backend(), "Split", params, {in}, sizes.size());
      const std::vector<Bytes> want = split_by_definition(in, axis, sizes);
      for (size_t k = 0; k < sizes.size(); ++k)
        expect_same(got[k], want[k], what("Split", in, axis) + " output " + std::to_string(k));
    }
}

TEST_P(StridedCopy, ConcatOfNineInputsOfEveryWidthEqualsTheDefinition) {
  const std::vector<int64_t> sizes = {1, 0, 2, 3, 8, 5, 1, 4, 4};
  for (oprig_dtype dtype : kTypes)
    for (size_t axis : {size_t{2}, size_t{1}}) {
      std::vector<Bytes> ins;
      for (int64_t size : sizes) {
        std::vector<int64_t> shape = {3, 7, 5};
        shape[axis] = size;
        ins.push_back(pattern(dtype, shape, static_cast<unsigned>(ins.size() + 2)));
      }
      const auto params = ParamList().add_int("axis", static_cast<int64_t>(axis));
      const std::vector<Bytes> got = run(backend(), "Concat", params, ins, 1);
      expect_same(got.at(0), concat_by_definition(ins, axis), what("Concat", ins[0], axis));
    }
}

TEST_P(StridedCopy, CropOfEveryWidthAndMarginEqualsTheDefinition) {
  struct Margins {
    int64_t top, bottom, left, right;
  };
  // Rows of 7 of 11 pixels at a 3-pixel offset (no alignment above the
  // element), whole rows, nothing, and an image cropped to one column.
  const Margins margins[] = {{1, 2, 3, 1}, {2, 1, 0, 0}, {0, 0, 0, 0}, {0, 1, 5, 5}};
  for (oprig_dtype dtype : kTypes)
    for (int64_t channels : {1, 3, 4})
      for (const Margins& m : margins) {
        const Bytes in = pattern(dtype, {2, 9, 11, channels}, 3);
        ParamList params;
        params.add_int("crop_top", m.top).add_int("crop_bottom", m.bottom);
        params.add_int("crop_left", m.left).add_int("crop_right", m.right);
        const std::vector<Bytes> got = run(backend(), "Crop", params, {in}, 1);
        expect_same(got.at(0), crop_by_definition(in, m.top, m.bottom, m.left, m.right),
                    what("Crop", in, 0) + " margins " + std::to_string(m.top) + " " + std::to_string(m.bottom) + " " +
                        std::to_string(m.left) + " " + std::to_string(m.right));
      }
}

// 5M rows of one 4-byte element per output: more units than a vulkan
// dispatch's grid (65535 work-groups of 64), row indices up to 5M for the
// fast divisions; and 1-byte elements (word slots, every word shared by
// four rows) over 3M rows.
TEST_P(StridedCopy, SplitOverMillionsOfRowsEqualsTheDefinition) {
  for (const auto& [dtype, rows] : {std::pair{OPRIG_DTYPE_INT_32, int64_t{5'000'000}},
                                    std::pair{OPRIG_DTYPE_UINT_8, int64_t{3'000'000}}}) {
    const Bytes in = pattern(dtype, {rows, 2}, 4);
    const std::vector<Bytes> got = run(backend(), "Split", ParamList().add_int("axis", 1), {in}, 2);
    const std::vector<Bytes> want = split_by_definition(in, 1, {1, 1});
    for (size_t k = 0; k < 2; ++k) expect_same(got[k], want[k], what("Split", in, 1) + " output " + std::to_string(k));
  }
}

TEST_P(StridedCopy, CropOfALargeImageEqualsTheDefinition) {
  const Bytes in = pattern(OPRIG_DTYPE_FLOAT_16, {2, 700, 1501, 3}, 5);  // rows of 1498 pixels, 8988 bytes
  ParamList params;
  params.add_int("crop_top", 1).add_int("crop_bottom", 0).add_int("crop_left", 2).add_int("crop_right", 1);
  expect_same(run(backend(), "Crop", params, {in}, 1).at(0), crop_by_definition(in, 1, 0, 2, 1),
              what("Crop", in, 0));
}

INSTANTIATE_TEST_SUITE_P(Backends, StridedCopy, ::testing::Values("opencl", "vulkan"), op_test::backend_name);

}  // namespace
}  // namespace oprig::harness
