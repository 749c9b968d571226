// Dequantize on the cpu backend: UINT_8 / INT_8 codes of the input tensor's
// quantisation to FLOAT_32, y = fp32(code - zero_point) * scale. The
// subtraction is exact in int32, its conversion to fp32 exact (|zero point| <=
// 2^24 - 256, checked in prepare) and the product rounded once: correctly
// rounded, and bit for bit the same on the scalar, AVX2 and AVX-512 paths.
// Memory-bound (1 byte in, 4 out per element). Work is split over the
// backend's threads.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>

#include "common/kernel.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_dequantize__cpu;

namespace {

constexpr int32_t kMaxZeroPoint = (1 << 24) - 256;

struct DequantizeCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  bool is_signed = false;
  float scale = 1;
  int32_t zero_point = 0;
  size_t count = 0;
};

struct Work {
  const DequantizeCpuKernel* k;
  const void* x;
  float* y;
  oprig_cpu_isa isa;
};

template <class Code>
void range_scalar_typed(const Work& w, size_t begin, size_t end) {
  const auto* x = static_cast<const Code*>(w.x);
  for (size_t i = begin; i < end; ++i)
    w.y[i] = static_cast<float>(static_cast<int32_t>(x[i]) - w.k->zero_point) * w.k->scale;
}

void range_scalar(const Work& w, size_t begin, size_t end) {
  if (w.k->is_signed) range_scalar_typed<int8_t>(w, begin, end);
  else range_scalar_typed<uint8_t>(w, begin, end);
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void range_avx2(const Work& w, size_t begin, size_t end) {
  const auto* x = static_cast<const uint8_t*>(w.x);
  const __m256i zero_point = _mm256_set1_epi32(w.k->zero_point);
  const __m256 scale = _mm256_set1_ps(w.k->scale);
  size_t i = begin;
  for (; i + 8 <= end; i += 8) {
    const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(x + i));
    const __m256i codes = w.k->is_signed ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes);
    _mm256_storeu_ps(w.y + i, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(codes, zero_point)), scale));
  }
  range_scalar(w, i, end);
}

// maskz conversions with every lane set: the plain ones start from an
// "undefined" register that GCC 12 reports as maybe-uninitialized.
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"))) inline __m512 values_avx512(
    __m128i bytes, bool is_signed, __m512i zero_point, __m512 scale) {
  const __mmask16 all = 0xFFFF;
  const __m512i codes = is_signed ? _mm512_maskz_cvtepi8_epi32(all, bytes) : _mm512_maskz_cvtepu8_epi32(all, bytes);
  return _mm512_mul_ps(_mm512_maskz_cvtepi32_ps(all, _mm512_sub_epi32(codes, zero_point)), scale);
}

__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"))) void range_avx512(const Work& w, size_t begin,
                                                                                       size_t end) {
  const auto* x = static_cast<const uint8_t*>(w.x);
  const __m512i zero_point = _mm512_set1_epi32(w.k->zero_point);
  const __m512 scale = _mm512_set1_ps(w.k->scale);
  const bool is_signed = w.k->is_signed;
  size_t i = begin;
  for (; i + 16 <= end; i += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i));
    _mm512_storeu_ps(w.y + i, values_avx512(bytes, is_signed, zero_point, scale));
  }
  if (i < end) {
    const auto live = static_cast<__mmask16>((1u << (end - i)) - 1);
    _mm512_mask_storeu_ps(w.y + i, live, values_avx512(_mm_maskz_loadu_epi8(live, x + i), is_signed, zero_point, scale));
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
  auto* kernel = new (std::nothrow) DequantizeCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_dequantize__cpu;
  kernel->ctx = ctx;
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.dtype != OPRIG_DTYPE_UINT_8 && in.dtype != OPRIG_DTYPE_INT_8) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != OPRIG_DTYPE_FLOAT_32 || out.scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  // The input must be quantised: a finite positive scale, and a zero point
  // whose difference with any code is exact in fp32.
  if (!(in.scale > 0) || !std::isfinite(in.scale)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (in.zero_point < -kMaxZeroPoint || in.zero_point > kMaxZeroPoint) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<DequantizeCpuKernel>(handle);
  k->is_signed = in.dtype == OPRIG_DTYPE_INT_8;
  k->scale = in.scale;
  k->zero_point = in.zero_point;
  out.rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, out.dims);
  k->count = element_count(in);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<DequantizeCpuKernel>(handle);
  if (k->count == 0) return OPRIG_STATUS_OK;
  Work work{k, inputs[0].data, static_cast<float*>(outputs[0].data), static_cast<oprig_cpu_isa>(k->ctx->cpu_isa)};
  // 64 Ki elements a chunk at least: below that a thread hand-off costs more than it saves.
  k->ctx->cpu_parallel_for(k->ctx->cpu_pool, k->count, size_t{1} << 16, run_range, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<DequantizeCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const DequantizeCpuKernel>(handle);
  out->flops = 2 * k->count;  // subtract, multiply
  out->bytes_read = k->count;
  out->bytes_written = 4 * k->count;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_dequantize__cpu = {"Dequantize", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
