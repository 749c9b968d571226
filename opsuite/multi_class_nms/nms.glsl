// What the MultiClassNms shaders share (vulkan_*.comp; the algorithm is
// described in opencl.cl): scores and box coordinates of FLOAT_32 or
// FLOAT_16 tensors bound as 32-bit words, read as fp32 bits; the sort keys as
// uvec2 (the device need not have 64-bit integers); the corners and the
// suppression test in IEEE double (the shaders are built for devices with
// shaderFloat64).
//
// Before including, a shader declares `layout(constant_id = 2) const uint
// HALF` (1: FLOAT_16).
#ifndef NMS_GLSL
#define NMS_GLSL

#include "fp16_bits.glsl"
#include "fp32_exact.glsl"

// Element i of a tensor bound as `words`, as fp32 bits (fp16 widened exactly).
#define NMS_BITS(words, i) \
  (HALF != 0u ? half_to_float_bits(((words)[(i) >> 1] >> (16u * ((i) & 1u))) & 0xffffu) : (words)[i])

// The sort key of a candidate: (score key, inverted box index), compared as
// a pair; never (0, 0), which marks "no candidate".
uvec2 nms_key(uint bits, uint box) { return uvec2(uint(order(bits)) ^ 0x80000000u, ~box); }
bool nms_less(uvec2 a, uvec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

struct Corners {
  double ymin, xmin, ymax, xmax, area;
};

// A box's sorted corners from its four coordinates' fp32 bits, widened
// exactly (fp32_exact.glsl: also where the driver flushes fp32 denormals).
Corners nms_corners(uint b0, uint b1, uint b2, uint b3, bool center_size) {
  precise double v0 = widen(b0), v1 = widen(b1), v2 = widen(b2), v3 = widen(b3);
  precise double y1 = v0, x1 = v1, y2 = v2, x2 = v3;
  if (center_size) {  // [x_center, y_center, width, height]; halving is exact
    x1 = v0 - v2 * 0.5LF;
    x2 = v0 + v2 * 0.5LF;
    y1 = v1 - v3 * 0.5LF;
    y2 = v1 + v3 * 0.5LF;
  }
  Corners c;
  c.ymin = y2 < y1 ? y2 : y1;
  c.xmin = x2 < x1 ? x2 : x1;
  c.ymax = y1 < y2 ? y2 : y1;
  c.xmax = x1 < x2 ? x2 : x1;
  precise double area = (c.ymax - c.ymin) * (c.xmax - c.xmin);
  c.area = area;
  return c;
}

// s + e == a + b exactly (Knuth's two-sum).
void nms_two_sum(double a, double b, out double s, out double e) {
  precise double sum = a + b;
  precise double bb = sum - a;
  precise double err = (a - (sum - bb)) + (b - bb);
  s = sum;
  e = err;
}

// Whether RN(intersection / uni) > t, as the reference's fp64 division
// decides, without dividing: Vulkan does not promise a correctly rounded
// fp64 division (NVIDIA's is not), only + - * (each `precise`: never
// contracted). t is a float's value, so its last bit as a double is 0 and a
// quotient halfway above it rounds down to it: RN(q) > t iff
// q > t + half_ulp (half_ulp = half the gap above t; 0 when t is 0), that is
// iff intersection - uni*t - uni*half_ulp > 0 (uni > 0). uni*t is exact as
// two products (uni split into two 26-bit halves; t has 24 bits), uni*half_ulp
// is exact (a power of two), and the sign of the four-term sum is that of the
// largest nonzero component of its exact expansion (grown by two-sums).
// Every term here stays far from fp64's denormal range: coordinates are
// fp32 values, intersections at least 2^-298.
bool nms_iou_above(double intersection, double uni, double t, double half_ulp) {
  precise double big = uni * 134217729.0LF;  // 2^27 + 1
  precise double hi = big - (big - uni);
  precise double lo = uni - hi;
  precise double p1 = hi * t, p2 = lo * t, p3 = uni * half_ulp;
  double e0, e1, e2, e3, q;
  nms_two_sum(intersection, -p1, q, e0);  // expansion (e0, q)
  double r = -p2;
  nms_two_sum(r, e0, r, e1);
  nms_two_sum(r, q, r, e2);  // (e1, e2, r)
  double s = -p3;
  nms_two_sum(s, e1, s, e0);
  nms_two_sum(s, e2, s, e1);
  nms_two_sum(s, r, s, e3);  // (e0, e1, e3, s), increasing magnitude
  if (s != 0.0LF) return s > 0.0LF;
  if (e3 != 0.0LF) return e3 > 0.0LF;
  if (e1 != 0.0LF) return e1 > 0.0LF;
  return e0 > 0.0LF;
}

// Whether a kept box suppresses a candidate: both with area, overlapping,
// intersection over union above the threshold (as the reference).
bool nms_suppresses(Corners kept, Corners c, double t, double half_ulp) {
  if (kept.area <= 0.0LF || c.area <= 0.0LF) return false;
  precise double h = (kept.ymax < c.ymax ? kept.ymax : c.ymax) - (kept.ymin < c.ymin ? c.ymin : kept.ymin);
  precise double w = (kept.xmax < c.xmax ? kept.xmax : c.xmax) - (kept.xmin < c.xmin ? c.xmin : kept.xmin);
  if (h <= 0.0LF || w <= 0.0LF) return false;
  precise double intersection = h * w;
  precise double uni = (kept.area + c.area) - intersection;
  return nms_iou_above(intersection, uni, t, half_ulp);
}

#endif
