#version 450
// MultiClassNms, vulkan, step 4 (opencl.cl's nms_gather): detection_boxes,
// detection_scores or one detection_features, [batch, depth, row] elements
// copied bit for bit from the input by the selection, 0 past a batch item's
// count. One invocation per 32-bit word of the output: one FLOAT_32 element
// or two FLOAT_16 ones (the last word keeps its bits past the tensor).
// Integer arithmetic only.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint HALF = 0u;

layout(std430, set = 0, binding = 0) readonly buffer Source { uint source[]; };
// Per batch item its count, then per batch item `slots` pairs (box, class) in detection order.
layout(std430, set = 0, binding = 1) readonly buffer Selection { uint selection[]; };
layout(std430, set = 0, binding = 2) buffer Out { uint out_words[]; };

layout(push_constant) uniform Params {
  uint batch, depth, row, n, classes, slots, by_class, total;  // total: output elements
} p;

// Element e of the output as its 16 or 32 bits.
uint element(uint e) {
  uint per_item = p.depth * p.row;
  uint b = e / per_item, slot = (e % per_item) / p.row, within = e % p.row;
  if (slot >= selection[b]) return 0u;
  uint at = p.batch + 2u * (b * p.slots + slot);
  uint box = b * p.n + selection[at];
  // by_class: detection_scores, element (box, class) of [batch, n, classes].
  uint i = p.by_class != 0u ? box * p.classes + selection[at + 1u] : box * p.row + within;
  return HALF != 0u ? (source[i >> 1] >> (16u * (i & 1u))) & 0xffffu : source[i];
}

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint words = HALF != 0u ? (p.total + 1u) / 2u : p.total;
  for (uint w = gl_GlobalInvocationID.x; w < words; w += stride) {
    if (HALF == 0u) {
      out_words[w] = element(w);
    } else {
      uint low = element(2u * w);
      out_words[w] = 2u * w + 1u < p.total ? low | (element(2u * w + 1u) << 16) : low | (out_words[w] & 0xffff0000u);
    }
  }
}
