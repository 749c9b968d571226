// Resize on the cpu backend: NEAREST and BILINEAR resampling of NHWC tensors,
// FLOAT_32 and FLOAT_16 (BILINEAR widens fp16 to fp32 a channel block at a
// time, computes, and rounds back once). Everything that depends only on an
// output row or column is worked out once in prepare, in double, exactly as
// the spec writes it (resize/resampling.hpp, shared with the device kernels):
// the input rows and columns each output index reads and BILINEAR's weights,
// rounded once to fp32. Execute then walks output rows;
// NHWC keeps a pixel's channels side by side, so each output pixel is one
// copy of a channel vector (NEAREST) or, for BILINEAR, a blend across two
// columns of a row that was first blended down from two input rows (the
// spec's expression, in its order). No fused multiply-add anywhere, so the
// AVX-512, AVX2 and baseline paths (chosen by the backend's cpu_isa) agree
// bit for bit; the vector paths write large fp32 outputs with streaming
// stores. Output rows are split over the backend's threads with
// cpu_parallel_for.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <vector>

#include "common/half_convert.hpp"
#include "common/kernel.hpp"
#include "resize/resampling.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_resize__cpu;

namespace {

using resize::AxisTable;
using resize::Mode;

// Input columns [begin, end) that BILINEAR reads (downsampling skips some).
struct ColumnRun {
  size_t begin, end;
};

// The parameters (create), the tensors and tables (prepare), as
// resize/resampling.hpp works them out, and the column runs.
struct ResizeCpuKernel : KernelBase, resize::Resampling, resize::Plan {
  const oprig_backend_context* ctx = nullptr;
  std::vector<ColumnRun> runs;
};

// ---- the tables (prepare) -----------------------------------------------------

// The runs of input columns that any output column reads, in order.
std::vector<ColumnRun> column_runs(const AxisTable& columns, int64_t width) {
  std::vector<bool> used(static_cast<size_t>(width), false);
  for (size_t x = 0; x < columns.first.size(); ++x) used[columns.first[x]] = used[columns.second[x]] = true;
  std::vector<ColumnRun> runs;
  for (size_t i = 0; i < used.size(); ++i) {
    if (!used[i]) continue;
    if (!runs.empty() && runs.back().end == i) ++runs.back().end;
    else runs.push_back({i, i + 1});
  }
  return runs;
}

// ---- fp16 <-> fp32 ------------------------------------------------------------

// WidenFn, NarrowFn and the conversions: common/half_convert.hpp.

// ---- output rows ---------------------------------------------------------------

struct Work {
  const ResizeCpuKernel* k;
  const void* src;
  void* dst;
  oprig_cpu_isa isa;
  bool stream;  // fp32 BILINEAR: write output pixels with streaming stores
};

// BILINEAR across one output row: to[x][c] = (1 - wx) v[x0][c] + wx v[x1][c].
using AcrossFn = void (*)(float*, const float*, const AxisTable&, size_t, size_t);

__attribute__((always_inline)) inline void across_plain(float* to, const float* v, const AxisTable& columns,
                                                        size_t out_width, size_t channels) {
  for (size_t x = 0; x < out_width; ++x, to += channels) {
    const float* left = v + columns.first[x] * channels;
    const float* right = v + columns.second[x] * channels;
    const float wx = columns.weight[x], rx = columns.rest[x];
    for (size_t c = 0; c < channels; ++c) to[c] = rx * left[c] + wx * right[c];
  }
}

// The same with streaming (non-temporal) stores, for large outputs: the
// output is not read into the cache before being overwritten (no read for
// ownership) nor kept there. Upsampling writes several output values per
// input value, so writing is most of its time. `to` is vector-aligned and
// channels a multiple of the vector width (checked once per execute). The
// products and sums are those of across_plain, in the same order.
#if defined(__x86_64__)
__attribute__((target("avx2"))) void across_stream_avx2(float* to, const float* v, const AxisTable& columns,
                                                        size_t out_width, size_t channels) {
  for (size_t x = 0; x < out_width; ++x, to += channels) {
    const float* left = v + columns.first[x] * channels;
    const float* right = v + columns.second[x] * channels;
    const __m256 r = _mm256_set1_ps(columns.rest[x]), w = _mm256_set1_ps(columns.weight[x]);
    for (size_t c = 0; c < channels; c += 8)
      _mm256_stream_ps(to + c, _mm256_add_ps(_mm256_mul_ps(r, _mm256_loadu_ps(left + c)),
                                             _mm256_mul_ps(w, _mm256_loadu_ps(right + c))));
  }
  _mm_sfence();  // the streamed row before the thread reports its work done
}
__attribute__((target("avx512f"))) void across_stream_avx512(float* to, const float* v, const AxisTable& columns,
                                                             size_t out_width, size_t channels) {
  for (size_t x = 0; x < out_width; ++x, to += channels) {
    const float* left = v + columns.first[x] * channels;
    const float* right = v + columns.second[x] * channels;
    const __m512 r = _mm512_set1_ps(columns.rest[x]), w = _mm512_set1_ps(columns.weight[x]);
    for (size_t c = 0; c < channels; c += 16)
      _mm512_stream_ps(to + c, _mm512_add_ps(_mm512_mul_ps(r, _mm512_loadu_ps(left + c)),
                                             _mm512_mul_ps(w, _mm512_loadu_ps(right + c))));
  }
  _mm_sfence();
}
#endif

// Output row r (over batch and out_height) as (image, row), stepped one row at
// a time.
struct RowPosition {
  size_t n, y;
  RowPosition(const ResizeCpuKernel& k, size_t r)
      : n(r / static_cast<size_t>(k.out_height)), y(r % static_cast<size_t>(k.out_height)) {}
  void next(const ResizeCpuKernel& k) {
    if (++y < static_cast<size_t>(k.out_height)) return;
    y = 0;
    ++n;
  }
};

template <class T>
__attribute__((always_inline)) inline void nearest_rows(const Work& w, size_t begin, size_t end) {
  const ResizeCpuKernel& k = *w.k;
  const auto channels = static_cast<size_t>(k.channels), width = static_cast<size_t>(k.width);
  const auto out_width = static_cast<size_t>(k.out_width);
  RowPosition at(k, begin);
  for (size_t r = begin; r < end; ++r, at.next(k)) {
    const size_t input_row = at.n * static_cast<size_t>(k.height) + k.rows.first[at.y];
    const T* row = static_cast<const T*>(w.src) + input_row * width * channels;
    T* to = static_cast<T*>(w.dst) + r * out_width * channels;
    for (size_t x = 0; x < out_width; ++x, to += channels) {
      const T* from = row + k.columns.first[x] * channels;
      for (size_t c = 0; c < channels; ++c) to[c] = from[c];
    }
  }
}

constexpr size_t kChunk = 1024;  // fp16 values widened at a time

// BILINEAR, one output row at a time, in the spec's order: first down the
// columns, v = (1 - wy) a + wy c for every input column the row reads (a
// buffer of whole columns of channels, long contiguous loops), then across,
// (1 - wx) v[x0] + wx v[x1] per output pixel. Upsampling reads each input
// column for several output pixels, so the vertical blend is done once per
// column rather than once per pixel.
template <bool kHalf, AcrossFn kStreamAcross>
__attribute__((always_inline)) inline void bilinear_rows(const Work& w, size_t begin, size_t end, WidenFn widen,
                                                         NarrowFn narrow) {
  const ResizeCpuKernel& k = *w.k;
  const auto channels = static_cast<size_t>(k.channels), width = static_cast<size_t>(k.width);
  const auto out_width = static_cast<size_t>(k.out_width);
  std::vector<float> v(width * channels);
  std::vector<float> top, bottom, line;  // fp16: input stretches widened, the output row before narrowing
  if constexpr (kHalf) {
    top.resize(kChunk);
    bottom.resize(kChunk);
    line.resize(out_width * channels);
  }
  RowPosition at(k, begin);
  for (size_t r = begin; r < end; ++r, at.next(k)) {
    const size_t image_row = at.n * static_cast<size_t>(k.height);
    const size_t row0 = (image_row + k.rows.first[at.y]) * width * channels;
    const size_t row1 = (image_row + k.rows.second[at.y]) * width * channels;
    const float wy = k.rows.weight[at.y], ry = k.rows.rest[at.y];
    for (const ColumnRun& run : k.runs) {
      const size_t first = run.begin * channels, count = (run.end - run.begin) * channels;
      if constexpr (!kHalf) {
        const float* a = static_cast<const float*>(w.src) + row0 + first;
        const float* c = static_cast<const float*>(w.src) + row1 + first;
        for (size_t i = 0; i < count; ++i) v[first + i] = ry * a[i] + wy * c[i];
      } else {
        for (size_t done = 0; done < count; done += kChunk) {
          const size_t m = std::min(kChunk, count - done);
          widen(static_cast<const uint16_t*>(w.src) + row0 + first + done, top.data(), m);
          widen(static_cast<const uint16_t*>(w.src) + row1 + first + done, bottom.data(), m);
          float* out = v.data() + first + done;
          for (size_t i = 0; i < m; ++i) out[i] = ry * top[i] + wy * bottom[i];
        }
      }
    }
    if constexpr (!kHalf) {
      float* to = static_cast<float*>(w.dst) + r * out_width * channels;
      if (w.stream) kStreamAcross(to, v.data(), k.columns, out_width, channels);
      else across_plain(to, v.data(), k.columns, out_width, channels);
    } else {
      across_plain(line.data(), v.data(), k.columns, out_width, channels);
      narrow(line.data(), static_cast<uint16_t*>(w.dst) + r * out_width * channels, line.size());
    }
  }
}

template <bool kHalf, AcrossFn kStreamAcross = across_plain>
__attribute__((always_inline)) inline void range_body(const Work& w, size_t begin, size_t end, WidenFn widen,
                                                      NarrowFn narrow) {
  if (w.k->mode == Mode::kBilinear) return bilinear_rows<kHalf, kStreamAcross>(w, begin, end, widen, narrow);
  if constexpr (kHalf) nearest_rows<uint16_t>(w, begin, end);
  else nearest_rows<float>(w, begin, end);
}

// One function per ISA. fp-contract=off: no fused multiply-add, so every path
// rounds the same products and sums. no-tree-loop-distribute-patterns: GCC
// would otherwise turn NEAREST's copy loop into a call to memcpy, whose ISA
// is glibc's choice rather than the backend's cpu_isa.
#define OPRIG_RESIZE_PATH __attribute__((optimize("fp-contract=off", "no-tree-loop-distribute-patterns")))

template <bool kHalf>
OPRIG_RESIZE_PATH void range_scalar(const Work& w, size_t begin, size_t end) {
  range_body<kHalf>(w, begin, end, widen_half_scalar, narrow_half_scalar);
}
#if defined(__x86_64__)
template <bool kHalf>
OPRIG_RESIZE_PATH __attribute__((target("avx2,fma,f16c"))) void range_avx2(const Work& w, size_t begin, size_t end) {
  range_body<kHalf, across_stream_avx2>(w, begin, end, widen_half_f16c, narrow_half_f16c);
}
template <bool kHalf>
OPRIG_RESIZE_PATH __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c,prefer-vector-width=512")))
void range_avx512(const Work& w, size_t begin, size_t end) {
  range_body<kHalf, across_stream_avx512>(w, begin, end, widen_half_f16c, narrow_half_f16c);
}
#endif

template <bool kHalf>
void range_for_isa(const Work& w, size_t begin, size_t end) {
#if defined(__x86_64__)
  if (w.isa == OPRIG_CPU_ISA_AVX512) return range_avx512<kHalf>(w, begin, end);
  if (w.isa == OPRIG_CPU_ISA_AVX2) return range_avx2<kHalf>(w, begin, end);
#endif
  range_scalar<kHalf>(w, begin, end);
}

void run_range(void* arg, size_t begin, size_t end) {
  const Work& w = *static_cast<const Work*>(arg);
  if (w.k->dtype == OPRIG_DTYPE_FLOAT_16) range_for_isa<true>(w, begin, end);
  else range_for_isa<false>(w, begin, end);
}

// ---- the ABI --------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<resize::Resampling> resampling = resize::read_resampling(params, num_params);
  if (!resampling) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) ResizeCpuKernel();
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_resize__cpu;
  k->ctx = ctx;
  static_cast<resize::Resampling&>(*k) = *resampling;
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<ResizeCpuKernel>(handle);
  const oprig_status st = resize::plan_resize(*k, inputs, num_inputs, outputs, num_outputs, k);
  if (st != OPRIG_STATUS_OK) return st;
  k->runs = k->mode == Mode::kBilinear ? column_runs(k->columns, k->width) : std::vector<ColumnRun>{};
  return OPRIG_STATUS_OK;
}

// Whether fp32 BILINEAR streams its output: large enough to be worth it
// (several times a core's L2 and a good share of the L3 it can count on),
// on a vector path, with every output pixel starting on a vector boundary.
bool streams(const ResizeCpuKernel& k, oprig_cpu_isa isa, const void* dst) {
  constexpr size_t kStreamBytes = size_t{8} << 20;
  const size_t lanes = isa == OPRIG_CPU_ISA_AVX512 ? 16 : isa == OPRIG_CPU_ISA_AVX2 ? 8 : 0;
  const auto bytes = static_cast<size_t>(k.batches * k.out_height * k.out_width * k.channels) * 4;
  return k.mode == Mode::kBilinear && k.dtype == OPRIG_DTYPE_FLOAT_32 && lanes != 0 && bytes >= kStreamBytes &&
         static_cast<size_t>(k.channels) % lanes == 0 && reinterpret_cast<uintptr_t>(dst) % (lanes * 4) == 0;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* k = from_handle<ResizeCpuKernel>(handle);
  const auto rows = static_cast<size_t>(k->batches * k->out_height);
  if (rows == 0 || k->channels == 0) return OPRIG_STATUS_OK;
  const auto isa = static_cast<oprig_cpu_isa>(k->ctx->cpu_isa);
  Work work{k, inputs[0].data, outputs[0].data, isa, streams(*k, isa, outputs[0].data)};
  // About 64 Ki output values a thread at least: less is not worth a hand-off.
  const size_t grain = std::max<size_t>(1, (size_t{1} << 16) / static_cast<size_t>(k->out_width * k->channels));
  k->ctx->cpu_parallel_for(k->ctx->cpu_pool, rows, grain, run_range, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<ResizeCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ResizeCpuKernel>(handle);
  *out = resize::resize_cost(*k, *k);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_resize__cpu = {"Resize", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
