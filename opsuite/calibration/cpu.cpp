// The cpu implementation of org.oprig.calibration (in the registration
// library). Copy and Triad are STREAM's loops with plain (temporal) stores,
// as STREAM compiled with GCC does, so the figures compare with STREAM's;
// FmaPeak runs independent FMA chains on the widest vector ISA the backend
// allows (ctx->cpu_isa), enough chains to cover FMA latency times the FMA
// units of current cores (4 cycles x 2 units: 8; we use 16 on AVX-512 with
// its 32 registers, 12 on AVX2 with 16). Work is spread over the backend's
// threads with cpu_parallel_for, as every opsuite kernel does.
#include <immintrin.h>

#include <algorithm>
#include <new>

#include "calibration_kernel.hpp"

struct oprig_kernel {
  const oprig_backend_context* ctx = nullptr;
  oprig::calibration::Op op = oprig::calibration::Op::kCopy;
  oprig::calibration::Params params;
  uint64_t count = 0;  // elements (Copy, Triad)
};

namespace oprig::calibration {
namespace {

#if defined(__x86_64__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

struct StreamJob {
  const float* b;
  const float* c;
  float* a;
  float scalar;
  uint32_t isa;
  bool triad;
};

#if defined(__x86_64__)
__attribute__((target("avx512f"))) void stream_avx512(const StreamJob& j, size_t begin, size_t end) {
  const __m512 s = _mm512_set1_ps(j.scalar);
  size_t i = begin;
  if (j.triad) {
    for (; i + 16 <= end; i += 16)
      _mm512_storeu_ps(j.a + i, _mm512_fmadd_ps(s, _mm512_loadu_ps(j.c + i), _mm512_loadu_ps(j.b + i)));
  } else {
    for (; i + 16 <= end; i += 16) _mm512_storeu_ps(j.a + i, _mm512_loadu_ps(j.b + i));
  }
  for (; i < end; ++i) j.a[i] = j.triad ? j.b[i] + j.scalar * j.c[i] : j.b[i];
}

__attribute__((target("avx2,fma"))) void stream_avx2(const StreamJob& j, size_t begin, size_t end) {
  const __m256 s = _mm256_set1_ps(j.scalar);
  size_t i = begin;
  if (j.triad) {
    for (; i + 8 <= end; i += 8)
      _mm256_storeu_ps(j.a + i, _mm256_fmadd_ps(s, _mm256_loadu_ps(j.c + i), _mm256_loadu_ps(j.b + i)));
  } else {
    for (; i + 8 <= end; i += 8) _mm256_storeu_ps(j.a + i, _mm256_loadu_ps(j.b + i));
  }
  for (; i < end; ++i) j.a[i] = j.triad ? j.b[i] + j.scalar * j.c[i] : j.b[i];
}
#endif

void stream_chunk(void* arg, size_t begin, size_t end) {
  const StreamJob& j = *static_cast<const StreamJob*>(arg);
#if defined(__x86_64__)
  if (j.isa == OPRIG_CPU_ISA_AVX512) return stream_avx512(j, begin, end);
  if (j.isa == OPRIG_CPU_ISA_AVX2) return stream_avx2(j, begin, end);
#endif
  if (j.triad) {
    for (size_t i = begin; i < end; ++i) j.a[i] = j.b[i] + j.scalar * j.c[i];
  } else {
    for (size_t i = begin; i < end; ++i) j.a[i] = j.b[i];
  }
}

struct FmaJob {
  float a, b;
  float* out;
  uint32_t iterations;
  uint32_t isa;
};

// Flops of one iteration of one thread's loop, per ISA.
uint64_t fma_flops_per_iteration(uint32_t isa) {
  if (isa == OPRIG_CPU_ISA_AVX512) return 16 * 16 * 2;
  if (isa == OPRIG_CPU_ISA_AVX2) return 12 * 8 * 2;
  return 8 * 4 * 2;  // SSE multiply + add, 4 lanes, 8 chains
}

#define OPRIG_CHAINS_16(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define OPRIG_CHAINS_12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define OPRIG_CHAINS_8(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)

#if defined(__x86_64__)
__attribute__((target("avx512f"))) float fma_avx512(float a, float b, uint32_t iterations) {
  const __m512 va = _mm512_set1_ps(a), vb = _mm512_set1_ps(b);
#define OPRIG_DECL(k) __m512 acc##k = _mm512_set1_ps(1.0f + 0.001f * (k));
  OPRIG_CHAINS_16(OPRIG_DECL)
#undef OPRIG_DECL
  for (uint32_t it = 0; it < iterations; ++it) {
#define OPRIG_STEP(k) acc##k = _mm512_fmadd_ps(acc##k, va, vb);
    OPRIG_CHAINS_16(OPRIG_STEP)
#undef OPRIG_STEP
  }
  __m512 sum = _mm512_setzero_ps();
#define OPRIG_SUM(k) sum = _mm512_add_ps(sum, acc##k);
  OPRIG_CHAINS_16(OPRIG_SUM)
#undef OPRIG_SUM
  // Stored and added by hand: GCC 12's _mm512_reduce_add_ps trips -Wuninitialized.
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, sum);
  float total = 0;
  for (float v : lanes) total += v;
  return total;
}

__attribute__((target("avx2,fma"))) float fma_avx2(float a, float b, uint32_t iterations) {
  const __m256 va = _mm256_set1_ps(a), vb = _mm256_set1_ps(b);
#define OPRIG_DECL(k) __m256 acc##k = _mm256_set1_ps(1.0f + 0.001f * (k));
  OPRIG_CHAINS_12(OPRIG_DECL)
#undef OPRIG_DECL
  for (uint32_t it = 0; it < iterations; ++it) {
#define OPRIG_STEP(k) acc##k = _mm256_fmadd_ps(acc##k, va, vb);
    OPRIG_CHAINS_12(OPRIG_STEP)
#undef OPRIG_STEP
  }
  __m256 sum = _mm256_setzero_ps();
#define OPRIG_SUM(k) sum = _mm256_add_ps(sum, acc##k);
  OPRIG_CHAINS_12(OPRIG_SUM)
#undef OPRIG_SUM
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, sum);
  float total = 0;
  for (float v : lanes) total += v;
  return total;
}

float fma_sse(float a, float b, uint32_t iterations) {
  const __m128 va = _mm_set1_ps(a), vb = _mm_set1_ps(b);
#define OPRIG_DECL(k) __m128 acc##k = _mm_set1_ps(1.0f + 0.001f * (k));
  OPRIG_CHAINS_8(OPRIG_DECL)
#undef OPRIG_DECL
  for (uint32_t it = 0; it < iterations; ++it) {
#define OPRIG_STEP(k) acc##k = _mm_add_ps(_mm_mul_ps(acc##k, va), vb);
    OPRIG_CHAINS_8(OPRIG_STEP)
#undef OPRIG_STEP
  }
  __m128 sum = _mm_setzero_ps();
#define OPRIG_SUM(k) sum = _mm_add_ps(sum, acc##k);
  OPRIG_CHAINS_8(OPRIG_SUM)
#undef OPRIG_SUM
  alignas(16) float lanes[4];
  _mm_store_ps(lanes, sum);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}
#endif

void fma_chunk(void* arg, size_t begin, size_t end) {
  const FmaJob& j = *static_cast<const FmaJob*>(arg);
  for (size_t t = begin; t < end; ++t) {
#if defined(__x86_64__)
    if (j.isa == OPRIG_CPU_ISA_AVX512) j.out[t] = fma_avx512(j.a, j.b, j.iterations);
    else if (j.isa == OPRIG_CPU_ISA_AVX2) j.out[t] = fma_avx2(j.a, j.b, j.iterations);
    else j.out[t] = fma_sse(j.a, j.b, j.iterations);
#else
    float acc[32];
    for (int k = 0; k < 32; ++k) acc[k] = 1.0f + 0.001f * k;
    for (uint32_t it = 0; it < j.iterations; ++it)
      for (float& v : acc) v = v * j.a + j.b;
    float total = 0;
    for (float v : acc) total += v;
    j.out[t] = total;
#endif
  }
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || ctx->kind != OPRIG_BACKEND_CPU || ctx->cpu_parallel_for == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  Op op;
  if (!op_from_name(op_name, &op)) return OPRIG_STATUS_UNSUPPORTED;
  Params p;
  if (!read_params(op, params, num_params, &p)) return OPRIG_STATUS_UNSUPPORTED;
  *out_kernel = new (std::nothrow) oprig_kernel{ctx, op, p, 0};
  return *out_kernel ? OPRIG_STATUS_OK : OPRIG_STATUS_OUT_OF_MEMORY;
}

oprig_status prepare(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (k == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->op == Op::kFmaPeak) return prepare_fma(inputs, num_inputs, outputs, num_outputs, k->ctx->cpu_threads);
  return prepare_streaming(k->op, inputs, num_inputs, outputs, num_outputs, &k->count);
}

oprig_status execute(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (k == nullptr || inputs == nullptr || outputs == nullptr || num_outputs != 1 ||
      num_inputs != inputs_of(k->op))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->op == Op::kFmaPeak) {
    const float* ab = static_cast<const float*>(inputs[0].data);
    FmaJob job{ab[0], ab[1], static_cast<float*>(outputs[0].data), k->params.iterations, k->ctx->cpu_isa};
    k->ctx->cpu_parallel_for(k->ctx->cpu_pool, k->ctx->cpu_threads, 1, fma_chunk, &job);
    return OPRIG_STATUS_OK;
  }
  StreamJob job{static_cast<const float*>(inputs[0].data),
                k->op == Op::kTriad ? static_cast<const float*>(inputs[1].data) : nullptr,
                static_cast<float*>(outputs[0].data), k->params.scalar, k->ctx->cpu_isa, k->op == Op::kTriad};
  // 16 Ki elements per chunk at least: below that a hand-off costs more than it moves.
  k->ctx->cpu_parallel_for(k->ctx->cpu_pool, k->count, size_t{1} << 14, stream_chunk, &job);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* k) { delete k; }

oprig_status cost(const oprig_kernel* k, oprig_cost* out) {
  if (out == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out = oprig_cost{};
  if (k == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->op == Op::kFmaPeak) {
    const uint64_t threads = k->ctx->cpu_threads;
    *out = {threads * k->params.iterations * fma_flops_per_iteration(k->ctx->cpu_isa), 8, threads * 4};
  } else {
    *out = streaming_cost(k->op, k->count);
  }
  return OPRIG_STATUS_OK;
}

const oprig_implementation_v1 kCpu = {OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_CPU,
                                      create, prepare, execute, destroy, cost, nullptr, {}};

}  // namespace
}  // namespace oprig::calibration

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                 uint32_t max_version) {
  if (backend_kind != OPRIG_BACKEND_CPU || max_version < OPRIG_ABI_VERSION) return nullptr;
  return &oprig::calibration::kCpu;
}
