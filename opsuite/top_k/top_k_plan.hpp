// What TopK's kernels share: the parameters and prepare()'s checks and
// output shapes (FLOAT_32, FLOAT_16 or INT_32 values, INT_32 indices) on
// every backend; the plan of the launches and the cost on the devices
// (opencl, vulkan).
//
// Lines: [outer, n, inner] with the axis in the middle; line (o, i) holds
// elements o n inner + j inner + i. Each element becomes a rank (common/
// opencl/select_rank.cl): its key (bitwise-not for the smallest first),
// then ~j, so the lower index wins among equal keys and every rank of a
// line is unique; TopK is "the k greatest ranks", whatever order a network
// compares them in. K is k rounded up to a power of two.
//
// The tile path (2K fits the local memory, or the whole line does): a
// work-group holds `segs` lines of `seg` ranks each in local memory (both
// powers of two, segs x seg <= the device's capacity C). It sorts every run
// of K ranks (descending and ascending by turns), then halves the runs
// until one is left: the elementwise greater of two neighbouring runs is a
// bitonic sequence holding their K best, which a bitonic merge sorts
// (Shanbhag et al., "Efficient Top-K Query Processing on Massively Parallel
// Hardware", 2018). A line longer than `seg` passes through in tiles: the K
// best so far stay at the front, the next seg - K elements fill the rest.
// Few long lines are split into `parts` ranges of separate work-groups,
// each writing its k best ranks; a second tile pass selects from those. In
// index order (sorted = false) the k winners take one common key, the rest
// of their run is emptied, and sorting the run lists them by index.
//
// The sort path (K too large for the local memory): a bitonic sort of each
// whole line (padded to `line` = a power of two, empty ranks last) in a
// device buffer: runs of `block` entries sorted in local memory, the longer
// stages as one launch per step down to `block`, then one local-memory
// launch for the remaining steps; in index order the first K are sorted
// again by index. The first k ranks are the answer.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>

#include "common/kernel.hpp"

namespace oprig::opsuite::top_k {

struct Params {
  int64_t k = 0;
  int64_t axis = -1;
  bool largest = true, sorted = true;
};

// nullopt without the mandatory k.
inline std::optional<Params> read_params(const oprig_param* params, size_t num_params) {
  const std::optional<double> k = scalar_param(params, num_params, "k");
  if (!k) return std::nullopt;
  Params p;
  p.k = static_cast<int64_t>(*k);
  p.axis = static_cast<int64_t>(scalar_param(params, num_params, "axis").value_or(-1));
  p.largest = scalar_param(params, num_params, "largest").value_or(1) != 0;
  p.sorted = scalar_param(params, num_params, "sorted").value_or(1) != 0;
  return p;
}

struct Shape {
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  uint64_t outer = 0, n = 0, inner = 0, k = 0;
  uint64_t lines() const { return outer * inner; }
  uint64_t elements() const { return outer * n * inner; }
  uint64_t element_bytes() const { return dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4; }
};

// The cpu kernel's checks; writes the outputs' shapes.
inline oprig_status plan_shape(const Params& p, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                               size_t num_outputs, Shape* shape) {
  if (num_inputs != 1 || num_outputs != 2 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& x = inputs[0];
  if (x.dtype != OPRIG_DTYPE_FLOAT_32 && x.dtype != OPRIG_DTYPE_FLOAT_16 && x.dtype != OPRIG_DTYPE_INT_32)
    return OPRIG_STATUS_UNSUPPORTED;
  if (x.scale != 0 || outputs[0].dtype != x.dtype || outputs[0].scale != 0 || outputs[1].dtype != OPRIG_DTYPE_INT_32 ||
      outputs[1].scale != 0)
    return OPRIG_STATUS_UNSUPPORTED;
  const auto rank = static_cast<int64_t>(x.rank);
  if (rank < 1 || p.axis < -rank || p.axis >= rank) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto axis = static_cast<uint32_t>(p.axis < 0 ? p.axis + rank : p.axis);
  if (x.dims[axis] > INT32_MAX || p.k < 1 || p.k > x.dims[axis]) return OPRIG_STATUS_INVALID_ARGUMENT;
  shape->dtype = static_cast<oprig_dtype>(x.dtype);
  shape->outer = shape->inner = 1;
  for (uint32_t d = 0; d < axis; ++d) shape->outer *= static_cast<uint64_t>(x.dims[d]);
  for (uint32_t d = axis + 1; d < x.rank; ++d) shape->inner *= static_cast<uint64_t>(x.dims[d]);
  shape->n = static_cast<uint64_t>(x.dims[axis]);
  shape->k = static_cast<uint64_t>(p.k);
  for (int o = 0; o < 2; ++o) {
    outputs[o].rank = x.rank;
    std::copy(x.dims, x.dims + x.rank, outputs[o].dims);
    outputs[o].dims[axis] = p.k;
  }
  return OPRIG_STATUS_OK;
}

inline uint32_t log2_of(uint64_t power_of_two) { return static_cast<uint32_t>(std::countr_zero(power_of_two)); }

// One tile pass over `lines` lines of `line_len` elements (or ranks).
struct TilePass {
  uint32_t seg_log2 = 0, segs_log2 = 0;  // ranks per line in local memory, lines per work-group
  uint32_t group = 1;                    // work-items per work-group
  uint64_t line_groups = 0;              // work-groups along the lines
  uint32_t parts = 1, part_len = 0, line_len = 0;
  bool lane_fast = true;  // the lines are rows (inner == 1): a line's elements are adjacent
  uint32_t local_entries() const { return 1u << (seg_log2 + segs_log2); }
};

struct Plan {
  uint32_t k_log2 = 0;
  bool sort_path = false;
  TilePass tiles, merge;         // the tile path (merge: when tiles.parts > 1)
  uint32_t line_log2 = 0;        // the sort path: ranks per padded line
  uint32_t block_log2 = 0;       // the sort path: entries sorted in local memory at once
  uint32_t block_group = 1;      // the sort path: work-items of its local-memory launches
  uint64_t sort_bytes() const { return sort_path ? uint64_t{8} << line_log2 : 0; }  // per line
};

// Enough work-groups for a large GPU (132 SMs x several groups each).
constexpr uint64_t kTargetGroups = 1024;
// Strided lines: this many side by side in a work-group, so that its loads
// of one position along the axis are adjacent.
constexpr uint64_t kStridedLines = 16;

// `capacity`: ranks a work-group may hold in local memory (a power of two);
// `max_group`: work-items per work-group at most (a power of two).
inline TilePass plan_tiles(uint64_t lines, uint64_t line_len, bool lane_fast, uint64_t inner, uint32_t k_log2,
                           uint64_t capacity, uint32_t max_group, bool may_split) {
  TilePass t;
  t.lane_fast = lane_fast;
  t.line_len = static_cast<uint32_t>(line_len);
  const uint64_t K = uint64_t{1} << k_log2;
  const uint64_t whole = std::bit_ceil(std::max(line_len, K));
  uint64_t seg = std::min(whole, capacity);
  if (!lane_fast) {
    const uint64_t side_by_side = std::min(std::bit_ceil(inner), kStridedLines);
    while (seg > capacity / side_by_side && seg / 2 >= 2 * K) seg /= 2;
  }
  const uint64_t segs = std::min(capacity / seg, std::bit_ceil(std::max<uint64_t>(lines, 1)));
  t.seg_log2 = log2_of(seg);
  t.segs_log2 = log2_of(segs);
  // One work-group size for every shape: PoCL compiles a kernel again for
  // each new one (seconds each), and idle work-items cost a GPU little.
  t.group = max_group;
  t.line_groups = (lines + segs - 1) / segs;
  uint64_t parts = 1;
  if (may_split && line_len > seg && t.line_groups > 0 && t.line_groups < kTargetGroups)
    parts = std::min((kTargetGroups + t.line_groups - 1) / t.line_groups, std::max<uint64_t>(1, line_len / (2 * seg)));
  t.part_len = static_cast<uint32_t>((line_len + parts - 1) / parts);
  t.parts = static_cast<uint32_t>((line_len + t.part_len - 1) / t.part_len);
  return t;
}

inline Plan plan_launches(const Shape& s, uint64_t capacity, uint32_t max_group) {
  Plan p;
  const uint64_t K = std::bit_ceil(s.k);
  p.k_log2 = log2_of(K);
  p.sort_path = std::bit_ceil(s.n) > capacity && 2 * K > capacity;
  if (!p.sort_path) {
    p.tiles = plan_tiles(s.lines(), s.n, s.inner == 1, s.inner, p.k_log2, capacity, max_group, true);
    if (p.tiles.parts > 1)
      p.merge = plan_tiles(s.lines(), p.tiles.parts * s.k, true, 1, p.k_log2, capacity, max_group, false);
    return p;
  }
  p.line_log2 = log2_of(std::bit_ceil(s.n));
  p.block_log2 = log2_of(capacity);
  p.block_group = static_cast<uint32_t>(std::min<uint64_t>(capacity / 2, max_group));
  return p;
}

inline oprig_cost cost(const Shape& s) {
  const uint64_t selected = s.lines() * s.k;
  return {s.elements(), s.elements() * s.element_bytes(), selected * (s.element_bytes() + 4)};
}

}  // namespace oprig::opsuite::top_k
