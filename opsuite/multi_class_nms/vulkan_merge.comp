#version 450
// MultiClassNms, vulkan, step 3 (opencl.cl's nms_merge): a workgroup per
// batch item cuts its classes' kept lists (each in the merged order already)
// to max_detections by bisecting the score key, places every selected
// detection by binary searches in the other classes' lists (equal keys:
// lower class first), and writes detection_classes, num_detections and the
// selection the gathers read. Integer arithmetic only.

layout(local_size_x_id = 1) in;

// Per task `limit` pairs (box, score key), then the kept count of every task.
layout(std430, set = 0, binding = 0) readonly buffer Kept { uint kept[]; };
// Per batch item and class: above the cut, equal to it, selected, first in class-major order.
layout(std430, set = 0, binding = 1) coherent buffer ClassScratch { uint per_class[]; };
// Per batch item its count, then per batch item `slots` pairs (box, class) in detection order.
layout(std430, set = 0, binding = 2) writeonly buffer Selection { uint selection[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Classes { int out_classes[]; };
layout(std430, set = 0, binding = 4) writeonly buffer Count { int out_count[]; };

layout(push_constant) uniform Params {
  uint batch, classes, limit, slots, depth;
} p;

shared uint sum;

// The group's sum of one uint per invocation (order-free: integers).
uint group_sum(uint v) {
  if (gl_LocalInvocationID.x == 0u) sum = 0u;
  barrier();
  if (v != 0u) atomicAdd(sum, v);
  barrier();
  uint result = sum;
  barrier();
  return result;
}

// How many of the first `count` keys of list (task) are >= s (the list is highest first).
uint at_least(uint task, uint count, uint s) {
  uint lo = 0u, hi = count, first = 2u * task * p.limit;
  while (lo < hi) {
    uint mid = lo + (hi - lo) / 2u;
    if (kept[first + 2u * mid + 1u] >= s)
      lo = mid + 1u;
    else
      hi = mid;
  }
  return lo;
}

void main() {
  uint b = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (b >= p.batch) return;  // the whole workgroup
  uint lane = gl_LocalInvocationID.x, group = gl_WorkGroupSize.x;
  uint task0 = b * p.classes, counts = 2u * p.batch * p.classes * p.limit + task0, first_class = 4u * task0;
  uint mine = 0u;
  for (uint c = lane; c < p.classes; c += group) mine += kept[counts + c];
  uint total = group_sum(mine);
  uint selected = min(total, p.slots);
  // The cut: the highest score key s with at least `selected` kept keys >= s.
  uint lo = 0u, hi = 0xffffffffu;
  if (total > selected)
    while (lo < hi) {
      uint mid = lo + (hi - lo) / 2u + ((hi - lo) & 1u);
      mine = 0u;
      for (uint c = lane; c < p.classes; c += group) mine += at_least(task0 + c, kept[counts + c], mid);
      if (group_sum(mine) >= selected)
        lo = mid;
      else
        hi = mid - 1u;
    }
  for (uint c = lane; c < p.classes; c += group) {
    uint count = kept[counts + c];
    uint above = total > selected ? (lo == 0xffffffffu ? 0u : at_least(task0 + c, count, lo + 1u)) : count;
    per_class[first_class + 4u * c] = above;
    per_class[first_class + 4u * c + 1u] = total > selected ? at_least(task0 + c, count, lo) - above : 0u;
  }
  memoryBarrierBuffer();
  barrier();
  // Keys equal to the cut go by class: a walk over the classes.
  if (lane == 0u) {
    uint need = selected;
    for (uint c = 0u; c < p.classes; ++c) need -= per_class[first_class + 4u * c];
    uint first = 0u;
    for (uint c = 0u; c < p.classes; ++c) {
      uint ties = min(per_class[first_class + 4u * c + 1u], need);
      need -= ties;
      per_class[first_class + 4u * c + 2u] = per_class[first_class + 4u * c] + ties;
      per_class[first_class + 4u * c + 3u] = first;
      first += per_class[first_class + 4u * c + 2u];
    }
  }
  memoryBarrierBuffer();
  barrier();
  // Detection f of the class-major order: its class by binary search, its
  // place by the other classes' keys before it.
  uint first_slot = p.batch + b * p.slots * 2u;
  for (uint f = lane; f < selected; f += group) {
    uint c_lo = 0u, c_hi = p.classes - 1u;
    while (c_lo < c_hi) {
      uint mid = c_lo + (c_hi - c_lo + 1u) / 2u;
      if (per_class[first_class + 4u * mid + 3u] <= f)
        c_lo = mid;
      else
        c_hi = mid - 1u;
    }
    uint c = c_lo, j = f - per_class[first_class + 4u * c + 3u];
    uint at = 2u * ((task0 + c) * p.limit + j);
    uint box = kept[at], key = kept[at + 1u];
    uint place = j;
    for (uint o = 0u; o < p.classes; ++o)
      if (o != c)  // key + 1: a key is never 0xffffffff (NaN)
        place += at_least(task0 + o, per_class[first_class + 4u * o + 2u], o < c ? key : key + 1u);
    selection[first_slot + 2u * place] = box;
    selection[first_slot + 2u * place + 1u] = c;
    if (place < p.depth) out_classes[b * p.depth + place] = int(c);
  }
  for (uint r = selected + lane; r < p.depth; r += group) out_classes[b * p.depth + r] = -1;
  if (lane == 0u) {
    out_count[b] = int(selected);
    selection[b] = selected;
  }
}
