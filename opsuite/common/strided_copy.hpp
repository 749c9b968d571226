// The layout arithmetic of the ops that only move bytes (Concat, Split, Crop),
// written once for every backend: each op's byte_plan.hpp checks its tensors,
// writes the output shapes and describes the copy here; the cpu kernels walk it
// (byte_copy.hpp), the opencl and vulkan kernels launch one block copy per
// block (strided_copy_kernel.hpp, device_copy.hpp). Values come through bit for
// bit whatever the element type; a quantised tensor keeps its codes, so the
// quantisation must not change.
//
// - ChunkedRows: one dense tensor whose every row (one index of the
//   dimensions before the axis) is chunk 0 of part 0, chunk 0 of part 1, ...;
//   part k is dense too, chunk[k] bytes a row. Concat's output, Split's input.
// - CopyBlock: rows of `bytes` contiguous bytes, from one input to one
//   output, each side with two strides (row r = o * inner + i starts at
//   offset + o * outer_stride + i * inner_stride): a Concat or Split part, or
//   Crop's kept rows (i the row of an image, o the image).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "oprig/oprig_package.h"

namespace oprig::opsuite {

// Bytes of one element of a type a copy can move; 0 for any other type.
inline size_t element_bytes(uint32_t dtype) {
  switch (dtype) {
    case OPRIG_DTYPE_INT_8: case OPRIG_DTYPE_UINT_8: case OPRIG_DTYPE_BOOL_8: return 1;
    case OPRIG_DTYPE_FLOAT_16: case OPRIG_DTYPE_INT_16: case OPRIG_DTYPE_UINT_16: return 2;
    case OPRIG_DTYPE_FLOAT_32: case OPRIG_DTYPE_INT_32: case OPRIG_DTYPE_UINT_32: return 4;
    case OPRIG_DTYPE_FLOAT_64: case OPRIG_DTYPE_INT_64: case OPRIG_DTYPE_UINT_64: return 8;
    default: return 0;
  }
}

// Whether `to` can hold the codes of `from` unchanged: the same type and,
// when quantised, the same scale and zero point.
inline bool same_quantisation(const oprig_tensor& from, const oprig_tensor& to) {
  return to.scale == from.scale && (from.scale == 0 || to.zero_point == from.zero_point);
}

// axis in [-rank, rank), counted from the first dimension; nullopt otherwise.
inline std::optional<uint32_t> axis_of(int64_t axis, uint32_t rank) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) return std::nullopt;
  return static_cast<uint32_t>(axis < 0 ? axis + r : axis);
}

struct ChunkedRows {
  size_t rows = 0, row_bytes = 0, total = 0;  // of the dense tensor
  std::vector<size_t> chunk, start;           // per part: bytes a row, and where in the row
};

// The chunks of parts with sizes[k] elements along `axis` of a dense tensor
// of `rank` dims (`dims[axis]` is ignored: the sizes replace it) and elements
// of `esize` bytes.
inline ChunkedRows chunked_rows(const int64_t* dims, uint32_t rank, uint32_t axis, size_t esize,
                                std::span<const int64_t> sizes) {
  ChunkedRows c;
  size_t inner = esize;
  c.rows = 1;
  for (uint32_t d = 0; d < axis; ++d) c.rows *= static_cast<size_t>(dims[d]);
  for (uint32_t d = axis + 1; d < rank; ++d) inner *= static_cast<size_t>(dims[d]);
  c.chunk.assign(sizes.size(), 0);
  c.start.assign(sizes.size(), 0);
  for (size_t k = 0; k < sizes.size(); ++k) {
    c.start[k] = c.row_bytes;
    c.chunk[k] = static_cast<size_t>(sizes[k]) * inner;
    c.row_bytes += c.chunk[k];
  }
  c.total = c.rows * c.row_bytes;
  return c;
}

struct CopyBlock {
  size_t src = 0, dst = 0;  // the input and the output it copies between
  size_t bytes = 0;         // contiguous bytes a row
  size_t rows = 0;          // o * inner + i, i < inner
  size_t inner = 1;
  size_t src_offset = 0, src_inner = 0, src_outer = 0;
  size_t dst_offset = 0, dst_inner = 0, dst_outer = 0;

  size_t total() const { return rows * bytes; }
};

// The same copy with as few, as long rows as the strides allow: rows that
// follow each other on both sides become one (Crop without cropped columns
// copies whole images; a lone Concat input, one row).
inline CopyBlock merged_rows(CopyBlock b) {
  if (b.total() == 0) return b;
  if (b.inner == 1) {  // every row its own o: one level
    b.inner = b.rows;
    b.src_inner = b.src_outer;
    b.dst_inner = b.dst_outer;
  }
  if (b.inner > 1 && b.src_inner == b.bytes && b.dst_inner == b.bytes) {  // the rows of one o follow each other
    b.bytes *= b.inner;
    b.rows /= b.inner;
    b.inner = b.rows;
    b.src_inner = b.src_outer;
    b.dst_inner = b.dst_outer;
  }
  if (b.inner == b.rows && b.rows > 1 && b.src_inner == b.bytes && b.dst_inner == b.bytes) {
    b.bytes *= b.rows;
    b.rows = 1;
    b.inner = 1;
  }
  if (b.inner == b.rows) b.src_outer = b.dst_outer = 0;  // one o: the outer strides are never used
  return b;
}

// One block per non-empty part of `rows`: Concat's parts are inputs 0..n-1,
// copied into output 0 (gather); Split's are outputs, copied from input 0.
inline std::vector<CopyBlock> gather_blocks(const ChunkedRows& rows) {
  std::vector<CopyBlock> blocks;
  for (size_t k = 0; k < rows.chunk.size(); ++k) {
    CopyBlock b;
    b.src = k;
    b.bytes = rows.chunk[k];
    b.rows = b.inner = rows.rows;
    b.src_inner = rows.chunk[k];
    b.dst_offset = rows.start[k];
    b.dst_inner = rows.row_bytes;
    if (b.total() != 0) blocks.push_back(merged_rows(b));
  }
  return blocks;
}
inline std::vector<CopyBlock> scatter_blocks(const ChunkedRows& rows) {
  std::vector<CopyBlock> blocks = gather_blocks(rows);
  for (CopyBlock& b : blocks) {
    std::swap(b.src, b.dst);
    std::swap(b.src_offset, b.dst_offset);
    std::swap(b.src_inner, b.dst_inner);
    std::swap(b.src_outer, b.dst_outer);
  }
  return blocks;
}

struct CopyPlan {
  std::vector<CopyBlock> blocks;  // non-empty ones only
  size_t bytes = 0;               // moved: read once, written once
};

inline CopyPlan gather_plan(const ChunkedRows& rows) { return {gather_blocks(rows), rows.total}; }
inline CopyPlan scatter_plan(const ChunkedRows& rows) { return {scatter_blocks(rows), rows.total}; }
inline CopyPlan block_plan(const CopyBlock& block) {
  CopyPlan plan{{}, block.total()};
  if (block.total() != 0) plan.blocks.push_back(block);
  return plan;
}

// What the device kernels of a copy op know of the op: prepare()'s checks,
// shapes and blocks. Made from the op's parameters in create() by its
// CopyLayoutFactory (INVALID_ARGUMENT for parameters no tensor can satisfy).
class CopyLayout {
 public:
  virtual ~CopyLayout() = default;
  virtual oprig_status plan(const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs, size_t num_outputs,
                            CopyPlan* plan) const = 0;
};
using CopyLayoutFactory = oprig_status (*)(const oprig_param* params, size_t num_params,
                                           std::unique_ptr<CopyLayout>* out);

// The CopyLayoutFactory of an op whose byte_plan.hpp has
//   oprig_status parse(const oprig_param*, size_t, Params*);
//   oprig_status plan_<layout>(const Params&, inputs, num_inputs, outputs, num_outputs, Layout*);
// (ChunkedRows or CopyBlock, what its cpu kernel walks) and kToPlan, the
// blocks of that Layout (gather_plan, scatter_plan, block_plan).
template <class Params, class Layout, auto kParse, auto kPlanLayout, auto kToPlan>
oprig_status copy_layout(const oprig_param* params, size_t num_params, std::unique_ptr<CopyLayout>* out) {
  class OpLayout : public CopyLayout {
   public:
    explicit OpLayout(Params p) : params_(std::move(p)) {}
    oprig_status plan(const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs, size_t num_outputs,
                      CopyPlan* plan) const override {
      Layout layout;
      const oprig_status st = kPlanLayout(params_, inputs, num_inputs, outputs, num_outputs, &layout);
      if (st == OPRIG_STATUS_OK) *plan = kToPlan(layout);
      return st;
    }

   private:
    Params params_;
  };
  Params p;
  const oprig_status st = kParse(params, num_params, &p);
  if (st != OPRIG_STATUS_OK) return st;
  out->reset(new (std::nothrow) OpLayout(std::move(p)));
  return *out ? OPRIG_STATUS_OK : OPRIG_STATUS_OUT_OF_MEMORY;
}

}  // namespace oprig::opsuite
