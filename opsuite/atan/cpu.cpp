// Atan on the cpu backend: y = atan(x + offset), fp32 and fp16 (fp16 is
// widened to fp32, computed, and rounded back). Three paths, chosen by the
// backend's cpu_isa: AVX-512 (16 elements a step, masked tails), AVX2+FMA (8 a
// step; tails through the same vector code on a padded copy) and scalar. The
// two vector paths do the same IEEE operations in the same order, so they
// agree bit for bit; the scalar path has no fused multiply-add and may differ
// in the last bit. The work is split over the backend's threads with
// cpu_parallel_for.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "atan/atan_polynomial.hpp"
#include "common/kernel.hpp"
#include "core/half.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_atan__cpu;

namespace {

namespace ap = atan_poly;

struct AtanCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  float offset = 0.0f;
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  size_t count = 0;
};

// Portable path, the same formula without vector registers.
float atan_scalar(float x, float offset) {
  const float t = x + offset;
  const float a = std::fabs(t);
  const bool big = a > ap::kTan3PiOver8;
  const bool mid = !big && a > ap::kTanPiOver8;
  const float num = big ? -1.0f : (mid ? a - 1.0f : a);
  const float den = big ? a : (mid ? a + 1.0f : 1.0f);
  const float hi = big ? ap::kPiOver2Hi : (mid ? ap::kPiOver4Hi : 0.0f);
  const float lo = big ? ap::kPiOver2Lo : (mid ? ap::kPiOver4Lo : 0.0f);
  const float r = num / den;
  const float z = r * r;
  const float p = ((ap::kC3 * z + ap::kC2) * z + ap::kC1) * z + ap::kC0;
  const float y = hi + (r + (r * z * p + lo));
  return std::copysign(y, t);
}

#if defined(__x86_64__)
// atan8 is always inlined into AVX2 callers; GCC's note that returning __m256
// from a function compiled without AVX changes the ABI does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
__attribute__((target("avx2,fma"), always_inline)) inline __m256 atan8(__m256 x, __m256 offset) {
  const __m256 sign_mask = _mm256_set1_ps(-0.0f);
  const __m256 t = _mm256_add_ps(x, offset);
  const __m256 a = _mm256_andnot_ps(sign_mask, t);
  const __m256 one = _mm256_set1_ps(1.0f);
  // Masks instead of blendv (3 uops each on recent Intel cores); the selected
  // values are bitwise those of the formula in atan_scalar:
  //   num = a (small), a - 1 (mid), -1 (big)
  //   den = 1 (small), a + 1 (mid), a + 0 (big)
  const __m256 big = _mm256_cmp_ps(a, _mm256_set1_ps(ap::kTan3PiOver8), _CMP_GT_OQ);
  const __m256 reduced = _mm256_cmp_ps(a, _mm256_set1_ps(ap::kTanPiOver8), _CMP_GT_OQ);  // mid or big
  const __m256 mid = _mm256_andnot_ps(big, reduced);
  const __m256 num = _mm256_or_ps(_mm256_andnot_ps(big, _mm256_sub_ps(a, _mm256_and_ps(reduced, one))),
                                  _mm256_and_ps(big, _mm256_set1_ps(-1.0f)));
  const __m256 den = _mm256_add_ps(_mm256_and_ps(reduced, a), _mm256_andnot_ps(big, one));
  const __m256 hi = _mm256_or_ps(_mm256_and_ps(big, _mm256_set1_ps(ap::kPiOver2Hi)),
                                 _mm256_and_ps(mid, _mm256_set1_ps(ap::kPiOver4Hi)));
  const __m256 lo = _mm256_or_ps(_mm256_and_ps(big, _mm256_set1_ps(ap::kPiOver2Lo)),
                                 _mm256_and_ps(mid, _mm256_set1_ps(ap::kPiOver4Lo)));
  const __m256 r = _mm256_div_ps(num, den);
  const __m256 z = _mm256_mul_ps(r, r);
  __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(ap::kC3), z, _mm256_set1_ps(ap::kC2));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(ap::kC1));
  p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(ap::kC0));
  const __m256 tail = _mm256_fmadd_ps(_mm256_mul_ps(r, z), p, lo);
  const __m256 y = _mm256_add_ps(hi, _mm256_add_ps(r, tail));
  // copysign: y is non-negative (or NaN), so OR-ing the sign of t suffices.
  return _mm256_or_ps(y, _mm256_and_ps(sign_mask, t));
}

__attribute__((target("avx2,fma"))) void atan_f32_avx2(const float* src, float* dst, size_t n,
                                                       float offset) {
  const __m256 off = _mm256_set1_ps(offset);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, atan8(_mm256_loadu_ps(src + i), off));
  if (i < n) {
    alignas(32) float in[8] = {};
    alignas(32) float out[8];
    std::memcpy(in, src + i, (n - i) * sizeof(float));
    _mm256_store_ps(out, atan8(_mm256_load_ps(in), off));
    std::memcpy(dst + i, out, (n - i) * sizeof(float));
  }
}

__attribute__((target("avx2,fma,f16c"), always_inline)) inline void atan8_f16(const uint16_t* src, uint16_t* dst,
                                                                           __m256 off) {
  const __m256 x = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src)));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst),
                   _mm256_cvtps_ph(atan8(x, off), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

__attribute__((target("avx2,fma,f16c"))) void atan_f16_avx2(const uint16_t* src, uint16_t* dst,
                                                            size_t n, float offset) {
  const __m256 off = _mm256_set1_ps(offset);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) atan8_f16(src + i, dst + i, off);
  if (i < n) {
    uint16_t in[8] = {};
    uint16_t out[8];
    std::memcpy(in, src + i, (n - i) * sizeof(uint16_t));
    atan8_f16(in, out, off);
    std::memcpy(dst + i, out, (n - i) * sizeof(uint16_t));
  }
}

// atan8 with 16 lanes: mask registers select num, den, hi and lo; every
// arithmetic step is the same as in atan8, so the results are bitwise equal.
__attribute__((target("avx512f,avx512dq"), always_inline)) inline __m512 atan16(__m512 x, __m512 offset) {
  const __m512 sign_mask = _mm512_set1_ps(-0.0f);
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 t = _mm512_add_ps(x, offset);
  const __m512 a = _mm512_andnot_ps(sign_mask, t);
  const __mmask16 big = _mm512_cmp_ps_mask(a, _mm512_set1_ps(ap::kTan3PiOver8), _CMP_GT_OQ);
  const __mmask16 reduced = _mm512_cmp_ps_mask(a, _mm512_set1_ps(ap::kTanPiOver8), _CMP_GT_OQ);
  const __mmask16 mid = static_cast<__mmask16>(reduced & ~big);
  const __m512 num = _mm512_mask_mov_ps(_mm512_mask_sub_ps(a, mid, a, one), big, _mm512_set1_ps(-1.0f));
  const __m512 den = _mm512_mask_mov_ps(_mm512_mask_add_ps(one, mid, a, one), big, a);
  const __m512 hi = _mm512_mask_mov_ps(_mm512_maskz_mov_ps(mid, _mm512_set1_ps(ap::kPiOver4Hi)), big,
                                       _mm512_set1_ps(ap::kPiOver2Hi));
  const __m512 lo = _mm512_mask_mov_ps(_mm512_maskz_mov_ps(mid, _mm512_set1_ps(ap::kPiOver4Lo)), big,
                                       _mm512_set1_ps(ap::kPiOver2Lo));
  const __m512 r = _mm512_div_ps(num, den);
  const __m512 z = _mm512_mul_ps(r, r);
  __m512 p = _mm512_fmadd_ps(_mm512_set1_ps(ap::kC3), z, _mm512_set1_ps(ap::kC2));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(ap::kC1));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(ap::kC0));
  const __m512 tail = _mm512_fmadd_ps(_mm512_mul_ps(r, z), p, lo);
  const __m512 y = _mm512_add_ps(hi, _mm512_add_ps(r, tail));
  return _mm512_or_ps(y, _mm512_and_ps(sign_mask, t));
}

// Masked loads and stores touch no byte outside the tensor, red zones included.
__attribute__((target("avx512f,avx512dq"))) void atan_f32_avx512(const float* src, float* dst, size_t n,
                                                                 float offset) {
  const __m512 off = _mm512_set1_ps(offset);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(dst + i, atan16(_mm512_loadu_ps(src + i), off));
  if (i < n) {
    const auto m = static_cast<__mmask16>((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(dst + i, m, atan16(_mm512_maskz_loadu_ps(m, src + i), off));
  }
}

__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) void atan_f16_avx512(const uint16_t* src,
                                                                                  uint16_t* dst, size_t n,
                                                                                  float offset) {
  const __m512 off = _mm512_set1_ps(offset);
  constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
  // The maskz conversions with every lane set: the plain ones start from an
  // "undefined" register that GCC 12 reports as maybe-uninitialized.
  constexpr __mmask16 kAll = 0xFFFF;
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 x = _mm512_maskz_cvtph_ps(kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), _mm512_maskz_cvtps_ph(kAll, atan16(x, off), kRound));
  }
  if (i < n) {
    const auto m = static_cast<__mmask16>((1u << (n - i)) - 1u);
    const __m512 x = _mm512_maskz_cvtph_ps(kAll, _mm256_maskz_loadu_epi16(m, src + i));
    _mm256_mask_storeu_epi16(dst + i, m, _mm512_maskz_cvtps_ph(kAll, atan16(x, off), kRound));
  }
}
#endif

struct Chunk {
  const void* src;
  void* dst;
  float offset;
  oprig_dtype dtype;
  oprig_cpu_isa isa;
};

void run_chunk(void* arg, size_t begin, size_t end) {
  const Chunk& c = *static_cast<const Chunk*>(arg);
  const size_t n = end - begin;
  if (c.dtype == OPRIG_DTYPE_FLOAT_32) {
    const float* src = static_cast<const float*>(c.src) + begin;
    float* dst = static_cast<float*>(c.dst) + begin;
#if defined(__x86_64__)
    if (c.isa == OPRIG_CPU_ISA_AVX512) return atan_f32_avx512(src, dst, n, c.offset);
    if (c.isa == OPRIG_CPU_ISA_AVX2) return atan_f32_avx2(src, dst, n, c.offset);
#endif
    for (size_t i = 0; i < n; ++i) dst[i] = atan_scalar(src[i], c.offset);
  } else {
    const uint16_t* src = static_cast<const uint16_t*>(c.src) + begin;
    uint16_t* dst = static_cast<uint16_t*>(c.dst) + begin;
#if defined(__x86_64__)
    if (c.isa == OPRIG_CPU_ISA_AVX512) return atan_f16_avx512(src, dst, n, c.offset);
    if (c.isa == OPRIG_CPU_ISA_AVX2) return atan_f16_avx2(src, dst, n, c.offset);
#endif
    for (size_t i = 0; i < n; ++i) dst[i] = float_to_half(atan_scalar(half_to_float(src[i]), c.offset));
  }
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* kernel = new (std::nothrow) AtanCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_atan__cpu;
  kernel->ctx = ctx;
  kernel->offset = static_cast<float>(scalar_param(params, num_params, "offset").value_or(0.0));
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs,
                     oprig_tensor* outputs, size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16)
    return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  outputs[0].rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, outputs[0].dims);
  auto* kernel = from_handle<AtanCpuKernel>(handle);
  kernel->dtype = static_cast<oprig_dtype>(in.dtype);
  kernel->count = element_count(in);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = from_handle<AtanCpuKernel>(handle);
  if (kernel->count == 0) return OPRIG_STATUS_OK;
  Chunk chunk{inputs[0].data, outputs[0].data, kernel->offset, kernel->dtype,
              static_cast<oprig_cpu_isa>(kernel->ctx->cpu_isa)};
  // 64 Ki elements per chunk at least: below that a thread hand-off costs more
  // than it saves.
  kernel->ctx->cpu_parallel_for(kernel->ctx->cpu_pool, kernel->count, size_t{1} << 16, run_chunk,
                                &chunk);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<AtanCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* kernel = from_handle<const AtanCpuKernel>(handle);
  const uint64_t n = kernel->count;
  const uint64_t width = kernel->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  // add, abs, 2 compares, 4 selects, division, square, 3 fma (6 flops),
  // 2 mul/add for the tail, 2 adds, sign: counted as 18 flops per element.
  out->flops = 18 * n;
  out->bytes_read = width * n;
  out->bytes_written = width * n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_atan__cpu = {"Atan", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
