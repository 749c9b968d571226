#version 450
// MultiClassNms, vulkan, step 1 (opencl.cl's nms_sort): a workgroup per
// (batch item, class) gathers the scores above the threshold as unique keys
// (score key, inverted box index) into the class's segment of `keys`, pads
// it with (0, 0) to a power of two and sorts it highest first by a bitonic
// network: in shared memory up to SORT_BLOCK keys, with steps over the
// buffer between blocks beyond it.
#extension GL_GOOGLE_include_directive : require

layout(local_size_x_id = 1) in;
layout(constant_id = 2) const uint HALF = 0u;
layout(constant_id = 3) const uint SORT_BLOCK = 2048u;

#include "nms.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Scores { uint scores[]; };
layout(std430, set = 0, binding = 1) coherent buffer Keys { uvec2 keys[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Candidates { uint candidates[]; };

layout(push_constant) uniform Params {
  uint n, classes, segment, tasks;
  int threshold_order;
} p;

shared uvec2 block[SORT_BLOCK];
shared uint count;

// One compare-exchange step: pairs (i, i + j) for i with bit j clear, highest
// first where bit k of the segment index is clear.
void step_shared(uint base, uint pairs, uint k, uint j) {
  for (uint q = gl_LocalInvocationID.x; q < pairs; q += gl_WorkGroupSize.x) {
    uint i = ((q & ~(j - 1u)) << 1) | (q & (j - 1u)), l = i + j;
    uvec2 x = block[i], y = block[l];
    bool descending = ((base + i) & k) == 0u, swap = descending == nms_less(x, y);  // branch-free
    block[i] = swap ? y : x;
    block[l] = swap ? x : y;
  }
}

void step_buffer(uint first, uint pairs, uint k, uint j) {
  for (uint q = gl_LocalInvocationID.x; q < pairs; q += gl_WorkGroupSize.x) {
    uint i = ((q & ~(j - 1u)) << 1) | (q & (j - 1u)), l = i + j;
    uvec2 x = keys[first + i], y = keys[first + l];
    bool descending = (i & k) == 0u, swap = descending == nms_less(x, y);
    keys[first + i] = swap ? y : x;
    keys[first + l] = swap ? x : y;
  }
}

void sort_keys(uint first, uint total) {
  uint lane = gl_LocalInvocationID.x, group = gl_WorkGroupSize.x;
  uint span = min(total, SORT_BLOCK);
  for (uint k = span; k <= total; k <<= 1) {
    if (k > span)
      for (uint j = k >> 1; j >= span; j >>= 1) {
        step_buffer(first, total / 2u, k, j);
        memoryBarrierBuffer();
        barrier();
      }
    for (uint base = 0u; base < total; base += span) {
      for (uint i = lane; i < span; i += group) block[i] = keys[first + base + i];
      barrier();
      for (uint kk = k == span ? 2u : k; kk <= k; kk <<= 1)
        for (uint j = min(kk, span) >> 1; j > 0u; j >>= 1) {
          step_shared(base, span / 2u, kk, j);
          barrier();
        }
      for (uint i = lane; i < span; i += group) keys[first + base + i] = block[i];
      memoryBarrierBuffer();
      barrier();
    }
  }
}

void main() {
  uint task = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (task >= p.tasks) return;  // the whole workgroup
  uint lane = gl_LocalInvocationID.x, group = gl_WorkGroupSize.x;
  uint first_score = (task / p.classes) * p.n * p.classes + task % p.classes;
  uint first = task * p.segment;
  if (lane == 0u) count = 0u;
  barrier();
  // Where each candidate lands depends on the atomics' order; the sort gives
  // the one order of the unique keys.
  for (uint i = lane; i < p.n; i += group) {
    uint bits = NMS_BITS(scores, first_score + i * p.classes);
    if (!is_nan(bits) && order(bits) > p.threshold_order) keys[first + atomicAdd(count, 1u)] = nms_key(bits, i);
  }
  memoryBarrierBuffer();
  barrier();
  uint m = count;
  uint padded = 1u;
  while (padded < m) padded <<= 1;
  for (uint i = m + lane; i < padded; i += group) keys[first + i] = uvec2(0u);
  if (lane == 0u) candidates[task] = m;
  memoryBarrierBuffer();
  barrier();
  if (m > 1u) sort_keys(first, padded);
}
