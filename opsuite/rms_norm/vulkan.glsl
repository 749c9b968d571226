// RMSNorm, vulkan: the shader text vulkan.comp (shared-memory reductions,
// any device) and vulkan_subgroup.comp (subgroup butterflies) compile.
// y = x / sqrt(mean(x^2) + epsilon) * weight along the last axis; FLOAT_32
// and FLOAT_16 (spec constant kHalf: packed two to a 32-bit word, widened
// exactly and rounded once as the host does). Each row has a team of
// `members` invocations (common/slice_layout.hpp, team_reduce.glsl) that
// keeps up to kCache units (slice_units.glsl) each in registers, so a row of
// up to members * kCache units is read once.
//
// The arithmetic is opencl.cl's (0.5 ulp plus about 2^-40): the largest |x|
// and a power-of-two scale s = 2^k when it is beyond 2^+-60 (k at most
// `max_up`, from epsilon); each square exact as a pair, summed float-float;
// r = 1 / sqrt(mean + epsilon s^2) refined; r w as a pair; y = (x s) (r w)
// rounded once. The exact products are Dekker's (float_float.glsl), since
// Vulkan lets fma round twice. A row holding +-inf gives 0 except NaN at
// the infinities, as the reference does; NaN makes the row NaN.

layout(local_size_x_id = 1) in;
layout(constant_id = 2) const bool kHalf = false;
layout(constant_id = 3) const uint kCache = 8;

layout(std430, set = 0, binding = 0) readonly buffer X { uint x_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer Weight { uint weight_words[]; };
layout(std430, set = 0, binding = 2) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint rows;
  uint row_length;
  float epsilon;
  int max_up;    // the largest scale-up exponent (rms_norm/device_scale.hpp)
  uint members;  // invocations per row
  uint groups;   // workgroups' worth of rows (the shader loops over them)
} p;

#include "float_float.glsl"
#include "fp16_atomic.glsl"
#include "fp16_bits.glsl"
#include "slice_units.glsl"
#include "team_reduce.glsl"

// (x s) (r w) rounded once, r = r.x + r.y.
float scaled_output(float xs, vec2 r, float w) {
  vec2 rw = oprig_two_prod(r.x, w);
  precise float rw_lo = rw.y + r.y * w;
  vec2 product = oprig_two_prod(xs, rw.x);
  precise float y = product.x + (product.y + xs * rw_lo);
  return y;
}

void main() {
  uint lane = oprig_team_lane();
  uint members = p.members;
  uint teams = gl_WorkGroupSize.x / members;
  uint team = lane / members, member = lane % members;

  // A grid-stride loop: its bounds are the same for the whole workgroup.
  for (uint g = gl_WorkGroupID.x; g < p.groups; g += gl_NumWorkGroups.x) {
    uint row = g * teams + team;
    Slice s = oprig_contiguous_slice(row * p.row_length, p.row_length, row < p.rows);
    uint chunk = members * kCache;
    bool cached = s.units <= chunk;

    // The largest |x| (its bits: NaN above inf). Outside the row x reads 0.
    vec2 v[kCache];
    uint largest = 0u;
    for (uint start = 0u; start < s.units; start += chunk) {
      for (uint j = 0u; j < kCache; ++j) {
        vec2 xv = oprig_load_unit(s, start + member + j * members, 0.0);
        v[j] = xv;
        largest = max(largest, max(floatBitsToUint(xv.x) & 0x7fffffffu, floatBitsToUint(xv.y) & 0x7fffffffu));
      }
    }
    int largest_bits = oprig_team_max_int(int(largest), lane, member, members, 1u);
    int exponent = (largest_bits >> 23) - 127;  // |x| < 2^(exponent + 1)
    int k = exponent > 60 ? max(-exponent, -126) : exponent < -60 && largest_bits != 0 ? min(-exponent, p.max_up) : 0;
    float scale = oprig_pow2(k);

    // The sum of (x s)^2, each square exact as a pair.
    vec2 sum = vec2(0.0);
    for (uint start = 0u; start < s.units; start += chunk) {
      for (uint j = 0u; j < kCache; ++j) {
        vec2 xs = (cached ? v[j] : oprig_load_unit(s, start + member + j * members, 0.0)) * scale;
        vec2 square = oprig_two_prod(xs.x, xs.x);
        sum = oprig_ff_accumulate(sum, square.x);
        sum.y += square.y;
        if (s.paired) {
          square = oprig_two_prod(xs.y, xs.y);
          sum = oprig_ff_accumulate(sum, square.x);
          sum.y += square.y;
        }
      }
    }
    vec2 squares = oprig_team_sum_ff(sum, lane, member, members, 1u);
    vec2 mean = oprig_ff_add(oprig_ff_div_count(squares, float(p.row_length)), vec2(p.epsilon * scale * scale, 0.0));
    // An infinite |x|: r = 1 / sqrt(inf) = 0 exactly.
    vec2 r = largest_bits == 0x7f800000 ? vec2(0.0) : oprig_ff_rsqrt(mean);

    for (uint start = 0u; start < s.units; start += chunk) {
      for (uint j = 0u; j < kCache; ++j) {
        uint u = start + member + j * members;
        if (u >= s.units) continue;
        vec2 xs = (cached ? v[j] : oprig_load_unit(s, u, 0.0)) * scale;
        bvec2 in_slice = oprig_unit_in(s, u);
        uint position = oprig_unit_position(s, u);
        vec2 y = vec2(0.0);
        if (in_slice.x) y.x = scaled_output(xs.x, r, OPRIG_LOAD_F(weight_words, position, kHalf));
        if (in_slice.y) y.y = scaled_output(xs.y, r, OPRIG_LOAD_F(weight_words, position + 1u, kHalf));
        oprig_store_unit(s, u, y);
      }
    }
  }
}
