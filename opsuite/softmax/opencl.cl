// Softmax, opencl: FLOAT_32, and FLOAT_16 widened exactly (vload_half),
// computed in fp32 and rounded once (vstore_half_rte); any axis. The tensor
// is [outer, length, inner] and a slice (o, *, i) has a team of `members`
// work-items (common/slice_layout.hpp; the reductions are
// common/opencl/team_reduce.cl): the slice's maximum (as ordered integers, so
// no NaN is lost), then exp(beta (x - max)) with a float-float sum, then the
// products with 1 / sum. A work-item keeps OPRIG_CACHE of its slice's
// elements in registers (the maximum pass loads them, the sum pass replaces
// them by their exponentials, the last pass scales them), so a slice of up
// to members * OPRIG_CACHE elements is read once; a longer one is read in
// each pass.
//
// The arithmetic is the cpu kernel's (softmax_math.inl): x - max carried
// exactly as a pair (TwoSum), beta times it with its product error, exp by
// Cody-Waite reduction and the degree-6 polynomial of activation's
// fit_coefficients.py (1.1 x 2^-24). The exponentials are kept as e 2^64,
// which is a normal float for every e that does not round to 0 (e >= 2^-150),
// so no denormal enters the sum on any device; the sum (>= 2^64: the maximum
// contributes exactly 2^64) is float-float, its reciprocal refined to about
// 2^-46, and a result in the fp32 denormal range is rounded once from the
// float e 2^64 (1 / sum) 2^149 by integer rounding. About 2.5 ulp in all.
// A slice holding NaN or +inf, or only -inf, is NaN throughout (the spec).

#pragma OPENCL FP_CONTRACT OFF

#ifndef OPRIG_CACHE
#define OPRIG_CACHE 8
#endif

// exp(r) = 1 + r (1 + r q(r)), |r| <= 0.35.
#define SOFTMAX_Q0 0.5f
#define SOFTMAX_Q1 0.166665748f
#define SOFTMAX_Q2 0.0416667275f
#define SOFTMAX_Q3 0.00836363155f
#define SOFTMAX_Q4 0.00139096123f
#define SOFTMAX_LOG2E 1.44269504f
#define SOFTMAX_LN2_HI 0.693145751953125f  // 15 significant bits: n ln2_hi is exact for |n| < 512
#define SOFTMAX_LN2_LO 1.42860677e-06f
#define SOFTMAX_EXP_FLOOR -104.0f  // exp(t) < 2^-150 below: rounds to 0

// exp(beta (x - m)) 2^64 given -m, for x <= m; 0 where exp(beta (x - m)) < 2^-150.
inline float softmax_exp_scaled(const float x, const float minus_m, const float beta) {
  const float2 d = oprig_two_sum(x, minus_m);  // x - m = d.x + d.y
  float t = d.x, t_err = d.y;
  if (beta != 1.0f) {
    const float2 p = oprig_two_prod(beta, d.x);
    t = p.x;
    t_err = p.y + beta * d.y;
  }
  if (!(t >= SOFTMAX_EXP_FLOOR)) return 0.0f;  // also x = -inf, whose t_err is NaN
  const float n = rint(t * SOFTMAX_LOG2E);
  const float r = ((t - n * SOFTMAX_LN2_HI) - n * SOFTMAX_LN2_LO) + t_err;
  float q = fma(SOFTMAX_Q4, r, SOFTMAX_Q3);
  q = fma(q, r, SOFTMAX_Q2);
  q = fma(q, r, SOFTMAX_Q1);
  q = fma(q, r, SOFTMAX_Q0);
  const float p = fma(fma(q, r, 1.0f), r, 1.0f);
  return p * oprig_pow2((int)n + 64);  // n in [-150, 0]
}

// e / sum from e 2^64 and r = 2^64 / sum (float-float): one rounding of
// e r; a result below 2^-126 is rounded from e r.x 2^149 to an integer
// number of 2^-149 (the same on devices that flush denormals).
inline float softmax_output(const float e_scaled, const float2 r, const float denormal_scale) {
  const float y = fma(e_scaled, r.x, e_scaled * r.y);
  if (y >= 0x1p-126f || e_scaled == 0.0f) return y;
  return as_float((uint)rint(e_scaled * denormal_scale));
}

inline float softmax_load(global const void* x, const ulong i, const bool half_type) {
  return half_type ? vload_half(i, (global const half*)x) : ((global const float*)x)[i];
}

inline void softmax_store(global void* y, const ulong i, const float v, const bool half_type) {
  if (half_type) vstore_half_rte(v, i, (global half*)y);
  else ((global float*)y)[i] = v;
}

// One work-group's slices, then the next group's (a grid-stride loop over
// `groups`; the loop's bounds are the same for every work-item of a group).
inline void softmax_slices(global const void* x, global void* y, const ulong outer, const uint length,
                           const ulong inner, const float beta, const uint members, const int strided,
                           local int* scratch_max, local float2* scratch_sum, const bool half_type) {
  const uint lane = get_local_id(0);
  const uint teams = get_local_size(0) / members;
  const uint team = strided ? lane % teams : lane / members;
  const uint member = strided ? lane / teams : lane % members;
  const uint stride = strided ? teams : 1;
  const ulong blocks = strided ? (inner + teams - 1) / teams : 1;
  const ulong groups = strided ? outer * blocks : (outer + teams - 1) / teams;
  const uint chunk = members * OPRIG_CACHE;
  const bool cached = length <= chunk;
  const int minus_inf_order = oprig_float_order(-INFINITY);

  for (ulong g = get_group_id(0); g < groups; g += get_num_groups(0)) {
    // Slice (o, *, i): element k at base + k * step.
    bool valid;
    ulong base, step;
    if (strided) {
      const ulong o = g / blocks, i = (g % blocks) * teams + team;
      valid = i < inner;
      base = o * length * inner + i;
      step = inner;
    } else {
      const ulong slice = g * teams + team;
      valid = slice < outer;
      base = slice * length;
      step = 1;
    }

    float v[OPRIG_CACHE];
    int key = minus_inf_order;  // the maximum's order; NaN and +inf count as +inf
    for (uint start = 0; start < length; start += chunk) {
#pragma unroll
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint k = start + member + j * members;
        const float xv = valid && k < length ? softmax_load(x, base + k * step, half_type) : -INFINITY;
        v[j] = xv;
        key = max(key, isnan(xv) ? oprig_float_order(INFINITY) : oprig_float_order(xv));
      }
    }
    key = oprig_team_max_int(key, scratch_max, lane, member, members, stride);
    // NaN or +inf present, or only -inf: NaN throughout.
    const bool undefined = key == oprig_float_order(INFINITY) || key == minus_inf_order;
    const float minus_m = undefined ? 0.0f : -oprig_float_of_order(key);

    float2 sum = (float2)(0.0f, 0.0f);
    for (uint start = 0; start < length; start += chunk) {
#pragma unroll
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint k = start + member + j * members;
        const bool in_slice = valid && k < length;
        const float xv = cached ? v[j] : in_slice ? softmax_load(x, base + k * step, half_type) : -INFINITY;
        const float e = in_slice && !undefined ? softmax_exp_scaled(xv, minus_m, beta) : 0.0f;
        v[j] = e;
        sum = oprig_ff_accumulate(sum, e);
      }
    }
    sum = oprig_team_sum_ff(sum, scratch_sum, lane, member, members, stride);
    // sum >= 2^64 (the maximum's term), so 1 / sum is a normal float.
    const float2 r = oprig_ff_reciprocal(sum);
    const float denormal_scale = r.x * 0x1p100f * 0x1p49f;

    for (uint start = 0; start < length; start += chunk) {
#pragma unroll
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint k = start + member + j * members;
        if (valid && k < length) {
          float out = NAN;
          if (!undefined) {
            const float e = cached ? v[j] : softmax_exp_scaled(softmax_load(x, base + k * step, half_type), minus_m, beta);
            out = softmax_output(e, r, denormal_scale);
          }
          softmax_store(y, base + k * step, out, half_type);
        }
      }
    }
  }
}

kernel void softmax_f32(global const float* x, global float* y, const ulong outer, const uint length,
                        const ulong inner, const float beta, const uint members, const int strided,
                        local int* scratch_max, local float2* scratch_sum) {
  softmax_slices(x, y, outer, length, inner, beta, members, strided, scratch_max, scratch_sum, false);
}

kernel void softmax_f16(global const half* x, global half* y, const ulong outer, const uint length,
                        const ulong inner, const float beta, const uint members, const int strided,
                        local int* scratch_max, local float2* scratch_sum) {
  softmax_slices(x, y, outer, length, inner, beta, members, strided, scratch_max, scratch_sum, true);
}
