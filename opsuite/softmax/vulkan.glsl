// Softmax, vulkan: the shader text vulkan.comp (shared-memory reductions,
// any device) and vulkan_subgroup.comp (subgroup butterflies, devices with
// subgroup shuffles) compile. FLOAT_32 and FLOAT_16 (spec constant kHalf:
// packed two to a 32-bit word, widened exactly and rounded once as the host
// does, fp16_bits.glsl); any axis.
//
// The tensor is [outer, length, inner]; a slice (o, *, i) has a team of
// `members` invocations (common/slice_layout.hpp, team_reduce.glsl): the
// slice's maximum as ordered integers (no NaN is lost to a driver's max),
// exp(beta (x - max)) with a float-float sum, then the products with
// 1 / sum. Each invocation keeps kCache of its slice's units in registers,
// so a slice of up to members * kCache units is read once; a longer one is
// read in each pass. A unit is an element, or for contiguous FLOAT_16 slices
// a word of two (slice_units.glsl).
//
// The arithmetic is opencl.cl's (the cpu kernel's): x - max as an exact
// pair, beta times it with its product error, exp by Cody-Waite reduction
// and the degree-6 polynomial (1.1 x 2^-24), the exponentials kept as e 2^64
// (normal for every e >= 2^-150: nothing is lost where the driver flushes
// denormals, as lavapipe does), a float-float sum, its reciprocal refined,
// and a result in the fp32 denormal range rounded from e 2^64 (1 / sum)
// 2^149 to an integer count of 2^-149, so the spec's denormal results come
// out on every driver. A slice holding NaN or +inf, or only -inf, is NaN.

layout(local_size_x_id = 1) in;
layout(constant_id = 2) const bool kHalf = false;
layout(constant_id = 3) const uint kCache = 8;

layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint outer;    // slices are (o, *, i): o < outer
  uint slice_length;  // elements per slice
  uint inner;    // i < inner; elements of a slice are inner apart
  float beta;
  uint members;  // invocations per slice
  uint strided;  // inner > 1: teams interleaved
  uint groups;   // workgroups' worth of slices (the shader loops over them)
} p;

#include "float_float.glsl"
#include "fp16_atomic.glsl"
#include "fp16_bits.glsl"
#include "slice_units.glsl"
#include "team_reduce.glsl"

const float kQ0 = 0.5, kQ1 = 0.166665748, kQ2 = 0.0416667275, kQ3 = 0.00836363155, kQ4 = 0.00139096123;
const float kLog2e = 1.44269504;
const float kLn2Hi = 0.693145751953125;  // 15 significant bits: n kLn2Hi is exact for |n| < 512
const float kLn2Lo = 1.42860677e-06;
const float kExpFloor = -104.0;  // exp(t) < 2^-150 below: rounds to 0
const uint kPlusInf = 0x7f800000u, kMinusInf = 0xff800000u, kNaN = 0x7fc00000u;

// exp(beta (x - m)) 2^64 given -m, for x <= m; 0 where exp(beta (x - m)) < 2^-150.
// (beta < 2^-100 with |x - m| > 2^115 would overflow the product's split.)
float exp_scaled(float x, float minus_m) {
  vec2 d = oprig_two_sum(x, minus_m);  // x - m = d.x + d.y
  float t = d.x, t_err = d.y;
  if (p.beta != 1.0) {
    vec2 prod = oprig_two_prod(p.beta, d.x);
    t = prod.x;
    t_err = prod.y + p.beta * d.y;
  }
  if (!(t >= kExpFloor)) return 0.0;  // also x = -inf, whose t_err is NaN
  float n = roundEven(t * kLog2e);
  precise float r = ((t - n * kLn2Hi) - n * kLn2Lo) + t_err;
  float q = fma(kQ4, r, kQ3);
  q = fma(q, r, kQ2);
  q = fma(q, r, kQ1);
  q = fma(q, r, kQ0);
  float e = fma(fma(q, r, 1.0), r, 1.0);
  return e * oprig_pow2(int(n) + 64);  // n in [-150, 0]
}

// e / sum from e 2^64 and r = 2^64 / sum, rounded once (the product's
// error by Dekker: fma may round twice); a result below 2^-126 is rounded
// from e r.x 2^149 to an integer count of 2^-149.
float output_of(float e_scaled, vec2 r, float denormal_scale) {
  vec2 product = oprig_two_prod(e_scaled, r.x);
  precise float y = product.x + (product.y + e_scaled * r.y);
  if (y >= 1.1754943508222875e-38 || e_scaled == 0.0) return y;
  return uintBitsToFloat(uint(roundEven(e_scaled * denormal_scale)));
}

// NaN and +inf count as +inf: either makes the slice NaN.
int key_of(float x) {
  uint bits = floatBitsToUint(x);
  return (bits & 0x7fffffffu) > kPlusInf ? oprig_float_order(kPlusInf) : oprig_float_order(bits);
}

void main() {
  uint lane = oprig_team_lane();
  uint members = p.members;
  uint teams = gl_WorkGroupSize.x / members;
  bool strided = p.strided != 0u;
  uint team = strided ? lane % teams : lane / members;
  uint member = strided ? lane / teams : lane % members;
  uint stride = strided ? teams : 1u;
  uint blocks = strided ? (p.inner + teams - 1u) / teams : 1u;
  int minus_inf = oprig_float_order(kMinusInf);

  // A grid-stride loop: its bounds are the same for the whole workgroup.
  for (uint g = gl_WorkGroupID.x; g < p.groups; g += gl_NumWorkGroups.x) {
    Slice s;
    if (strided) {
      uint o = g / blocks, i = (g % blocks) * teams + team;
      s.first = o * p.slice_length * p.inner + i;
      s.step = p.inner;
      s.elements = p.slice_length;
      s.units = i < p.inner ? p.slice_length : 0u;
      s.paired = false;
    } else {
      uint slice = g * teams + team;
      s = oprig_contiguous_slice(slice * p.slice_length, p.slice_length, slice < p.outer);
    }
    uint chunk = members * kCache;
    bool cached = s.units <= chunk;

    vec2 v[kCache];
    int key = minus_inf;
    for (uint start = 0u; start < s.units; start += chunk) {
      for (uint j = 0u; j < kCache; ++j) {
        vec2 xv = oprig_load_unit(s, start + member + j * members, uintBitsToFloat(kMinusInf));
        v[j] = xv;
        key = max(key, max(key_of(xv.x), key_of(xv.y)));
      }
    }
    key = oprig_team_max_int(key, lane, member, members, stride);
    bool undefined = key == oprig_float_order(kPlusInf) || key == minus_inf;
    float minus_m = undefined ? 0.0 : -uintBitsToFloat(oprig_bits_of_order(key));

    vec2 sum = vec2(0.0);
    for (uint start = 0u; start < s.units; start += chunk) {
      for (uint j = 0u; j < kCache; ++j) {
        uint u = start + member + j * members;
        bvec2 in_slice = oprig_unit_in(s, u);
        vec2 xv = cached ? v[j] : oprig_load_unit(s, u, uintBitsToFloat(kMinusInf));
        vec2 e = vec2(in_slice.x && !undefined ? exp_scaled(xv.x, minus_m) : 0.0,
                      in_slice.y && !undefined ? exp_scaled(xv.y, minus_m) : 0.0);
        v[j] = e;
        sum = oprig_ff_accumulate(sum, e.x);
        if (s.paired) sum = oprig_ff_accumulate(sum, e.y);
      }
    }
    sum = oprig_team_sum_ff(sum, lane, member, members, stride);
    // sum >= 2^64 (the maximum's term), so 1 / sum is a normal float.
    vec2 r = oprig_ff_reciprocal(sum);
    // r.x 2^149 in two exact steps (precise: folding the constants would overflow).
    precise float denormal_scale = (r.x * oprig_pow2(100)) * oprig_pow2(49);

    for (uint start = 0u; start < s.units; start += chunk) {
      for (uint j = 0u; j < kCache; ++j) {
        uint u = start + member + j * members;
        if (u >= s.units) continue;
        vec2 out_value = vec2(uintBitsToFloat(kNaN));
        if (!undefined) {
          vec2 e = v[j];
          if (!cached) {
            vec2 xv = oprig_load_unit(s, u, uintBitsToFloat(kMinusInf));
            bvec2 in_slice = oprig_unit_in(s, u);
            e = vec2(in_slice.x ? exp_scaled(xv.x, minus_m) : 0.0, in_slice.y ? exp_scaled(xv.y, minus_m) : 0.0);
          }
          out_value = vec2(output_of(e.x, r, denormal_scale), output_of(e.y, r, denormal_scale));
        }
        oprig_store_unit(s, u, out_value);
      }
    }
  }
}
