// How the slice kernels (Softmax, LayerNorm and RMSNorm on opencl and
// vulkan) spread the slices of a tensor over work-groups. A tensor is seen
// as [outer, length, inner]: a slice is (o, *, i), `length` units apart by
// `inner`. Each slice gets a team of `members` work-items (a power of two),
// each of which keeps up to `cache` of the slice's units in registers, so a
// slice of up to members * cache units is read from memory once; longer
// slices are streamed again in each pass. A work-group holds group / members
// teams: several short slices per group. Contiguous slices (inner == 1) put
// a team's work-items side by side (neighbours read neighbouring units);
// strided slices (inner > 1) interleave the teams, so neighbouring
// work-items read neighbouring slices at the same unit (the coalesced read
// of a column block). The kernels reduce over a team with
// common/opencl/team_reduce.cl or common/glsl/team_reduce.glsl.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

namespace oprig::opsuite {

// What a device offers the slice kernels (from its limits; see
// slice_device_opencl.hpp and slice_device_vulkan.hpp).
struct SliceDevice {
  uint32_t max_group = 1;        // the most work-items per group (a power of two)
  uint32_t preferred_group = 1;  // work-items per group when the slices leave a choice (a power of two)
  uint32_t cache = 1;            // units per work-item in registers: the kernel's compile-time constant
  uint32_t max_members = 1;      // the most work-items per slice (a power of two, <= max_group)
  uint32_t min_group = 1;        // the fewest work-items per group (a subgroup, for subgroup reductions)
};

struct SliceLayout {
  uint32_t group = 1;     // work-items per group
  uint32_t members = 1;   // work-items per slice
  bool strided = false;   // inner > 1: teams interleaved
  uint64_t groups = 0;    // work-groups the tensor needs (kernels loop over them when fewer are launched)
};

inline uint32_t slice_power_of_two_at_least(uint64_t n) {
  return n <= 1 ? 1u : static_cast<uint32_t>(std::bit_ceil(std::min<uint64_t>(n, uint64_t{1} << 31)));
}

// The layout for `length` units per slice (0 < length); outer * inner slices.
inline SliceLayout layout_slices(uint64_t outer, uint64_t length, uint64_t inner, const SliceDevice& device) {
  SliceLayout layout;
  const uint64_t per_member = (length + device.cache - 1) / device.cache;
  uint32_t members = std::min(slice_power_of_two_at_least(per_member), device.max_members);
  if (inner == 1) {
    layout.members = members;
    layout.group = std::max({members, std::min(device.preferred_group, device.max_group), device.min_group});
    const uint64_t teams = layout.group / members;
    layout.groups = (outer + teams - 1) / teams;
    return layout;
  }
  layout.strided = true;
  // 32 neighbouring slices: one 128-byte line of fp32 per unit, what a GPU
  // reads in one transaction.
  const uint32_t teams = std::min({slice_power_of_two_at_least(inner), 32u, device.max_group});
  members = std::max(std::min(members, device.max_group / teams), device.min_group / teams);
  layout.members = members;
  layout.group = teams * members;
  layout.groups = outer * ((inner + teams - 1) / teams);
  return layout;
}

}  // namespace oprig::opsuite
