// What ArgMax's kernels share: the parameters and prepare()'s checks and
// output shape (FLOAT_32, FLOAT_16 or INT_32 in, INT_32 out) on every
// backend; the launch and the cost on the devices (opencl, vulkan).
//
// The input is seen as lines: [outer, n, inner] with the axis in the middle,
// line (o, i) holding the n elements o n inner + j inner + i. A work-group
// of G work-items takes `slots` lines with a team of `team` work-items each
// (both powers of two, slots x team = G); a team reads its line grid-stride
// and reduces its (key, index) ranks through local memory. Along the last
// axis a team is consecutive work-items (they read consecutive elements);
// along an inner axis the slots are (consecutive work-items read
// neighbouring lines' elements, which lie side by side). When the lines are
// too few to fill the device, each is split into `parts` ranges read by
// different work-groups; a second launch (one team per line) takes the
// greatest of the parts' ranks. Ranks are unique, so neither the team size,
// the tree nor the split can change an answer.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "common/kernel.hpp"

namespace oprig::opsuite::argmax {

struct Params {
  int64_t axis = 0;
  bool keepdims = true;
  bool last = false;  // select_last_index
};

inline Params read_params(const oprig_param* params, size_t num_params) {
  Params p;
  p.axis = static_cast<int64_t>(scalar_param(params, num_params, "axis").value_or(0));
  p.keepdims = scalar_param(params, num_params, "keepdims").value_or(1) != 0;
  p.last = scalar_param(params, num_params, "select_last_index").value_or(0) != 0;
  return p;
}

struct Shape {
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  uint64_t outer = 0, n = 0, inner = 0;
  uint64_t lines() const { return outer * inner; }
  uint64_t elements() const { return outer * n * inner; }
};

// The cpu kernel's checks; writes the output's shape.
inline oprig_status plan_shape(const Params& p, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                               size_t num_outputs, Shape* shape) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& x = inputs[0];
  if (x.dtype != OPRIG_DTYPE_FLOAT_32 && x.dtype != OPRIG_DTYPE_FLOAT_16 && x.dtype != OPRIG_DTYPE_INT_32)
    return OPRIG_STATUS_UNSUPPORTED;
  if (x.scale != 0 || outputs[0].dtype != OPRIG_DTYPE_INT_32 || outputs[0].scale != 0)
    return OPRIG_STATUS_UNSUPPORTED;
  const auto rank = static_cast<int64_t>(x.rank);
  if (rank < 1 || p.axis < -rank || p.axis >= rank) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto axis = static_cast<uint32_t>(p.axis < 0 ? p.axis + rank : p.axis);
  if (x.dims[axis] < 1 || x.dims[axis] > INT32_MAX) return OPRIG_STATUS_INVALID_ARGUMENT;
  shape->dtype = static_cast<oprig_dtype>(x.dtype);
  shape->outer = shape->inner = 1;
  for (uint32_t d = 0; d < axis; ++d) shape->outer *= static_cast<uint64_t>(x.dims[d]);
  for (uint32_t d = axis + 1; d < x.rank; ++d) shape->inner *= static_cast<uint64_t>(x.dims[d]);
  shape->n = static_cast<uint64_t>(x.dims[axis]);
  oprig_tensor& y = outputs[0];
  y.rank = 0;
  for (uint32_t d = 0; d < x.rank; ++d) {
    if (d != axis) y.dims[y.rank++] = x.dims[d];
    else if (p.keepdims) y.dims[y.rank++] = 1;
  }
  return OPRIG_STATUS_OK;
}

struct Launch {
  uint32_t group = 1;      // work-items per work-group
  uint32_t team_log2 = 0;  // work-items per line: 1 << team_log2
  bool lane_fast = true;   // a team is consecutive work-items (the axis is the last)
  uint64_t line_groups = 0;
  uint32_t parts = 1, part_len = 0;
  uint32_t slots() const { return group >> team_log2; }
};

// Enough work-groups for a large GPU (132 SMs x several groups each); a
// part keeps each work-item at least kMinPerItem elements.
constexpr uint64_t kTargetGroups = 1024;
constexpr uint64_t kMinPerItem = 64;

// `group` is the work-group size, `max_team` the most work-items per line
// (both powers of two; lavapipe keeps a team within a subgroup, see
// common/slice_device_vulkan.hpp).
inline Launch plan_launch(const Shape& s, uint32_t group, uint32_t max_team) {
  Launch l;
  l.group = group;
  l.lane_fast = s.inner == 1;
  uint64_t team;
  if (l.lane_fast) {
    // About 8 elements per work-item: rows of 1024 take teams of 128.
    team = std::min<uint64_t>({group, max_team, std::bit_ceil(std::max<uint64_t>(1, s.n / 8))});
  } else {
    // Up to 32 neighbouring lines side by side (128-byte rows of fp32).
    const uint64_t slots = std::min<uint64_t>({group, std::bit_ceil(s.inner), 32});
    team = std::min<uint64_t>(group / slots, max_team);
  }
  l.team_log2 = static_cast<uint32_t>(std::countr_zero(team));
  l.line_groups = (s.lines() + l.slots() - 1) / l.slots();
  uint64_t parts = 1;
  if (l.line_groups > 0 && l.line_groups < kTargetGroups)
    parts = std::min((kTargetGroups + l.line_groups - 1) / l.line_groups,
                     std::max<uint64_t>(1, s.n / (team * kMinPerItem)));
  l.part_len = static_cast<uint32_t>((s.n + parts - 1) / parts);
  l.parts = static_cast<uint32_t>((s.n + l.part_len - 1) / l.part_len);
  return l;
}

// The merge of the parts: one line of `parts` ranks per output, a team each.
inline Launch plan_merge(const Shape& s, uint32_t group, uint32_t max_team, uint32_t parts) {
  const Shape ranks{s.dtype, s.lines(), parts, 1};
  Launch l = plan_launch(ranks, group, max_team);
  l.parts = 1;
  l.part_len = parts;
  return l;
}

inline oprig_cost cost(const Shape& s) {
  const uint64_t width = s.dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  return {s.elements(), s.elements() * width, s.lines() * 4};
}

}  // namespace oprig::opsuite::argmax
