// LayerNorm, opencl: FLOAT_32, and FLOAT_16 widened exactly (vload_half),
// computed in fp32 and rounded once (vstore_half_rte); beta optional. The
// slices (the axes from `axis` on) are contiguous rows of n elements; each
// has a team of `members` work-items (common/slice_layout.hpp) that reads it
// in vector units of OPRIG_VEC elements (common/opencl/slice_vector.cl) and
// keeps up to OPRIG_CACHE units each in registers, so a row of up to
// members * OPRIG_CACHE units is read once (a longer one in each pass). The
// team reductions are common/opencl/team_reduce.cl.
//
// Statistics in fp32 made safe (the cpu kernel computes them in fp64):
// - the largest |x| first (as integer bits: NaN and inf are seen), and a
//   power-of-two scale s that brings it below 2^61 when it is larger, so the
//   squares cannot overflow (the plan's huge fill reaches 1e30);
// - d = x s - x0 s, shifted by the row's first element as the cpu kernel
//   does: a constant row has d = 0 exactly, so out = gamma 0 + beta = beta
//   exactly, and a mean far from 0 costs no precision;
// - the sums of d and d^2 (each square exact as a pair) float-float in one
//   pass (Sum2, then one tree for both); mean(d^2) - mean(d)^2 loses at
//   most log2(n) of the 48 bits, since the shift keeps mean(d)^2 below n
//   variances;
// - 1 / sqrt(var + epsilon s^2) refined to about 2^-44 (float_float.cl).
// Output gamma ((d - mean_hi) - mean_lo) / std + beta by one fma: a few ulp
// of the normalised value, well inside the plan's atol 1e-5 (NNAPI's). A row
// holding NaN or +-inf is NaN throughout, as in the reference.

#pragma OPENCL FP_CONTRACT OFF

#ifndef OPRIG_CACHE
#define OPRIG_CACHE 8
#endif

inline float layer_norm_first(global const void* x, const ulong i, const bool half_type) {
  return half_type ? vload_half(i, (global const half*)x) : ((global const float*)x)[i];
}

// `rows` rows of n elements; a group of teams, each team's work-items
// adjacent. A grid-stride loop over the groups' worth of rows (its bounds
// are the same for every work-item of a group).
inline void layer_norm_rows(global const void* x, global const void* gamma, global const void* beta,
                            global void* y, const ulong rows, const uint n, const float epsilon,
                            const int has_beta, const uint members, local int* scratch_max,
                            local float4* scratch_sum, const bool half_type) {
  const uint lane = get_local_id(0);
  const uint teams = get_local_size(0) / members;
  const uint team = lane / members, member = lane % members;
  const ulong groups = (rows + teams - 1) / teams;
  const uint chunk = members * OPRIG_CACHE;
  const float count = (float)n;

  for (ulong g = get_group_id(0); g < groups; g += get_num_groups(0)) {
    const ulong row = g * teams + team;
    const ulong first = row * n;
    const uint units = row < rows ? oprig_slice_units(first, n) : 0;
    const bool cached = units <= chunk;
    // Elements outside the row (in its end units) read x0: their d is 0.
    const float x0 = row < rows ? layer_norm_first(x, first, half_type) : 0.0f;

    // The largest |x| (its bits: NaN above inf).
    oprig_floatv v[OPRIG_CACHE];
    oprig_intv largest = 0;
    for (uint start = 0; start < units; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint u = start + member + j * members;
        const oprig_floatv xv = u < units ? oprig_load_unit(x, first, n, u, x0, half_type) : (oprig_floatv)(x0);
        v[j] = xv;
        largest = max(largest, oprig_as_intv(xv) & 0x7fffffff);
      }
    }
    const int largest_bits = oprig_team_max_int(oprig_max_of(largest), scratch_max, lane, member, members, 1);
    const bool undefined = largest_bits >= 0x7f800000;  // NaN or inf: NaN throughout
    // 2^-e for |x| in [2^e, 2^(e+1)) when e > 60, so no square overflows.
    const int exponent = (largest_bits >> 23) - 127;
    const float s = exponent > 60 ? oprig_pow2(max(-exponent, -126)) : 1.0f;
    const float x0s = x0 * s;

    // The sums of d = x s - x0 s and of d^2 (each square exact as a pair).
    oprig_floatv hi = 0.0f, lo = 0.0f, hi2 = 0.0f, lo2 = 0.0f;
    for (uint start = 0; start < units; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint u = start + member + j * members;
        const oprig_floatv xv =
            cached ? v[j] : u < units ? oprig_load_unit(x, first, n, u, x0, half_type) : (oprig_floatv)(x0);
        const oprig_floatv d = xv * s - x0s;
        const oprig_floatv sum = hi + d;
        lo += OPRIG_TWO_SUM_ERROR(hi, d, sum);
        hi = sum;
        const oprig_floatv square = d * d;
        const oprig_floatv sum2 = hi2 + square;
        lo2 += OPRIG_TWO_SUM_ERROR(hi2, square, sum2) + OPRIG_TWO_PROD_ERROR(d, d, square);
        hi2 = sum2;
      }
    }
    const float4 sums = oprig_team_sum_ff2((float4)(oprig_ff_sum_of(hi, lo), oprig_ff_sum_of(hi2, lo2)), scratch_sum,
                                           lane, member, members, 1);
    // mean = x0 s + shift; variance = mean(d^2) - shift^2, both float-float:
    // the shift by x0 keeps shift^2 below n variances, so the difference
    // loses at most log2(n) of its 48 bits.
    const float2 shift = oprig_ff_div_count(sums.xy, count);
    const float2 shift_square = oprig_two_prod(shift.x, shift.x) + (float2)(0.0f, 2.0f * shift.x * shift.y);
    float2 variance = oprig_ff_add(oprig_ff_div_count(sums.zw, count), -shift_square);
    if (variance.x < 0.0f) variance = (float2)(0.0f, 0.0f);
    // epsilon s^2 kept normal: where it would underflow (s < 2^-60), a
    // nonzero variance is far larger, and a zero one has zero deviations.
    const float2 inv_std = oprig_ff_rsqrt(oprig_ff_add(variance, (float2)(fmax(epsilon * s * s, 0x1p-126f), 0.0f)));

    for (uint start = 0; start < units; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint u = start + member + j * members;
        if (u >= units) continue;
        oprig_floatv out = (oprig_floatv)(NAN);
        if (!undefined) {
          const oprig_floatv xv = cached ? v[j] : oprig_load_unit(x, first, n, u, x0, half_type);
          const oprig_floatv deviation = ((xv * s - x0s) - shift.x) - shift.y;
          const oprig_floatv g = oprig_load_position_unit(gamma, first, n, u, 0.0f, half_type);
          const oprig_floatv b =
              has_beta ? oprig_load_position_unit(beta, first, n, u, 0.0f, half_type) : (oprig_floatv)(0.0f);
          out = fma(deviation * inv_std.x, g, b);
        }
        oprig_store_unit(y, first, n, u, out, half_type);
      }
    }
  }
}

#define LAYER_NORM_ARGS                                                                                   \
  const ulong rows, const uint n, const float epsilon, const int has_beta, const uint members,           \
      local int *scratch_max, local float4 *scratch_sum

// beta may be any buffer when has_beta is 0 (it is not read).
kernel void layer_norm_f32(global const float* x, global const float* gamma, global const float* beta,
                           global float* y, LAYER_NORM_ARGS) {
  layer_norm_rows(x, gamma, beta, y, rows, n, epsilon, has_beta, members, scratch_max, scratch_sum, false);
}
kernel void layer_norm_f16(global const half* x, global const half* gamma, global const half* beta,
                           global half* y, LAYER_NORM_ARGS) {
  layer_norm_rows(x, gamma, beta, y, rows, n, epsilon, has_beta, members, scratch_max, scratch_sum, true);
}
