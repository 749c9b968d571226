// Quantize on the cpu backend: FLOAT_32 to the UINT_8 / INT_8 codes of the
// output tensor's quantisation,
//   code = clamp(round_half_to_even(fp32(x / scale)) + zero_point, qmin, qmax)
// (NaN gives the zero point). Every path does the same fp32 operations in the
// same order (an IEEE division, a round to nearest even, an exact addition of
// the zero point, a clamp, a conversion of an integral float), so the scalar,
// AVX2 and AVX-512 paths agree bit for bit. The op is memory-bound (4 bytes
// in, 1 out per element); the division is the only arithmetic that costs
// anything, and it stays a division because the spec says x / scale, which
// x * (1 / scale) is not. Work is split over the backend's threads.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>

#include "common/kernel.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_quantize__cpu;

namespace {

struct QuantizeCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  bool is_signed = false;
  float scale = 1;
  float zero_point = 0;  // exact: |zero point| <= 2^24 (checked in prepare)
  float lowest = 0, highest = 255;
  size_t count = 0;
};

struct Work {
  const QuantizeCpuKernel* k;
  const float* x;
  void* y;
  oprig_cpu_isa isa;
};

// One element, the spec's formula; the vector paths do the same operations.
inline float code_of(float x, const QuantizeCpuKernel& k) {
  if (x != x) return k.zero_point;
  // nearbyint rounds in the current mode, which is to-nearest-even unless a
  // caller changed it; the vector paths name that mode explicitly.
  const float code = std::nearbyint(x / k.scale) + k.zero_point;
  return std::min(std::max(code, k.lowest), k.highest);
}

template <class Code>
void range_scalar_typed(const Work& w, size_t begin, size_t end) {
  auto* y = static_cast<Code*>(w.y);
  for (size_t i = begin; i < end; ++i) y[i] = static_cast<Code>(code_of(w.x[i], *w.k));
}

void range_scalar(const Work& w, size_t begin, size_t end) {
  if (w.k->is_signed) range_scalar_typed<int8_t>(w, begin, end);
  else range_scalar_typed<uint8_t>(w, begin, end);
}

#if defined(__x86_64__)
// AVX2: 8 codes per vector, 32 per step packed down to bytes with
// saturating packs (the codes are already in range, so nothing saturates).
__attribute__((target("avx2,fma"))) inline __m256i codes_avx2(const float* x, const QuantizeCpuKernel& k) {
  const __m256 v = _mm256_loadu_ps(x);
  const __m256 rounded = _mm256_round_ps(_mm256_div_ps(v, _mm256_set1_ps(k.scale)),
                                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 code = _mm256_add_ps(rounded, _mm256_set1_ps(k.zero_point));
  code = _mm256_blendv_ps(code, _mm256_set1_ps(k.zero_point), _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
  code = _mm256_min_ps(_mm256_max_ps(code, _mm256_set1_ps(k.lowest)), _mm256_set1_ps(k.highest));
  return _mm256_cvtps_epi32(code);
}

__attribute__((target("avx2,fma"))) void range_avx2(const Work& w, size_t begin, size_t end) {
  auto* y = static_cast<uint8_t*>(w.y);
  const QuantizeCpuKernel& k = *w.k;
  // packs interleave the two 128-bit halves; this puts the 32-bit groups back in order.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  size_t i = begin;
  for (; i + 32 <= end; i += 32) {
    const __m256i a = codes_avx2(w.x + i, k), b = codes_avx2(w.x + i + 8, k);
    const __m256i c = codes_avx2(w.x + i + 16, k), d = codes_avx2(w.x + i + 24, k);
    const __m256i ab = _mm256_packs_epi32(a, b), cd = _mm256_packs_epi32(c, d);
    const __m256i bytes = k.is_signed ? _mm256_packs_epi16(ab, cd) : _mm256_packus_epi16(ab, cd);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), _mm256_permutevar8x32_epi32(bytes, order));
  }
  range_scalar(w, i, end);
}

// AVX-512: 16 codes per vector. The codes are narrowed in a register and
// stored as 16 bytes: the narrowing store straight to memory (vpmovdb m128)
// is several times slower on AMD cores; only the tail uses its masked form.
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"))) inline __m512i codes_avx512(
    __m512 v, const QuantizeCpuKernel& k) {
  // maskz forms with every lane set: the plain ones start from an "undefined"
  // register that GCC 12 reports as maybe-uninitialized.
  const __mmask16 all = 0xFFFF;
  const __m512 zero_point = _mm512_set1_ps(k.zero_point);
  const __m512 rounded = _mm512_maskz_roundscale_ps(all, _mm512_div_ps(v, _mm512_set1_ps(k.scale)),
                                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 code = _mm512_add_ps(rounded, zero_point);
  code = _mm512_mask_mov_ps(code, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), zero_point);
  code = _mm512_maskz_min_ps(all, _mm512_maskz_max_ps(all, code, _mm512_set1_ps(k.lowest)), _mm512_set1_ps(k.highest));
  return _mm512_maskz_cvtps_epi32(all, code);
}

__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"))) void range_avx512(const Work& w, size_t begin,
                                                                                       size_t end) {
  auto* y = static_cast<uint8_t*>(w.y);
  const QuantizeCpuKernel& k = *w.k;
  size_t i = begin;
  // In range already: the truncating narrow keeps the code's byte for both signs.
  for (; i + 16 <= end; i += 16)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i),
                     _mm512_maskz_cvtepi32_epi8(0xFFFF, codes_avx512(_mm512_loadu_ps(w.x + i), k)));
  if (i < end) {
    const auto live = static_cast<__mmask16>((1u << (end - i)) - 1);
    _mm512_mask_cvtepi32_storeu_epi8(y + i, live, codes_avx512(_mm512_maskz_loadu_ps(live, w.x + i), k));
  }
}
#endif

void run_range(void* arg, size_t begin, size_t end) {
  const Work& w = *static_cast<const Work*>(arg);
#if defined(__x86_64__)
  if (w.isa == OPRIG_CPU_ISA_AVX512) return range_avx512(w, begin, end);
  if (w.isa == OPRIG_CPU_ISA_AVX2) return range_avx2(w, begin, end);
#endif
  range_scalar(w, begin, end);
}

// ---- the ABI --------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param*, size_t, oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* kernel = new (std::nothrow) QuantizeCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_quantize__cpu;
  kernel->ctx = ctx;
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 || in.scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != OPRIG_DTYPE_UINT_8 && out.dtype != OPRIG_DTYPE_INT_8) return OPRIG_STATUS_UNSUPPORTED;
  // The output must be quantised, with a scale that divides (finite, positive)
  // and a zero point that adds exactly to any rounded quotient in range.
  if (!(out.scale > 0) || !std::isfinite(out.scale)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (out.zero_point < -(1 << 24) || out.zero_point > (1 << 24)) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<QuantizeCpuKernel>(handle);
  k->is_signed = out.dtype == OPRIG_DTYPE_INT_8;
  k->scale = out.scale;
  k->zero_point = static_cast<float>(out.zero_point);
  k->lowest = k->is_signed ? -128.0f : 0.0f;
  k->highest = k->is_signed ? 127.0f : 255.0f;
  out.rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, out.dims);
  k->count = element_count(in);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<QuantizeCpuKernel>(handle);
  if (k->count == 0) return OPRIG_STATUS_OK;
  Work work{k, static_cast<const float*>(inputs[0].data), outputs[0].data,
            static_cast<oprig_cpu_isa>(k->ctx->cpu_isa)};
  // 64 Ki elements a chunk at least: below that a thread hand-off costs more than it saves.
  k->ctx->cpu_parallel_for(k->ctx->cpu_pool, k->count, size_t{1} << 16, run_range, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<QuantizeCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const QuantizeCpuKernel>(handle);
  out->flops = 3 * k->count;  // divide, round, add (the clamp is not counted)
  out->bytes_read = 4 * k->count;
  out->bytes_written = k->count;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_quantize__cpu = {"Quantize", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
