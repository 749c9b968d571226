#version 450
// MultiClassNms, vulkan, step 2 (opencl.cl's nms_suppress): a workgroup per
// (batch item, class) walks its sorted candidates a chunk of up to one
// workgroup size at a time: each invocation tests its candidate against the
// boxes kept so far, the group fills the chunk's bitmask (row r: the later
// candidates r suppresses), one invocation walks the rows still in the
// running in order, keeping each and OR-ing its row into the removed set.
// Stops at `limit` kept boxes. The workgroup size is a power of two >= 32.
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
shared uint chunk_box[GROUP], chunk_key[GROUP];
shared uint mask[GROUP * WORDS];
// Rows out of the running (suppressed by a kept box, or past the chunk), a
// bit each; the walk's removed set.
shared uint out_of_running[WORDS], removed[WORDS];
shared uint kept_so_far, chunk;

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
  // The chunk: about as many candidates as should give the boxes still
  // wanted, at the last chunk's rate of candidates the kept boxes left in the
  // running (at first all), in whole mask words: the bitmask costs len^2 / 2
  // tests, wasted past the limit, and each chunk a walk and three barriers.
  if (lane == 0u) {
    kept_so_far = 0u;
    chunk = min(GROUP, max(32u, (min(p.limit, GROUP) + 31u) & ~31u));
  }
  if (lane < WORDS) out_of_running[lane] = 0u;
  barrier();
  for (uint base = 0u; base < m;) {
    uint total = kept_so_far;
    if (total >= p.limit) break;  // the same value for the whole group
    uint len = min(chunk, m - base), used_words = (len + 31u) / 32u;
    bool out_of_it = true;
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
      out_of_it = false;
      if (me.area > 0.0LF)
        for (uint j = 0u; j < total && !out_of_it; ++j) {
          uint at_kept = 5u * (first_kept + j);
          Corners k = Corners(kept_corners[at_kept], kept_corners[at_kept + 1u], kept_corners[at_kept + 2u],
                              kept_corners[at_kept + 3u], kept_corners[at_kept + 4u]);
          out_of_it = nms_suppresses(k, me, p.iou_threshold, p.half_ulp);
        }
    }
    if (out_of_it) atomicOr(out_of_running[lane / 32u], 1u << (lane % 32u));  // order-free
    barrier();
    // Word w of row r: the candidates 32w .. 32w+31 after r that r suppresses.
    for (uint t = lane; t < len * used_words; t += GROUP) {
      uint r = t / used_words, w = t % used_words, bits = 0u;
      if (((out_of_running[r / 32u] >> (r % 32u)) & 1u) == 0u && 32u * w + 31u > r) {
        Corners a = shared_corners(r);
        uint live = ~out_of_running[w];
        for (uint q = 0u; q < 32u; ++q) {
          uint col = 32u * w + q;
          if (col > r && ((live >> q) & 1u) != 0u && nms_suppresses(a, shared_corners(col), p.iou_threshold, p.half_ulp))
            bits |= 1u << q;
        }
      }
      mask[r * WORDS + w] = bits;
    }
    barrier();
    // The walk, over the rows still in the running only: the lowest live bit
    // is kept, its row's bits leave the running.
    if (lane == 0u) {
      uint running = 0u;
      for (uint w = 0u; w < used_words; ++w) {
        removed[w] = out_of_running[w];
        running += uint(bitCount(~removed[w]));
      }
      for (uint w = 0u; w < WORDS; ++w) out_of_running[w] = 0u;  // for the next chunk
      uint count = total;
      for (uint w = 0u; w < used_words && count < p.limit; ++w) {
        uint live = ~removed[w];
        while (live != 0u && count < p.limit) {
          uint q = uint(findLSB(live)), r = 32u * w + q;
          kept[2u * (first_kept + count)] = chunk_box[r];
          kept[2u * (first_kept + count) + 1u] = chunk_key[r];
          for (uint e = 0u; e < 5u; ++e) kept_corners[5u * (first_kept + count) + e] = corners[5u * r + e];
          ++count;
          live &= ~(mask[r * WORDS + w] | (1u << q));
          for (uint v = w + 1u; v < used_words; ++v) removed[v] |= mask[r * WORDS + v];
        }
      }
      kept_so_far = count;
      uint need = p.limit - count;
      uint want = running == 0u || need >= GROUP ? GROUP : (need * len + running - 1u) / running;
      chunk = min(GROUP, max(32u, (want + 31u) & ~31u));
    }
    memoryBarrierBuffer();
    barrier();
    base += len;
  }
  if (lane == 0u) kept[2u * p.tasks * p.limit + task] = kept_so_far;
}
