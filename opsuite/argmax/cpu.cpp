// ArgMax on the cpu backend: FLOAT_32 (what the spec declares for CPU), plus
// FLOAT_16 and INT_32 for callers that pass them. Every element becomes an
// int32 key whose integer order is the spec's order: floats map their bits to
// a monotone integer (-0 first becomes +0, so the two tie), NaN maps to
// INT32_MAX (above +inf), integers are their own key. Comparing keys needs no
// NaN care and is one vector instruction.
//
// The input is seen as [outer, n, inner] with the axis in the middle.
//  - inner == 1 (the axis is the last dimension): each row is reduced with
//    one best-key and one best-index vector per accumulator; lanes are merged
//    at the end (greatest key, then the lowest index, or the highest with
//    select_last_index). Few long rows are split into parts over the threads
//    and the parts merged in order.
//  - inner > 1: the lanes run across `inner` (contiguous), the loop walks the
//    axis; a lane takes a new index when its key is greater (or, with
//    select_last_index, not smaller).
// AVX-512 and AVX2 paths with intrinsics, a scalar path in plain C++; all
// three compute the same integers, so they agree bit for bit.
#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "argmax/argmax_plan.hpp"
#include "common/kernel.hpp"
#include "common/order_keys.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_argmax__cpu;

namespace {

// Elements a task should at least cover: below that a thread hand-off costs
// more than it saves.
constexpr size_t kMinTaskElements = size_t{1} << 15;
// At most this many columns (inner positions) per task: their best keys stay
// in L1 while the task walks the axis.
constexpr size_t kColumnBlock = 4096;

struct Best {
  int32_t key;
  int64_t index;
};

// b is better than a under the tie rule.
template <bool kLast>
inline bool better(const Best& b, const Best& a) {
  if (b.key != a.key) return b.key > a.key;
  return kLast ? b.index > a.index : b.index < a.index;
}

struct ArgMaxCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  int64_t axis = 0;
  bool keepdims = true;
  bool last = false;
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  size_t outer = 0, n = 0, inner = 0;
  size_t parts = 1;            // rows split into this many parts (inner == 1, few long rows)
  size_t block = 0;            // columns per task (inner > 1)
  std::vector<Best> partials;  // one per row part, merged after the parallel pass
};

// ---- keys --------------------------------------------------------------------

using order_keys::key_of;  // common/order_keys.hpp

// ---- scalar path -----------------------------------------------------------------

template <bool kLast, class T>
Best row_scalar(const T* p, size_t n) {
  Best best{key_of(p[0]), 0};
  for (size_t k = 1; k < n; ++k) {
    const int32_t key = key_of(p[k]);
    if (kLast ? key >= best.key : key > best.key) best = {key, static_cast<int64_t>(k)};
  }
  return best;
}

template <bool kLast, class T>
void columns_scalar(const T* p, size_t n, size_t inner, size_t width, int32_t* out) {
  int32_t best_key[kColumnBlock];
  for (size_t j = 0; j < width; ++j) {
    best_key[j] = key_of(p[j]);
    out[j] = 0;
  }
  for (size_t k = 1; k < n; ++k) {
    const T* row = p + k * inner;
    for (size_t j = 0; j < width; ++j) {
      const int32_t key = key_of(row[j]);
      if (kLast ? key >= best_key[j] : key > best_key[j]) {
        best_key[j] = key;
        out[j] = static_cast<int32_t>(k);
      }
    }
  }
}

#if defined(__x86_64__)
#pragma GCC diagnostic ignored "-Wpsabi"  // vector arguments only between always-inline functions of one target

// ---- AVX2 path: 8 lanes ----------------------------------------------------------------
#define OPRIG_AVX2 __attribute__((target("avx2,fma,f16c"), always_inline)) inline

using order_keys::key8;
using order_keys::load_key8;

// The first m (< 8) elements; the other lanes are never taken (see `lanes`).
template <class T>
OPRIG_AVX2 __m256i load_key8_partial(const T* p, size_t m) {
  alignas(32) T buf[8] = {};
  std::memcpy(buf, p, m * sizeof(T));
  return load_key8(buf);
}
// Lane mask of the first m lanes.
OPRIG_AVX2 __m256i lanes8(size_t m) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(m)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
// Lanes where `key` replaces `best`: greater, or with kLast not smaller.
template <bool kLast>
OPRIG_AVX2 __m256i takes8(__m256i key, __m256i best) {
  if constexpr (kLast) return _mm256_xor_si256(_mm256_cmpgt_epi32(best, key), _mm256_set1_epi32(-1));
  return _mm256_cmpgt_epi32(key, best);
}

template <bool kLast>
OPRIG_AVX2 Best reduce8(__m256i best, __m256i idx) {
  alignas(32) int32_t k[8], i[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(k), best);
  _mm256_store_si256(reinterpret_cast<__m256i*>(i), idx);
  Best out{k[0], i[0]};
  for (int l = 1; l < 8; ++l)
    if (better<kLast>({k[l], i[l]}, out)) out = {k[l], i[l]};
  return out;
}

template <bool kLast, class T>
__attribute__((target("avx2,fma,f16c"))) Best row_avx2(const T* p, size_t n) {
  if (n < 16) return row_scalar<kLast>(p, n);
  // Two accumulators over interleaved vectors, for instruction-level parallelism.
  const __m256i step = _mm256_set1_epi32(16);
  __m256i i0 = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), i1 = _mm256_add_epi32(i0, _mm256_set1_epi32(8));
  __m256i b0 = load_key8(p), b1 = load_key8(p + 8);
  __m256i x0 = i0, x1 = i1;
  size_t k = 16;
  for (; k + 16 <= n; k += 16) {
    x0 = _mm256_add_epi32(x0, step);
    x1 = _mm256_add_epi32(x1, step);
    const __m256i k0 = load_key8(p + k), k1 = load_key8(p + k + 8);
    const __m256i t0 = takes8<kLast>(k0, b0), t1 = takes8<kLast>(k1, b1);
    b0 = _mm256_blendv_epi8(b0, k0, t0);
    i0 = _mm256_blendv_epi8(i0, x0, t0);
    b1 = _mm256_blendv_epi8(b1, k1, t1);
    i1 = _mm256_blendv_epi8(i1, x1, t1);
  }
  Best best = reduce8<kLast>(b0, i0);
  const Best other = reduce8<kLast>(b1, i1);
  if (better<kLast>(other, best)) best = other;
  for (; k < n; ++k) {
    const Best e{key_of(p[k]), static_cast<int64_t>(k)};
    if (better<kLast>(e, best)) best = e;
  }
  return best;
}

// `width` (<= kColumnBlock) columns starting at p, rows `inner` apart: each
// row segment is read contiguously, the best keys stay in L1 and the best
// indices go straight to `out`.
template <bool kLast, class T>
__attribute__((target("avx2,fma,f16c"))) void columns_avx2(const T* p, size_t n, size_t inner, size_t width,
                                                          int32_t* out) {
  alignas(32) int32_t best[kColumnBlock];
  const size_t full = width / 8 * 8, m = width - full;
  const __m256i tail = lanes8(m);
  for (size_t j = 0; j < full; j += 8) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(best + j), load_key8(p + j));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j), _mm256_setzero_si256());
  }
  if (m) {
    _mm256_maskstore_epi32(best + full, tail, load_key8_partial(p + full, m));
    _mm256_maskstore_epi32(out + full, tail, _mm256_setzero_si256());
  }
  for (size_t k = 1; k < n; ++k) {
    const T* row = p + k * inner;
    const __m256i kk = _mm256_set1_epi32(static_cast<int>(k));
    for (size_t j = 0; j < full; j += 8) {
      const __m256i key = load_key8(row + j);
      const __m256i b = _mm256_load_si256(reinterpret_cast<const __m256i*>(best + j));
      const __m256i t = takes8<kLast>(key, b);
      if (_mm256_testz_si256(t, t)) continue;  // the common case once a few rows are in
      _mm256_store_si256(reinterpret_cast<__m256i*>(best + j), _mm256_blendv_epi8(b, key, t));
      _mm256_maskstore_epi32(out + j, t, kk);
    }
    if (m) {
      const __m256i key = load_key8_partial(row + full, m);
      const __m256i b = _mm256_load_si256(reinterpret_cast<const __m256i*>(best + full));
      const __m256i t = _mm256_and_si256(takes8<kLast>(key, b), tail);
      _mm256_maskstore_epi32(best + full, t, key);
      _mm256_maskstore_epi32(out + full, t, kk);
    }
  }
}

// ---- AVX-512 path: 16 lanes, masked tails ------------------------------------------------
#define OPRIG_AVX512_TARGET "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c"
#define OPRIG_AVX512 __attribute__((target(OPRIG_AVX512_TARGET), always_inline)) inline

using order_keys::kAll;
using order_keys::key16;
using order_keys::load_key16;  // and the masked forms:
OPRIG_AVX512 __m512i load_key16(const float* p, __mmask16 m) { return key16(_mm512_maskz_loadu_ps(m, p)); }
OPRIG_AVX512 __m512i load_key16(const uint16_t* p, __mmask16 m) {
  return key16(_mm512_maskz_cvtph_ps(kAll, _mm256_maskz_loadu_epi16(m, p)));
}
OPRIG_AVX512 __m512i load_key16(const int32_t* p, __mmask16 m) { return _mm512_maskz_loadu_epi32(m, p); }

template <bool kLast>
OPRIG_AVX512 __mmask16 takes16(__m512i key, __m512i best) {
  return kLast ? _mm512_cmpge_epi32_mask(key, best) : _mm512_cmpgt_epi32_mask(key, best);
}

// Through memory: GCC 12's _mm512_reduce_* trip -Wmaybe-uninitialized, and
// this runs once per row.
template <bool kLast>
OPRIG_AVX512 Best reduce16(__m512i best, __m512i idx) {
  alignas(64) int32_t k[16], i[16];
  _mm512_store_si512(k, best);
  _mm512_store_si512(i, idx);
  Best out{k[0], i[0]};
  for (int l = 1; l < 16; ++l)
    if (better<kLast>({k[l], i[l]}, out)) out = {k[l], i[l]};
  return out;
}

template <bool kLast, class T>
__attribute__((target(OPRIG_AVX512_TARGET))) Best row_avx512(const T* p, size_t n) {
  if (n < 32) return row_scalar<kLast>(p, n);
  const __m512i step = _mm512_set1_epi32(32);
  __m512i i0 = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  __m512i i1 = _mm512_add_epi32(i0, _mm512_set1_epi32(16));
  __m512i b0 = load_key16(p), b1 = load_key16(p + 16);
  __m512i x0 = i0, x1 = i1;
  size_t k = 32;
  for (; k + 32 <= n; k += 32) {
    x0 = _mm512_add_epi32(x0, step);
    x1 = _mm512_add_epi32(x1, step);
    const __m512i k0 = load_key16(p + k), k1 = load_key16(p + k + 16);
    const __mmask16 t0 = takes16<kLast>(k0, b0), t1 = takes16<kLast>(k1, b1);
    b0 = _mm512_mask_mov_epi32(b0, t0, k0);
    i0 = _mm512_mask_mov_epi32(i0, t0, x0);
    b1 = _mm512_mask_mov_epi32(b1, t1, k1);
    i1 = _mm512_mask_mov_epi32(i1, t1, x1);
  }
  for (; k < n; k += 16) {  // at most two masked vectors into accumulator 0
    const size_t m = std::min<size_t>(16, n - k);
    const __mmask16 valid = static_cast<__mmask16>((1u << m) - 1);
    const __m512i key = load_key16(p + k, valid);
    const __mmask16 t = takes16<kLast>(key, b0) & valid;
    const __m512i lane_index = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(k)),
                                                _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    // Lane l of accumulator 0 so far holds indices of lane l of every 32-block,
    // all below k: a later element replaces it under the same rule.
    b0 = _mm512_mask_mov_epi32(b0, t, key);
    i0 = _mm512_mask_mov_epi32(i0, t, lane_index);
  }
  Best best = reduce16<kLast>(b0, i0);
  const Best other = reduce16<kLast>(b1, i1);
  if (better<kLast>(other, best)) best = other;
  return best;
}

template <bool kLast, class T>
__attribute__((target(OPRIG_AVX512_TARGET))) void columns_avx512(const T* p, size_t n, size_t inner, size_t width,
                                                                 int32_t* out) {
  alignas(64) int32_t best[kColumnBlock];
  for (size_t j = 0; j < width; j += 16) {
    const __mmask16 valid = static_cast<__mmask16>((1u << std::min<size_t>(16, width - j)) - 1);
    _mm512_mask_storeu_epi32(best + j, valid, load_key16(p + j, valid));
    _mm512_mask_storeu_epi32(out + j, valid, _mm512_setzero_si512());
  }
  for (size_t k = 1; k < n; ++k) {
    const T* row = p + k * inner;
    const __m512i kk = _mm512_set1_epi32(static_cast<int>(k));
    size_t j = 0;
    for (; j + 16 <= width; j += 16) {
      const __m512i key = load_key16(row + j);
      const __mmask16 t = takes16<kLast>(key, _mm512_load_si512(best + j));
      if (t == 0) continue;  // the common case once a few rows are in
      _mm512_mask_store_epi32(best + j, t, key);
      _mm512_mask_storeu_epi32(out + j, t, kk);
    }
    if (j < width) {
      const __mmask16 valid = static_cast<__mmask16>((1u << (width - j)) - 1);
      const __m512i key = load_key16(row + j, valid);
      const __mmask16 t = takes16<kLast>(key, _mm512_load_si512(best + j)) & valid;
      _mm512_mask_store_epi32(best + j, t, key);
      _mm512_mask_storeu_epi32(out + j, t, kk);
    }
  }
}
#endif

// ---- dispatch ---------------------------------------------------------------------------------

template <bool kLast, class T>
Best row_for_isa(oprig_cpu_isa isa, const T* p, size_t n) {
#if defined(__x86_64__)
  if (isa == OPRIG_CPU_ISA_AVX512) return row_avx512<kLast>(p, n);
  if (isa == OPRIG_CPU_ISA_AVX2) return row_avx2<kLast>(p, n);
#endif
  (void)isa;
  return row_scalar<kLast>(p, n);
}

template <bool kLast, class T>
void columns_for_isa(oprig_cpu_isa isa, const T* p, size_t n, size_t inner, size_t width, int32_t* out) {
#if defined(__x86_64__)
  if (isa == OPRIG_CPU_ISA_AVX512) return columns_avx512<kLast>(p, n, inner, width, out);
  if (isa == OPRIG_CPU_ISA_AVX2) return columns_avx2<kLast>(p, n, inner, width, out);
#endif
  (void)isa;
  columns_scalar<kLast>(p, n, inner, width, out);
}

struct Work {
  ArgMaxCpuKernel* k;
  const void* src;
  int32_t* dst;
  oprig_cpu_isa isa;
};

// Tasks: whole rows (parts == 1) or row parts into k->partials.
template <bool kLast, class T>
void rows_task(const Work& w, size_t begin, size_t end) {
  const ArgMaxCpuKernel& k = *w.k;
  const T* src = static_cast<const T*>(w.src);
  for (size_t t = begin; t < end; ++t) {
    if (k.parts == 1) {
      w.dst[t] = static_cast<int32_t>(row_for_isa<kLast>(w.isa, src + t * k.n, k.n).index);
      continue;
    }
    const size_t row = t / k.parts, part = t % k.parts;
    const size_t from = k.n * part / k.parts, to = k.n * (part + 1) / k.parts;
    Best b = row_for_isa<kLast>(w.isa, src + row * k.n + from, to - from);
    b.index += static_cast<int64_t>(from);
    w.k->partials[t] = b;
  }
}

// Tasks: (outer position, block of k.block columns).
template <bool kLast, class T>
void columns_task(const Work& w, size_t begin, size_t end) {
  const ArgMaxCpuKernel& k = *w.k;
  const size_t blocks = (k.inner + k.block - 1) / k.block;
  const T* src = static_cast<const T*>(w.src);
  for (size_t t = begin; t < end; ++t) {
    const size_t o = t / blocks, j = (t % blocks) * k.block;
    const size_t width = std::min(k.block, k.inner - j);
    columns_for_isa<kLast>(w.isa, src + o * k.n * k.inner + j, k.n, k.inner, width, w.dst + o * k.inner + j);
  }
}

template <bool kLast, class T>
void run_typed(void* arg, size_t begin, size_t end) {
  const Work& w = *static_cast<const Work*>(arg);
  if (w.k->inner == 1) rows_task<kLast, T>(w, begin, end);
  else columns_task<kLast, T>(w, begin, end);
}

using TaskFn = void (*)(void*, size_t, size_t);

template <class T>
TaskFn task_for(bool last) {
  return last ? run_typed<true, T> : run_typed<false, T>;
}

// ---- the ABI ------------------------------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* kernel = new (std::nothrow) ArgMaxCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_argmax__cpu;
  kernel->ctx = ctx;
  const argmax::Params p = argmax::read_params(params, num_params);
  kernel->axis = p.axis;
  kernel->keepdims = p.keepdims;
  kernel->last = p.last;
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<ArgMaxCpuKernel>(handle);
  argmax::Shape shape;
  const oprig_status st =
      argmax::plan_shape({k->axis, k->keepdims, k->last}, inputs, num_inputs, outputs, num_outputs, &shape);
  if (st != OPRIG_STATUS_OK) return st;
  k->dtype = shape.dtype;
  k->outer = static_cast<size_t>(shape.outer);
  k->n = static_cast<size_t>(shape.n);
  k->inner = static_cast<size_t>(shape.inner);
  // Few long rows: split each into parts so every thread has work.
  const size_t threads = std::max<uint32_t>(1, k->ctx->cpu_threads);
  k->parts = 1;
  if (k->inner == 1 && k->outer < threads && k->n >= 2 * kMinTaskElements)
    k->parts = std::min(threads, k->n / kMinTaskElements);
  // Column blocks: a multiple of 64 (whole cache lines), small enough that one
  // outer position still feeds every thread.
  const size_t per_thread = (k->inner + threads - 1) / threads;
  k->block = std::clamp<size_t>((per_thread + 63) / 64 * 64, 64, kColumnBlock);
  try {
    k->partials.assign(k->parts > 1 ? k->outer * k->parts : 0, Best{});
  } catch (const std::bad_alloc&) {
    return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<ArgMaxCpuKernel>(handle);
  if (k->outer == 0 || k->inner == 0) return OPRIG_STATUS_OK;  // an empty output
  Work work{k, inputs[0].data, static_cast<int32_t*>(outputs[0].data),
            static_cast<oprig_cpu_isa>(k->ctx->cpu_isa)};
  TaskFn fn = k->dtype == OPRIG_DTYPE_FLOAT_16 ? task_for<uint16_t>(k->last)
              : k->dtype == OPRIG_DTYPE_INT_32 ? task_for<int32_t>(k->last)
                                               : task_for<float>(k->last);
  size_t tasks, grain;
  if (k->inner == 1) {
    tasks = k->outer * k->parts;
    grain = k->parts > 1 ? 1 : std::max<size_t>(1, kMinTaskElements / k->n);
  } else {
    tasks = k->outer * ((k->inner + k->block - 1) / k->block);
    grain = std::max<size_t>(1, kMinTaskElements / (k->n * k->block));
  }
  k->ctx->cpu_parallel_for(k->ctx->cpu_pool, tasks, grain, fn, &work);
  if (k->parts > 1) {
    for (size_t row = 0; row < k->outer; ++row) {
      Best best = k->partials[row * k->parts];
      for (size_t part = 1; part < k->parts; ++part) {
        const Best& b = k->partials[row * k->parts + part];
        if (k->last ? better<true>(b, best) : better<false>(b, best)) best = b;
      }
      work.dst[row] = static_cast<int32_t>(best.index);
    }
  }
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<ArgMaxCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ArgMaxCpuKernel>(handle);
  const uint64_t elements = k->outer * k->n * k->inner;
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  out->flops = elements;  // one comparison per element
  out->bytes_read = elements * width;
  out->bytes_written = k->outer * k->inner * 4;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_argmax__cpu = {"ArgMax", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
