#version 450
// Resize, vulkan, NHWC, FLOAT_32 and FLOAT_16 (bound as 32-bit words: one
// fp32 or two fp16 a word, low half first). The input rows and columns each
// output row and column reads, and BILINEAR's weights, come from the table
// prepare() computed on the host exactly as the cpu kernel does
// (resize/resampling.hpp): one uvec4 {first, second, weight bits, rest bits}
// per output row, then per output column.
//
// kPath 0 (a pixel's channels fill whole 16-byte vectors): an invocation
// writes 16 bytes of one output pixel's channels, each neighbour one uvec4
// load, so a work-group reads and writes whole runs of memory. kPath 1
// (whole words): one word. kPath 2 (FLOAT_16 with an odd channel count): an
// invocation writes one output word, each of its two elements on its own,
// and keeps the half of a last word past the tensor. Neighbouring output
// pixels share input pixels through the caches: one pass over memory.
//
// NEAREST copies bits (denormals and NaN payloads as they are). BILINEAR
// computes the spec's expression in the cpu kernel's order, `precise` (no
// fused multiply-add): v = rest_y * a + weight_y * c down the left and the
// right column, then rest_x * v_left + weight_x * v_right, in fp32 (FLOAT_16
// widened exactly and rounded back once, in integers: fp16_bits.glsl). The
// cpu's results bit for bit, except on drivers that flush fp32 denormals
// (lavapipe), where a denormal term or result is 0.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kType = 0u;  // 0 FLOAT_32, 1 FLOAT_16
layout(constant_id = 2) const uint kMode = 0u;  // 0 NEAREST, 1 BILINEAR
layout(constant_id = 3) const uint kPath = 0u;  // 0 16 bytes, 1 one word, 2 element by element

layout(std430, set = 0, binding = 0) readonly restrict buffer XWords { uint x_words[]; };
layout(std430, set = 0, binding = 0) readonly restrict buffer XQuads { uvec4 x_quads[]; };
layout(std430, set = 0, binding = 1) buffer YWords { uint y_words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer YQuads { uvec4 y_quads[]; };
layout(std430, set = 0, binding = 2) readonly restrict buffer Table { uvec4 table[]; };

layout(push_constant) uniform Params {
  uint height, width, channels, out_height, out_width;
  uint groups, group_shift, row_items, out_words;  // the grid (pixel_grid.glsl)
  uint out_elements;
} p;

#include "fp16_bits.glsl"

const uint kShift = kType == 0u ? 0u : 1u;  // log2(elements per word)
const uint kLanes = kPath == 0u ? 4u << kShift : kPath == 1u ? 1u << kShift : 1u;

// Output pixel `pixel`: its table entries and its image's first input pixel.
struct Source {
  uvec4 row, column;
  uint image;
};

Source source_at(uint n, uint oy, uint ox) {
  Source s;
  s.row = table[oy];
  s.column = table[p.out_height + ox];
  s.image = n * p.height * p.width;
  return s;
}

Source source_of(uint pixel) {
  uint ox = pixel % p.out_width, rest = pixel / p.out_width;
  return source_at(rest / p.out_height, rest % p.out_height, ox);
}

// Element offset of input pixel (y, x) of the source's image.
uint at(Source s, uint y, uint x) { return (s.image + y * p.width + x) * p.channels; }

float widened(uint bits) { return kType == 0u ? uintBitsToFloat(bits) : half_to_float(bits); }
uint narrowed(float v) { return kType == 0u ? floatBitsToUint(v) : float_to_half(v); }

// Lane j of a chunk of words (16 bytes, or one word in .x), as its bits.
uint lane_bits(uvec4 q, uint j) {
  if (kType == 0u) return q[j];
  return (q[j >> 1] >> (16u * (j & 1u))) & 0xffffu;
}

uint blend(Source s, uint a, uint b, uint c, uint d) {
  float wy = uintBitsToFloat(s.row.z), ry = uintBitsToFloat(s.row.w);
  float wx = uintBitsToFloat(s.column.z), rx = uintBitsToFloat(s.column.w);
  precise float left = ry * widened(a) + wy * widened(c);
  precise float right = ry * widened(b) + wy * widened(d);
  precise float r = rx * left + wx * right;
  return narrowed(r);
}

// Paths 0 and 1: kLanes channels of output pixel (n, oy, ox), from channel
// `first`.
void pixel_run(uint n, uint oy, uint ox, uint first) {
  Source s = source_at(n, oy, ox);
  uint out_word = (((n * p.out_height + oy) * p.out_width + ox) * p.channels + first) >> kShift;
  if (kMode == 0u) {
    uint from = (at(s, s.row.x, s.column.x) + first) >> kShift;
    if (kPath == 0u) y_quads[out_word >> 2] = x_quads[from >> 2];
    else y_words[out_word] = x_words[from];
    return;
  }
  uint wa = (at(s, s.row.x, s.column.x) + first) >> kShift, wb = (at(s, s.row.x, s.column.y) + first) >> kShift;
  uint wc = (at(s, s.row.y, s.column.x) + first) >> kShift, wd = (at(s, s.row.y, s.column.y) + first) >> kShift;
  uvec4 qa, qb, qc, qd;
  if (kPath == 0u) {
    qa = x_quads[wa >> 2];
    qb = x_quads[wb >> 2];
    qc = x_quads[wc >> 2];
    qd = x_quads[wd >> 2];
  } else {
    qa = uvec4(x_words[wa], 0u, 0u, 0u);
    qb = uvec4(x_words[wb], 0u, 0u, 0u);
    qc = uvec4(x_words[wc], 0u, 0u, 0u);
    qd = uvec4(x_words[wd], 0u, 0u, 0u);
  }
  uvec4 r = uvec4(0u);
  for (uint j = 0u; j < kLanes; ++j) {
    uint bits = blend(s, lane_bits(qa, j), lane_bits(qb, j), lane_bits(qc, j), lane_bits(qd, j));
    if (kType == 0u) r[j] = bits;
    else r[j >> 1] |= bits << (16u * (j & 1u));
  }
  if (kPath == 0u) y_quads[out_word >> 2] = r;
  else y_words[out_word] = r.x;
}

// Input element e's bits (FLOAT_16).
uint half_bits(uint e) { return (x_words[e >> 1] >> (16u * (e & 1u))) & 0xffffu; }

// Path 2 (FLOAT_16): output word i, element by element.
void pixel_word(uint i) {
  uint word = 0u;
  for (uint k = 0u; k < 2u; ++k) {
    uint e = 2u * i + k;
    if (e >= p.out_elements) {  // past the tensor: as it was
      word |= y_words[i] & 0xffff0000u;
      continue;
    }
    uint c = e % p.channels;
    Source s = source_of(e / p.channels);
    uint bits = kMode == 0u ? half_bits(at(s, s.row.x, s.column.x) + c)
                            : blend(s, half_bits(at(s, s.row.x, s.column.x) + c),
                                    half_bits(at(s, s.row.x, s.column.y) + c),
                                    half_bits(at(s, s.row.y, s.column.x) + c),
                                    half_bits(at(s, s.row.y, s.column.y) + c));
    word |= bits << (16u * k);
  }
  y_words[i] = word;
}

#include "pixel_grid.glsl"
