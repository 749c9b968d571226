#version 450
// MultiClassNms, vulkan, step 2 (opencl.cl's nms_suppress): a workgroup per
// (batch item, class) walks its sorted candidates a chunk of one workgroup
// size at a time: each invocation tests its candidate against the boxes kept
// so far, the group fills the chunk's bitmask (row r: the later candidates r
// suppresses), one invocation walks the rows in order keeping a candidate
// unless its bit is set and OR-ing its row in. Stops at `limit` kept boxes.
// The workgroup size is a power of two >= 32.
#extension GL_GOOGLE_include_directive : require

layout(local_size_x_id = 1) in;
layout(constant_id = 2) const uint HALF = 0u;

#include "nms.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Boxes { uint boxes[]; };
layout(std430, set = 0, binding = 1) readonly buffer Keys { uvec2 keys[]; };
layout(std430, set = 0, binding = 2) readonly buffer Candidates { uint candidates[]; };
// Per task `limit` pairs (box, score key) in the order kept, then the kept count of every task.
layout(std430, set = 0, binding = 3) coherent buffer Kept { uint kept[]; };
// Per task `limit` x 5 doubles: the kept boxes' corners and areas.
layout(std430, set = 0, binding = 4) coherent buffer KeptCorners { double kept_corners[]; };

layout(push_constant) uniform Params {
  double iou_threshold, half_ulp;  // see nms_iou_above
  uint n, classes, segment, limit, tasks, center_size;
} p;

const uint GROUP = gl_WorkGroupSize.x;
const uint WORDS = gl_WorkGroupSize.x / 32u;

shared double corners[GROUP * 5u];
shared uint chunk_box[GROUP], chunk_key[GROUP], flags[GROUP];
shared uint mask[GROUP * WORDS];
shared uint removed[WORDS];
shared uint kept_so_far;

Corners shared_corners(uint r) {
  return Corners(corners[5u * r], corners[5u * r + 1u], corners[5u * r + 2u], corners[5u * r + 3u],
                 corners[5u * r + 4u]);
}

void main() {
  uint task = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (task >= p.tasks) return;  // the whole workgroup
  uint lane = gl_LocalInvocationID.x;
  uint first_box = (task / p.classes) * p.n;
  uint m = candidates[task];
  uint first_key = task * p.segment, first_kept = task * p.limit;
  if (lane == 0u) kept_so_far = 0u;
  barrier();
  for (uint base = 0u; base < m; base += GROUP) {
    uint total = kept_so_far;
    if (total >= p.limit) break;  // the same value for the whole group
    uint len = min(GROUP, m - base);
    uint flag = 1u;
    if (lane < len) {
      uvec2 key = keys[first_key + base + lane];
      uint box = ~key.y, at = 4u * (first_box + box);
      Corners me = nms_corners(NMS_BITS(boxes, at), NMS_BITS(boxes, at + 1u), NMS_BITS(boxes, at + 2u),
                               NMS_BITS(boxes, at + 3u), p.center_size != 0u);
      corners[5u * lane] = me.ymin;
      corners[5u * lane + 1u] = me.xmin;
      corners[5u * lane + 2u] = me.ymax;
      corners[5u * lane + 3u] = me.xmax;
      corners[5u * lane + 4u] = me.area;
      chunk_box[lane] = box;
      chunk_key[lane] = key.x;
      // A box without area is never suppressed; one the kept boxes suppress
      // neither keeps nor suppresses.
      flag = 0u;
      if (me.area > 0.0LF)
        for (uint j = 0u; j < total; ++j) {
          uint at_kept = 5u * (first_kept + j);
          Corners k = Corners(kept_corners[at_kept], kept_corners[at_kept + 1u], kept_corners[at_kept + 2u],
                              kept_corners[at_kept + 3u], kept_corners[at_kept + 4u]);
          if (nms_suppresses(k, me, p.iou_threshold, p.half_ulp)) {
            flag = 1u;
            break;
          }
        }
    }
    flags[lane] = flag;
    barrier();
    // Word w of row r: the candidates 32w .. 32w+31 after r that r suppresses.
    for (uint t = lane; t < len * WORDS; t += GROUP) {
      uint r = t / WORDS, w = t % WORDS, bits = 0u;
      if (flags[r] == 0u && 32u * w + 31u > r) {
        Corners a = shared_corners(r);
        for (uint q = 0u; q < 32u; ++q) {
          uint col = 32u * w + q;
          if (col > r && col < len && flags[col] == 0u &&
              nms_suppresses(a, shared_corners(col), p.iou_threshold, p.half_ulp))
            bits |= 1u << q;
        }
      }
      mask[t] = bits;
    }
    barrier();
    if (lane == 0u) {
      for (uint w = 0u; w < WORDS; ++w) removed[w] = 0u;
      uint count = total;
      for (uint r = 0u; r < len && count < p.limit; ++r) {
        if (flags[r] != 0u || ((removed[r / 32u] >> (r % 32u)) & 1u) != 0u) continue;
        kept[2u * (first_kept + count)] = chunk_box[r];
        kept[2u * (first_kept + count) + 1u] = chunk_key[r];
        for (uint e = 0u; e < 5u; ++e) kept_corners[5u * (first_kept + count) + e] = corners[5u * r + e];
        for (uint w = r / 32u; w < WORDS; ++w) removed[w] |= mask[r * WORDS + w];
        ++count;
      }
      kept_so_far = count;
    }
    memoryBarrierBuffer();
    barrier();
  }
  if (lane == 0u) kept[2u * p.tasks * p.limit + task] = kept_so_far;
}
