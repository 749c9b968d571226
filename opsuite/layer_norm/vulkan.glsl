// LayerNorm, vulkan: the shader text vulkan.comp (shared-memory reductions,
// any device) and vulkan_subgroup.comp (subgroup butterflies) compile.
// FLOAT_32 and FLOAT_16 (spec constant kHalf: packed two to a 32-bit word,
// widened exactly and rounded once as the host does); beta optional. The
// slices (the axes from `axis` on) are contiguous rows of n elements; each
// has a team of `members` invocations (common/slice_layout.hpp,
// team_reduce.glsl) that keeps up to kCache units (slice_units.glsl) each in
// registers, so a row of up to members * kCache units is read once.
//
// The arithmetic is opencl.cl's: the largest |x| (as integer bits) and a
// power-of-two scale s against overflowing squares; d = x s - x0 s shifted
// by the row's first element (a constant row gives beta exactly); the sums
// of d and of d^2 (exact squares: Dekker's, as Vulkan's fma may round
// twice) float-float in one pass and one tree; 1 / sqrt(var + epsilon s^2)
// refined; out = gamma ((d - mean_hi) - mean_lo) / std + beta. A row holding
// NaN or +-inf is NaN throughout.

layout(local_size_x_id = 1) in;
layout(constant_id = 2) const bool kHalf = false;
layout(constant_id = 3) const uint kCache = 8;

layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Gamma { uint gamma_words[]; };
layout(std430, set = 0, binding = 2) readonly buffer Beta { uint beta_words[]; };  // gamma again without beta
layout(std430, set = 0, binding = 3) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint rows;
  uint row_length;
  float epsilon;
  uint has_beta;
  uint members;  // invocations per row
  uint groups;   // workgroups' worth of rows (the shader loops over them)
} p;

#define OPRIG_TEAM_SUM_FF2 1
#include "float_float.glsl"
#include "fp16_atomic.glsl"
#include "fp16_bits.glsl"
#include "slice_units.glsl"
#include "team_reduce.glsl"

const uint kNaN = 0x7fc00000u;

// gamma or beta at the unit's positions (0 outside the row).
vec2 position_pair(bool of_beta, Slice s, uint u) {
  bvec2 in_slice = oprig_unit_in(s, u);
  uint k = oprig_unit_position(s, u);
  float first = 0.0, second = 0.0;
  if (in_slice.x) first = of_beta ? OPRIG_LOAD_F(beta_words, k, kHalf) : OPRIG_LOAD_F(gamma_words, k, kHalf);
  if (in_slice.y) second = of_beta ? OPRIG_LOAD_F(beta_words, k + 1u, kHalf) : OPRIG_LOAD_F(gamma_words, k + 1u, kHalf);
  return vec2(first, second);
}

void main() {
  uint lane = oprig_team_lane();
  uint members = p.members;
  uint teams = gl_WorkGroupSize.x / members;
  uint team = lane / members, member = lane % members;
  float count = float(p.row_length);

  // A grid-stride loop: its bounds are the same for the whole workgroup.
  for (uint g = gl_WorkGroupID.x; g < p.groups; g += gl_NumWorkGroups.x) {
    uint row = g * teams + team;
    Slice s = oprig_contiguous_slice(row * p.row_length, p.row_length, row < p.rows);
    uint chunk = members * kCache;
    bool cached = s.units <= chunk;
    // Elements outside the row (in its end units) read x0: their d is 0.
    float x0 = row < p.rows ? OPRIG_LOAD_F(x_words, s.first, kHalf) : 0.0;

    // The largest |x| (its bits: NaN above inf).
    vec2 v[kCache];
    uint largest = 0u;
    for (uint start = 0u; start < s.units; start += chunk) {
      for (uint j = 0u; j < kCache; ++j) {
        vec2 xv = oprig_load_unit(s, start + member + j * members, x0);
        v[j] = xv;
        largest = max(largest, max(floatBitsToUint(xv.x) & 0x7fffffffu, floatBitsToUint(xv.y) & 0x7fffffffu));
      }
    }
    int largest_bits = oprig_team_max_int(int(largest), lane, member, members, 1u);
    bool undefined = largest_bits >= 0x7f800000;  // NaN or inf: NaN throughout
    // 2^-e for |x| in [2^e, 2^(e+1)) when e > 60, so no square overflows.
    int exponent = (largest_bits >> 23) - 127;
    float scale = exponent > 60 ? oprig_pow2(max(-exponent, -126)) : 1.0;
    precise float x0s = x0 * scale;

    // The sums of d = x s - x0 s and of d^2 (each square exact as a pair).
    vec2 sum = vec2(0.0), sum2 = vec2(0.0);
    for (uint start = 0u; start < s.units; start += chunk) {
      for (uint j = 0u; j < kCache; ++j) {
        vec2 xv = cached ? v[j] : oprig_load_unit(s, start + member + j * members, x0);
        precise vec2 d = xv * scale - x0s;
        sum = oprig_ff_accumulate(sum, d.x);
        vec2 square = oprig_two_prod(d.x, d.x);
        sum2 = oprig_ff_accumulate(sum2, square.x);
        sum2.y += square.y;
        if (s.paired) {
          sum = oprig_ff_accumulate(sum, d.y);
          square = oprig_two_prod(d.y, d.y);
          sum2 = oprig_ff_accumulate(sum2, square.x);
          sum2.y += square.y;
        }
      }
    }
    vec4 sums = oprig_team_sum_ff2(vec4(sum, sum2), lane, member, members, 1u);
    // mean = x0 s + shift; variance = mean(d^2) - shift^2, both float-float:
    // the shift by x0 keeps shift^2 below n variances, so the difference
    // loses at most log2(n) of its 48 bits.
    vec2 shift = oprig_ff_div_count(sums.xy, count);
    vec2 shift_square = oprig_two_prod(shift.x, shift.x);
    shift_square.y += 2.0 * shift.x * shift.y;
    vec2 variance = oprig_ff_add(oprig_ff_div_count(sums.zw, count), -shift_square);
    if (variance.x < 0.0) variance = vec2(0.0);
    // epsilon s^2 kept normal: where it would underflow (s < 2^-60), a
    // nonzero variance is far larger, and a zero one has zero deviations.
    float inv_std = oprig_ff_rsqrt(oprig_ff_add(variance, vec2(max(p.epsilon * scale * scale, 1.1754943508222875e-38), 0.0))).x;

    for (uint start = 0u; start < s.units; start += chunk) {
      for (uint j = 0u; j < kCache; ++j) {
        uint u = start + member + j * members;
        if (u >= s.units) continue;
        vec2 out_value = vec2(uintBitsToFloat(kNaN));
        if (!undefined) {
          vec2 xv = cached ? v[j] : oprig_load_unit(s, u, x0);
          precise vec2 deviation = ((xv * scale - x0s) - shift.x) - shift.y;
          vec2 b = p.has_beta != 0u ? position_pair(true, s, u) : vec2(0.0);
          out_value = fma(deviation * inv_std, position_pair(false, s, u), b);
        }
        oprig_store_unit(s, u, out_value);
      }
    }
  }
}
