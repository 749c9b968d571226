// The slices of the slice kernels (Softmax, LayerNorm, RMSNorm on vulkan)
// in units an invocation reads and writes at once. A slice is `elements`
// elements, element k at first + k * step. Its units are its elements,
// except for contiguous FLOAT_16 slices ("paired"): there a unit is a
// 32-bit word of two elements, so an invocation writes whole words, and only
// the words a slice shares with its neighbours (its ends) are written half
// by half with atomics (fp16_atomic.glsl). An unpaired FLOAT_16 slice
// (strided) writes every element that way. The second element of a unit
// exists only when it is paired.
//
// The including shader declares, before including this file, the buffers
// `x_words` (readonly uint[]: the input) and `y_words` (uint[]: the output)
// and the constant `kHalf` (FLOAT_16 tensors), and includes fp16_bits.glsl
// and fp16_atomic.glsl.
#ifndef OPRIG_SLICE_UNITS_GLSL
#define OPRIG_SLICE_UNITS_GLSL

struct Slice {
  uint first;
  uint step;
  uint elements;  // the slice's length
  uint units;  // 0 for a team without a slice (past the last one)
  bool paired;
};

// A contiguous slice of `elements` elements from `first`; `valid` false
// gives a slice without units.
Slice oprig_contiguous_slice(uint first, uint elements, bool valid) {
  Slice s;
  s.first = first;
  s.step = 1u;
  s.elements = elements;
  s.paired = kHalf;
  s.units = !valid ? 0u : s.paired ? ((first + elements - 1u) >> 1) - (first >> 1) + 1u : elements;
  return s;
}

// Whether the unit's two elements belong to the slice.
bvec2 oprig_unit_in(Slice s, uint u) {
  if (u >= s.units) return bvec2(false);
  if (!s.paired) return bvec2(true, false);
  uint e0 = ((s.first >> 1) + u) * 2u;
  return bvec2(e0 >= s.first, e0 + 1u < s.first + s.elements);
}

// The position in the slice (k) of the unit's first element; the second is
// at k + 1. For a paired unit at the slice's start, k is -1 (as a uint).
uint oprig_unit_position(Slice s, uint u) {
  return s.paired ? ((s.first >> 1) + u) * 2u - s.first : u;
}

// The unit's elements as floats, `fill` for those outside the slice.
vec2 oprig_load_unit(Slice s, uint u, float fill) {
  bvec2 in_slice = oprig_unit_in(s, u);
  if (s.paired) {
    uint word = in_slice.x || in_slice.y ? x_words[(s.first >> 1) + u] : 0u;
    return vec2(in_slice.x ? half_to_float(word & 0xffffu) : fill, in_slice.y ? half_to_float(word >> 16) : fill);
  }
  if (!in_slice.x) return vec2(fill);
  uint e = s.first + u * s.step;
  return vec2(kHalf ? OPRIG_LOAD_F16(x_words, e) : uintBitsToFloat(x_words[e]), fill);
}

// Stores the unit's elements that belong to the slice (FLOAT_16 rounded to
// nearest even once, as the host does).
void oprig_store_unit(Slice s, uint u, vec2 v) {
  bvec2 in_slice = oprig_unit_in(s, u);
  if (s.paired) {
    uint w = (s.first >> 1) + u;
    uint lo = float_to_half(v.x), hi = float_to_half(v.y);
    if (in_slice.x && in_slice.y) y_words[w] = lo | (hi << 16);
    else if (in_slice.x) OPRIG_STORE_F16_ALONE(y_words, w * 2u, lo)
    else if (in_slice.y) OPRIG_STORE_F16_ALONE(y_words, w * 2u + 1u, hi)
    return;
  }
  if (!in_slice.x) return;
  uint e = s.first + u * s.step;
  if (kHalf) OPRIG_STORE_F16_ALONE(y_words, e, float_to_half(v.x))
  else y_words[e] = floatBitsToUint(v.x);
}

#endif
