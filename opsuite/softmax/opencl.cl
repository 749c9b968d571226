// Softmax, opencl: FLOAT_32, and FLOAT_16 widened exactly (vload_half),
// computed in fp32 and rounded once (vstore_half_rte); any axis. The tensor
// is [outer, length, inner] and a slice (o, *, i) has a team of `members`
// work-items (common/slice_layout.hpp; the reductions are
// common/opencl/team_reduce.cl): the slice's maximum (as ordered integers, so
// no NaN is lost), then exp(beta (x - max)) with a float-float sum, then the
// products with 1 / sum. softmax_rows_* take contiguous slices (the last
// axis) in vector units of OPRIG_VEC elements (common/opencl/slice_vector.cl);
// softmax_columns_* take slices strided by inner > 1, one element at a time,
// neighbouring work-items on neighbouring slices. A work-item keeps
// OPRIG_CACHE of its units in registers (the maximum pass loads them, the
// sum pass replaces them by their exponentials, the last pass scales them),
// so a slice of up to members * OPRIG_CACHE units is read once; a longer one
// is read in each pass.
//
// The arithmetic is the cpu kernel's (softmax_math.inl): x - max carried
// exactly as a pair (TwoSum), beta times it with its product error, exp by
// Cody-Waite reduction and the degree-6 polynomial of activation's
// fit_coefficients.py (1.1 x 2^-24). The exponentials are kept as e 2^64,
// which is a normal float for every e that does not round to 0 (e >= 2^-150),
// so no denormal enters the sum on any device; the sum (>= 2^64: the maximum
// contributes exactly 2^64) is float-float, its reciprocal refined to about
// 2^-46, the product rounded once by fma, and a result in the fp32 denormal
// range rounded once from e 2^64 (1 / sum) 2^149 by integer rounding. About
// 2 ulp in all. A slice holding NaN or +inf, or only -inf, is NaN throughout
// (the spec).

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

// The element functions, written once for float (F, I) and for the vector
// units (oprig_floatv, oprig_intv); select() and isless() serve both.
//
// NAME_exp(x, -m, beta) = exp(beta (x - m)) 2^64 for x <= m, 0 where
// exp(beta (x - m)) < 2^-150 (x = -inf included, whose error term is NaN).
// NAME_output(e 2^64, r = 2^64 / sum, r.x 2^149) = e / sum rounded once; a
// result below 2^-126 as an integer count of 2^-149.
// NAME_key(x): the maximum's ordered integer; NaN counts as +inf.
#define SOFTMAX_ELEMENT_FUNCTIONS(NAME, F, I, U, CONVERT_I, CONVERT_U_SAT, AS_F, AS_I)                     \
  inline F NAME##_exp(const F x, const float minus_m, const float beta) {                                    \
    const F mm = (F)(minus_m);                                                                               \
    const F d = x + mm;                                                                                      \
    F t = d, t_err = OPRIG_TWO_SUM_ERROR(x, mm, d);                                                          \
    if (beta != 1.0f) {                                                                                      \
      const F b = (F)(beta);                                                                                 \
      const F p = b * d;                                                                                     \
      t_err = OPRIG_TWO_PROD_ERROR(b, d, p) + b * t_err;                                                     \
      t = p;                                                                                                 \
    }                                                                                                        \
    const I below = isless(t, (F)(SOFTMAX_EXP_FLOOR));                                                       \
    t = select(t, (F)(SOFTMAX_EXP_FLOOR), below);                                                            \
    t_err = select(t_err, (F)(0.0f), below);                                                                 \
    const F n = rint(t * SOFTMAX_LOG2E);                                                                     \
    const F r = ((t - n * SOFTMAX_LN2_HI) - n * SOFTMAX_LN2_LO) + t_err;                                     \
    F q = fma((F)(SOFTMAX_Q4), r, (F)(SOFTMAX_Q3));                                                          \
    q = fma(q, r, (F)(SOFTMAX_Q2));                                                                          \
    q = fma(q, r, (F)(SOFTMAX_Q1));                                                                          \
    q = fma(q, r, (F)(SOFTMAX_Q0));                                                                          \
    const F poly = fma(fma(q, r, (F)(1.0f)), r, (F)(1.0f));                                                  \
    const F scale = AS_F((CONVERT_I(n) + (64 + 127)) << 23); /* 2^(n + 64), n in [-150, 0] */                \
    return select(poly * scale, (F)(0.0f), below);                                                           \
  }                                                                                                          \
  inline F NAME##_output(const F e, const float2 r, const float denormal_scale) {                            \
    const F y = fma(e, (F)(r.x), e * r.y);                                                                   \
    const F denormal = AS_F(CONVERT_U_SAT(rint(e * denormal_scale)));                                        \
    return select(y, denormal, isless(y, (F)(0x1p-126f)) & isnotequal(e, (F)(0.0f)));                       \
  }                                                                                                          \
  inline I NAME##_key(const F x) {                                                                           \
    const I bits = AS_I(x);                                                                                  \
    const I order = select(bits, (I)(INT_MIN) - bits, bits < 0);                                             \
    return select(order, (I)(oprig_float_order(INFINITY)), isnan(x));                                        \
  }

SOFTMAX_ELEMENT_FUNCTIONS(softmax, float, int, uint, convert_int, convert_uint_sat, as_float, as_int)
SOFTMAX_ELEMENT_FUNCTIONS(softmax_v, oprig_floatv, oprig_intv, oprig_uintv, oprig_convert_intv,
                          oprig_convert_uintv_sat, oprig_as_floatv, oprig_as_intv)

// After the maximum: NaN or +inf present, or only -inf, make the slice NaN.
inline bool softmax_undefined(const int key) {
  return key == oprig_float_order(INFINITY) || key == oprig_float_order(-INFINITY);
}

// Contiguous slices: `rows` slices of n elements; a group of teams, each
// team's work-items adjacent. A grid-stride loop over the groups' worth of
// slices (its bounds are the same for every work-item of a group).
inline void softmax_rows(global const void* x, global void* y, const ulong rows, const uint n, const float beta,
                         const uint members, local int* scratch_max, local float2* scratch_sum,
                         const bool half_type) {
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

    oprig_floatv v[OPRIG_CACHE];
    oprig_intv key = (oprig_intv)(oprig_float_order(-INFINITY));
    for (uint start = 0; start < units; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint u = start + member + j * members;
        const oprig_floatv xv = u < units ? oprig_load_unit(x, first, n, u, -INFINITY, half_type) : (oprig_floatv)(-INFINITY);
        v[j] = xv;
        key = max(key, softmax_v_key(xv));
      }
    }
    const int max_key = oprig_team_max_int(oprig_max_of(key), scratch_max, lane, member, members, 1);
    const bool undefined = softmax_undefined(max_key);
    const float minus_m = undefined ? 0.0f : -oprig_float_of_order(max_key);

    oprig_floatv hi = 0.0f, lo = 0.0f;  // Sum2 per vector element
    for (uint start = 0; start < units; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint u = start + member + j * members;
        const oprig_floatv xv = cached ? v[j] : u < units ? oprig_load_unit(x, first, n, u, -INFINITY, half_type) : (oprig_floatv)(-INFINITY);
        const oprig_floatv e = undefined ? (oprig_floatv)(0.0f) : softmax_v_exp(xv, minus_m, beta);
        v[j] = e;
        const oprig_floatv s = hi + e;
        lo += OPRIG_TWO_SUM_ERROR(hi, e, s);
        hi = s;
      }
    }
    const float2 sum = oprig_team_sum_ff(oprig_ff_sum_of(hi, lo), scratch_sum, lane, member, members, 1);
    // sum >= 2^64 (the maximum's term), so 1 / sum is a normal float.
    const float2 r = oprig_ff_reciprocal(sum);
    const float denormal_scale = r.x * 0x1p100f * 0x1p49f;

    for (uint start = 0; start < units; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint u = start + member + j * members;
        if (u >= units) continue;
        oprig_floatv out = (oprig_floatv)(NAN);
        if (!undefined) {
          const oprig_floatv e =
              cached ? v[j] : softmax_v_exp(oprig_load_unit(x, first, n, u, -INFINITY, half_type), minus_m, beta);
          out = softmax_v_output(e, r, denormal_scale);
        }
        oprig_store_unit(y, first, n, u, out, half_type);
      }
    }
  }
}

inline float softmax_load(global const void* x, const ulong i, const bool half_type) {
  return half_type ? vload_half(i, (global const half*)x) : ((global const float*)x)[i];
}

inline void softmax_store(global void* y, const ulong i, const float v, const bool half_type) {
  if (half_type) vstore_half_rte(v, i, (global half*)y);
  else ((global float*)y)[i] = v;
}

// Strided slices (inner > 1): element k of slice (o, *, i) at
// (o length + k) inner + i; the teams of a group interleaved, so
// neighbouring work-items read neighbouring slices.
inline void softmax_columns(global const void* x, global void* y, const ulong outer, const uint length,
                            const ulong inner, const float beta, const uint members, local int* scratch_max,
                            local float2* scratch_sum, const bool half_type) {
  const uint lane = get_local_id(0);
  const uint teams = get_local_size(0) / members;
  const uint team = lane % teams, member = lane / teams;
  const ulong blocks = (inner + teams - 1) / teams;
  const ulong groups = outer * blocks;
  const uint chunk = members * OPRIG_CACHE;
  const bool cached = length <= chunk;

  for (ulong g = get_group_id(0); g < groups; g += get_num_groups(0)) {
    const ulong o = g / blocks, i = (g % blocks) * teams + team;
    const bool valid = i < inner;
    const ulong base = o * length * inner + i;

    float v[OPRIG_CACHE];
    int key = oprig_float_order(-INFINITY);
    for (uint start = 0; start < length; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint k = start + member + j * members;
        const float xv = valid && k < length ? softmax_load(x, base + k * inner, half_type) : -INFINITY;
        v[j] = xv;
        key = max(key, softmax_key(xv));
      }
    }
    const int max_key = oprig_team_max_int(key, scratch_max, lane, member, members, teams);
    const bool undefined = softmax_undefined(max_key);
    const float minus_m = undefined ? 0.0f : -oprig_float_of_order(max_key);

    float2 sum = (float2)(0.0f, 0.0f);
    for (uint start = 0; start < length; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint k = start + member + j * members;
        const bool in_slice = valid && k < length;
        const float xv = cached ? v[j] : in_slice ? softmax_load(x, base + k * inner, half_type) : -INFINITY;
        const float e = undefined ? 0.0f : softmax_exp(xv, minus_m, beta);
        v[j] = e;
        sum = oprig_ff_accumulate(sum, e);
      }
    }
    sum = oprig_team_sum_ff(sum, scratch_sum, lane, member, members, teams);
    const float2 r = oprig_ff_reciprocal(sum);
    const float denormal_scale = r.x * 0x1p100f * 0x1p49f;

    for (uint start = 0; start < length; start += chunk) {
    OPRIG_UNROLLED
      for (uint j = 0; j < OPRIG_CACHE; ++j) {
        const uint k = start + member + j * members;
        if (!valid || k >= length) continue;
        float out = NAN;
        if (!undefined) {
          const float e = cached ? v[j] : softmax_exp(softmax_load(x, base + k * inner, half_type), minus_m, beta);
          out = softmax_output(e, r, denormal_scale);
        }
        softmax_store(y, base + k * inner, out, half_type);
      }
    }
  }
}

#define SOFTMAX_ROWS_ARGS                                                                                 \
  const ulong rows, const uint n, const float beta, const uint members, local int *scratch_max,          \
      local float2 *scratch_sum
#define SOFTMAX_COLUMNS_ARGS                                                                              \
  const ulong outer, const uint length, const ulong inner, const float beta, const uint members,         \
      local int *scratch_max, local float2 *scratch_sum

kernel void softmax_rows_f32(global const float* x, global float* y, SOFTMAX_ROWS_ARGS) {
  softmax_rows(x, y, rows, n, beta, members, scratch_max, scratch_sum, false);
}
kernel void softmax_rows_f16(global const half* x, global half* y, SOFTMAX_ROWS_ARGS) {
  softmax_rows(x, y, rows, n, beta, members, scratch_max, scratch_sum, true);
}
kernel void softmax_columns_f32(global const float* x, global float* y, SOFTMAX_COLUMNS_ARGS) {
  softmax_columns(x, y, outer, length, inner, beta, members, scratch_max, scratch_sum, false);
}
kernel void softmax_columns_f16(global const half* x, global half* y, SOFTMAX_COLUMNS_ARGS) {
  softmax_columns(x, y, outer, length, inner, beta, members, scratch_max, scratch_sum, true);
}
