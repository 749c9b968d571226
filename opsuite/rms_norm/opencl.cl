// RMSNorm, opencl: y = x / sqrt(mean(x^2) + epsilon) * weight along the
// last axis; FLOAT_32, and FLOAT_16 widened exactly (vload_half), computed
// in fp32 and rounded once (vstore_half_rte). Each row of n elements has a
// team of `members` work-items (common/slice_layout.hpp) that reads it in
// vector units of OPRIG_VEC elements (common/opencl/slice_vector.cl) and
// keeps up to OPRIG_CACHE units each in registers, so a row of up to
// members * OPRIG_CACHE units is read once (a longer one in each pass). The
// team reductions are common/opencl/team_reduce.cl.
//
// The cpu kernel's result (within 0.5 ulp plus about 2^-40, plan: 1 ulp)
// without fp64:
// - the largest |x| first, and a power-of-two scale s = 2^k that brings it
//   near 1 when it is beyond 2^+-60, so the squares neither overflow (the
//   plan's huge fill) nor underflow; k is at most `max_up`, which the host
//   derives from epsilon so that epsilon s^2 stays finite;
// - each square exact as a pair (fma), summed float-float (Sum2, then the
//   team's tree), divided by n and epsilon s^2 added in float-float;
// - r = 1 / sqrt(...) to about 2^-44 (float_float.cl), r w as a pair, and
//   y = (x s) (r w) rounded once by fma.
// A row holding +-inf gives 0 (x r = x 0) except NaN at the infinities, as
// the reference does; NaN makes the row NaN.

#pragma OPENCL FP_CONTRACT OFF

#ifndef OPRIG_CACHE
#define OPRIG_CACHE 8
#endif

// `rows` rows of n elements; a group of teams, each team's work-items
// adjacent. A grid-stride loop over the groups' worth of rows (its bounds
// are the same for every work-item of a group).
inline void rms_norm_rows(global const void* x, global const void* weight, global void* y, const ulong rows,
                          const uint n, const float epsilon, const int max_up, const uint members,
                          local int* scratch_max, local float2* scratch_sum, const bool half_type) {
  const uint lane = get_local_id(0);
  const uint teams = get_local_size(0) / members;
  const uint team = lane / members, member = lane % members;
  const ulong groups = (rows + teams - 1) / teams;
  const uint chunk = members * OPRIG_CACHE;

  for (ulong g = get_group_id(0); g < groups; g += get_num_groups(0)) {
    const ulong row = g * teams + team;
    const ulong first = row * n;
    const uint units = row < rows ? oprig_slice_units(first, n) : 0;
    const bool cached = units <= chunk;

    // The largest |x| (its bits: NaN above inf). Outside the row x reads 0.
    oprig_floatv v[OPRIG_CACHE];
    oprig_intv largest = 0;
    for (uint start = 0; start < units; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint u = start + member + j * members;
        const oprig_floatv xv = u < units ? oprig_load_unit(x, first, n, u, 0.0f, half_type) : (oprig_floatv)(0.0f);
        v[j] = xv;
        largest = max(largest, oprig_as_intv(xv) & 0x7fffffff);
      }
    }
    const int largest_bits = oprig_team_max_int(oprig_max_of(largest), scratch_max, lane, member, members, 1);
    const int exponent = (largest_bits >> 23) - 127;  // |x| < 2^(exponent + 1)
    const int k = exponent > 60 ? max(-exponent, -126) : exponent < -60 && largest_bits != 0 ? min(-exponent, max_up) : 0;
    const float s = oprig_pow2(k);

    // The sum of (x s)^2, each square exact as p + e.
    oprig_floatv hi = 0.0f, lo = 0.0f;
    for (uint start = 0; start < units; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint u = start + member + j * members;
        const oprig_floatv xs =
            (cached ? v[j] : u < units ? oprig_load_unit(x, first, n, u, 0.0f, half_type) : (oprig_floatv)(0.0f)) * s;
        const oprig_floatv p = xs * xs;
        const oprig_floatv sum = hi + p;
        lo += OPRIG_TWO_SUM_ERROR(hi, p, sum) + OPRIG_TWO_PROD_ERROR(xs, xs, p);
        hi = sum;
      }
    }
    const float2 squares = oprig_team_sum_ff(oprig_ff_sum_of(hi, lo), scratch_sum, lane, member, members, 1);
    const float2 mean = oprig_ff_add(oprig_ff_div_count(squares, (float)n), (float2)(epsilon * s * s, 0.0f));
    // An infinite |x|: r = 1 / sqrt(inf) = 0 exactly (its float-float
    // arithmetic would give NaN).
    const float2 r = largest_bits == 0x7f800000 ? (float2)(0.0f, 0.0f) : oprig_ff_rsqrt(mean);

    for (uint start = 0; start < units; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint u = start + member + j * members;
        if (u >= units) continue;
        const oprig_floatv xs = (cached ? v[j] : oprig_load_unit(x, first, n, u, 0.0f, half_type)) * s;
        const oprig_floatv w = oprig_load_position_unit(weight, first, n, u, 0.0f, half_type);
        const oprig_floatv rw = r.x * w;
        const oprig_floatv rw_lo = OPRIG_TWO_PROD_ERROR((oprig_floatv)(r.x), w, rw) + r.y * w;
        oprig_store_unit(y, first, n, u, fma(xs, rw, xs * rw_lo), half_type);
      }
    }
  }
}

#define RMS_NORM_ARGS                                                                                     \
  const ulong rows, const uint n, const float epsilon, const int max_up, const uint members,             \
      local int *scratch_max, local float2 *scratch_sum

kernel void rms_norm_f32(global const float* x, global const float* weight, global float* y, RMS_NORM_ARGS) {
  rms_norm_rows(x, weight, y, rows, n, epsilon, max_up, members, scratch_max, scratch_sum, false);
}
kernel void rms_norm_f16(global const half* x, global const half* weight, global half* y, RMS_NORM_ARGS) {
  rms_norm_rows(x, weight, y, rows, n, epsilon, max_up, members, scratch_max, scratch_sum, true);
}
