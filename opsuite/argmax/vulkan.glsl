// ArgMax, vulkan: the shader text vulkan.comp (shared-memory team
// reductions, any device) and vulkan_subgroup.comp (subgroup butterflies)
// compile. opencl.cl's reduction (argmax_plan.hpp lays out lines, teams and
// parts) with the ranks of select_rank.glsl; a team's greatest rank is its
// greatest key, then the greatest low word among the members holding that
// key (two reductions of team_reduce.glsl). Work-group g, part p (the y
// workgroup coordinate) covers lines g x slots .. + slots, elements
// p x part_len .. of each; one part writes indices, several write ranks to
// `partial`, which the merge pipeline (kType 3) reduces to indices.
// Integer arithmetic only: no optional feature.

layout(local_size_x_id = 1) in;
layout(constant_id = 2) const uint kType = 0u;  // the input: 0 FLOAT_32, 1 FLOAT_16 (pairs in words), 2 INT_32, 3 the parts' ranks

#include "float_float.glsl"
#include "select_rank.glsl"
#include "team_reduce.glsl"

layout(std430, set = 0, binding = 0) readonly buffer X { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Y { int y[]; };
layout(std430, set = 0, binding = 2) buffer Partial { uvec2 partial[]; };

layout(push_constant) uniform Params {
  uint lines;
  uint n;  // the merge: parts
  uint inner;
  uint team_log2;
  uint lane_fast;
  uint part_len;
  uint last;  // select_last_index
} p;

int key_at(uint e) {
  if (kType == 1u) return oprig_key_f16((x[e >> 1] >> ((e & 1u) << 4)) & 0xffffu);
  if (kType == 2u) return int(x[e]);
  return oprig_key_f32(x[e]);
}

uvec2 team_best(uvec2 rank, uint lane, uint member, uint team, uint stride) {
  int key = int(rank.x ^ 0x80000000u);
  int top = oprig_team_max_int(key, lane, member, team, stride);
  int low = oprig_team_max_int(key == top ? int(rank.y ^ 0x80000000u) : int(0x80000000u), lane, member, team, stride);
  return uvec2(uint(top) ^ 0x80000000u, uint(low) ^ 0x80000000u);
}

void main() {
  uint lid = oprig_team_lane();  // numbered by subgroup where the butterflies run
  uint team = 1u << p.team_log2, slots = gl_WorkGroupSize.x >> p.team_log2;
  uint lane = p.lane_fast != 0u ? lid & (team - 1u) : lid / slots;
  uint slot = p.lane_fast != 0u ? lid >> p.team_log2 : lid & (slots - 1u);
  uint line = gl_WorkGroupID.x * slots + slot;
  uint parts = gl_NumWorkGroups.y, part = gl_WorkGroupID.y;
  uvec2 best = uvec2(0u);
  if (line < p.lines) {
    if (kType == 3u) {
      for (uint j = lane; j < p.n; j += team) best = oprig_rank_max(best, partial[line * p.n + j]);
    } else {
      uint row = (line / p.inner) * p.n * p.inner + line % p.inner;
      uint to = min(p.n, (part + 1u) * p.part_len);
      for (uint j = part * p.part_len + lane; j < to; j += team)
        best = oprig_rank_max(best, oprig_rank(key_at(row + j * p.inner), p.last != 0u ? j : ~j));
    }
  }
  best = team_best(best, lid, lane, team, p.lane_fast != 0u ? 1u : slots);
  if (lane == 0u && line < p.lines) {
    if (kType != 3u && parts > 1u) partial[line * parts + part] = best;
    else y[line] = int(p.last != 0u ? best.y : ~best.y);
  }
}
