// Resize on the cpu backend: NEAREST and BILINEAR resampling of NHWC tensors,
// FLOAT_32 and FLOAT_16 (BILINEAR widens fp16 to fp32 a channel block at a
// time, computes, and rounds back once). Everything that depends only on an
// output row or column is worked out once in prepare, in double, exactly as
// the spec writes it: the input rows and columns each output index reads and
// BILINEAR's weights, rounded once to fp32. Execute then walks output pixels;
// NHWC keeps a pixel's channels side by side, so each output pixel is one
// copy (NEAREST) or one blend of four input channel vectors (BILINEAR).
// The blend is the spec's expression with no fused multiply-add, so the
// AVX-512, AVX2 and baseline paths (chosen by the backend's cpu_isa) agree
// bit for bit. Output pixels are split over the backend's threads with
// cpu_parallel_for.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <vector>

#include "common/kernel.hpp"
#include "core/half.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_resize__cpu;

namespace {

enum class Mode { kNearest, kBilinear };
enum class Transformation { kAlignCorners, kHalfPixel, kAsymmetric };
enum class Rounding { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };

// Per output index along one axis: the input index or indices it reads and,
// for BILINEAR, the weights of the second one and of the first.
struct AxisTable {
  std::vector<size_t> first, second;
  std::vector<float> weight, rest;  // rest = 1 - weight, rounded on its own
};

struct ResizeCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  Mode mode = Mode::kNearest;
  Transformation transformation = Transformation::kHalfPixel;
  Rounding rounding = Rounding::kRoundPreferFloor;
  int64_t out_height = 0, out_width = 0;
  // From prepare.
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  int64_t batches = 0, height = 0, width = 0, channels = 0;
  AxisTable rows, columns;
};

// ---- the tables (prepare) -----------------------------------------------------

// Left to right in double: exact wherever the exact coordinate is an integer
// or half an integer, so NEAREST breaks ties as exact arithmetic would.
double input_coordinate(Transformation t, int64_t x, int64_t in, int64_t out) {
  const auto xd = static_cast<double>(x), ind = static_cast<double>(in), outd = static_cast<double>(out);
  switch (t) {
    case Transformation::kAlignCorners: return out == 1 ? 0.0 : xd * (ind - 1) / (outd - 1);
    case Transformation::kHalfPixel: return (xd + 0.5) * ind / outd - 0.5;
    case Transformation::kAsymmetric: return xd * ind / outd;
  }
  return 0.0;
}

AxisTable axis_table(const ResizeCpuKernel& k, int64_t in, int64_t out) {
  AxisTable t;
  for (int64_t x = 0; x < out; ++x) {
    const double c = input_coordinate(k.transformation, x, in, out);
    if (k.mode == Mode::kNearest) {
      double index = 0;
      switch (k.rounding) {
        case Rounding::kRoundPreferFloor: index = std::ceil(c - 0.5); break;
        case Rounding::kRoundPreferCeil: index = std::floor(c + 0.5); break;
        case Rounding::kFloor: index = std::floor(c); break;
        case Rounding::kCeil: index = std::ceil(c); break;
      }
      t.first.push_back(static_cast<size_t>(std::clamp(static_cast<int64_t>(index), int64_t{0}, in - 1)));
    } else {
      const double clamped = std::clamp(c, 0.0, static_cast<double>(in - 1));
      const auto first = static_cast<int64_t>(std::floor(clamped));
      const double w = clamped - static_cast<double>(first);
      t.first.push_back(static_cast<size_t>(first));
      t.second.push_back(static_cast<size_t>(std::min(first + 1, in - 1)));
      t.weight.push_back(static_cast<float>(w));
      t.rest.push_back(static_cast<float>(1.0 - w));
    }
  }
  return t;
}

// ---- fp16 <-> fp32 ------------------------------------------------------------

using WidenFn = void (*)(const uint16_t*, float*, size_t);
using NarrowFn = void (*)(const float*, uint16_t*, size_t);

void widen_scalar(const uint16_t* s, float* d, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = half_to_float(s[i]);
}
void narrow_scalar(const float* s, uint16_t* d, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = float_to_half(s[i]);
}

#if defined(__x86_64__)
// noipa: GCC's constant-propagated clones of these (n = 64) drew a bogus
// -Waggressive-loop-optimizations on the tail loop.
__attribute__((target("avx2,f16c"), noipa)) void widen_f16c(const uint16_t* s, float* d, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i))));
  for (; i < n; ++i) d[i] = half_to_float(s[i]);
}
__attribute__((target("avx2,f16c"), noipa)) void narrow_f16c(const float* s, uint16_t* d, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT));
  for (; i < n; ++i) d[i] = float_to_half(s[i]);
}
#endif

// ---- output pixels ------------------------------------------------------------

constexpr size_t kBlock = 64;  // channels blended at a time (fp16 goes through fp32 buffers this long)

struct Work {
  const ResizeCpuKernel* k;
  const void* src;
  void* dst;
  oprig_cpu_isa isa;
};

// y = (1 - wy)((1 - wx) a + wx b) + wy((1 - wx) c + wx d), as the spec writes it.
__attribute__((always_inline)) inline void blend(const float* a, const float* b, const float* c, const float* d,
                                                 float* y, size_t n, float wx, float rx, float wy, float ry) {
  for (size_t i = 0; i < n; ++i) y[i] = ry * (rx * a[i] + wx * b[i]) + wy * (rx * c[i] + wx * d[i]);
}

// Output pixel p as (image, row, column), stepped one pixel at a time
// (no division per pixel).
struct Position {
  size_t n, y, x;
  Position(const ResizeCpuKernel& k, size_t p)
      : n(p / static_cast<size_t>(k.out_height * k.out_width)),
        y(p % static_cast<size_t>(k.out_height * k.out_width) / static_cast<size_t>(k.out_width)),
        x(p % static_cast<size_t>(k.out_width)) {}
  void next(const ResizeCpuKernel& k) {
    if (++x < static_cast<size_t>(k.out_width)) return;
    x = 0;
    if (++y < static_cast<size_t>(k.out_height)) return;
    y = 0;
    ++n;
  }
};

template <class T>
__attribute__((always_inline)) inline void nearest_range(const Work& w, size_t begin, size_t end) {
  const ResizeCpuKernel& k = *w.k;
  const auto channels = static_cast<size_t>(k.channels), width = static_cast<size_t>(k.width);
  const T* src = static_cast<const T*>(w.src);
  T* dst = static_cast<T*>(w.dst);
  Position at(k, begin);
  for (size_t p = begin; p < end; ++p, at.next(k)) {
    const size_t row = at.n * static_cast<size_t>(k.height) + k.rows.first[at.y];
    const T* from = src + (row * width + k.columns.first[at.x]) * channels;
    T* to = dst + p * channels;
    for (size_t c = 0; c < channels; ++c) to[c] = from[c];
  }
}

template <bool kHalf>
__attribute__((always_inline)) inline void bilinear_range(const Work& w, size_t begin, size_t end, WidenFn widen,
                                                          NarrowFn narrow) {
  const ResizeCpuKernel& k = *w.k;
  const auto channels = static_cast<size_t>(k.channels), width = static_cast<size_t>(k.width);
  alignas(64) float buffers[5][kBlock];  // fp16: a, b, c, d widened, and the result
  Position pos(k, begin);
  for (size_t p = begin; p < end; ++p, pos.next(k)) {
    const size_t n = pos.n, y = pos.y, x = pos.x;
    const size_t row0 = (n * static_cast<size_t>(k.height) + k.rows.first[y]) * width;
    const size_t row1 = (n * static_cast<size_t>(k.height) + k.rows.second[y]) * width;
    const size_t at[4] = {(row0 + k.columns.first[x]) * channels, (row0 + k.columns.second[x]) * channels,
                          (row1 + k.columns.first[x]) * channels, (row1 + k.columns.second[x]) * channels};
    const float wx = k.columns.weight[x], rx = k.columns.rest[x], wy = k.rows.weight[y], ry = k.rows.rest[y];
    if constexpr (!kHalf) {
      const float* src = static_cast<const float*>(w.src);
      blend(src + at[0], src + at[1], src + at[2], src + at[3], static_cast<float*>(w.dst) + p * channels, channels,
            wx, rx, wy, ry);
    } else {
      const uint16_t* src = static_cast<const uint16_t*>(w.src);
      uint16_t* dst = static_cast<uint16_t*>(w.dst) + p * channels;
      for (size_t c0 = 0; c0 < channels; c0 += kBlock) {
        const size_t m = std::min(kBlock, channels - c0);
        for (int j = 0; j < 4; ++j) widen(src + at[j] + c0, buffers[j], m);
        blend(buffers[0], buffers[1], buffers[2], buffers[3], buffers[4], m, wx, rx, wy, ry);
        narrow(buffers[4], dst + c0, m);
      }
    }
  }
}

template <bool kHalf>
__attribute__((always_inline)) inline void range_body(const Work& w, size_t begin, size_t end, WidenFn widen,
                                                      NarrowFn narrow) {
  if (w.k->mode == Mode::kBilinear) return bilinear_range<kHalf>(w, begin, end, widen, narrow);
  if constexpr (kHalf) nearest_range<uint16_t>(w, begin, end);
  else nearest_range<float>(w, begin, end);
}

// One function per ISA. fp-contract=off: no fused multiply-add, so every path
// rounds the same products and sums. no-tree-loop-distribute-patterns: GCC
// would otherwise turn NEAREST's copy loop into a call to memcpy, whose ISA
// is glibc's choice rather than the backend's cpu_isa.
#define OPRIG_RESIZE_PATH __attribute__((optimize("fp-contract=off", "no-tree-loop-distribute-patterns")))

template <bool kHalf>
OPRIG_RESIZE_PATH void range_scalar(const Work& w, size_t begin, size_t end) {
  range_body<kHalf>(w, begin, end, widen_scalar, narrow_scalar);
}
#if defined(__x86_64__)
template <bool kHalf>
OPRIG_RESIZE_PATH __attribute__((target("avx2,fma,f16c"))) void range_avx2(const Work& w, size_t begin, size_t end) {
  range_body<kHalf>(w, begin, end, widen_f16c, narrow_f16c);
}
template <bool kHalf>
OPRIG_RESIZE_PATH __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c,prefer-vector-width=512")))
void range_avx512(const Work& w, size_t begin, size_t end) {
  range_body<kHalf>(w, begin, end, widen_f16c, narrow_f16c);
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
  const std::optional<double> out_height = scalar_param(params, num_params, "output_height");
  const std::optional<double> out_width = scalar_param(params, num_params, "output_width");
  if (!out_height || !out_width || *out_height < 1 || *out_width < 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  // Absent enumerations take the spec's defaults: NEAREST, HALF_PIXEL, ROUND_PREFER_FLOOR.
  const int mode = enum_param(params, num_params, "mode", {"NEAREST", "BILINEAR"}).value_or(0);
  const int transformation = enum_param(params, num_params, "coordinate_transformation",
                                        {"ALIGN_CORNERS", "HALF_PIXEL", "ASYMMETRIC"})
                                 .value_or(1);
  const int rounding = enum_param(params, num_params, "nearest_mode",
                                  {"ROUND_PREFER_FLOOR", "ROUND_PREFER_CEIL", "FLOOR", "CEIL"})
                           .value_or(0);
  if (mode < 0 || transformation < 0 || rounding < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) ResizeCpuKernel();
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_resize__cpu;
  k->ctx = ctx;
  k->mode = static_cast<Mode>(mode);
  k->transformation = static_cast<Transformation>(transformation);
  k->rounding = static_cast<Rounding>(rounding);
  k->out_height = static_cast<int64_t>(*out_height);
  k->out_width = static_cast<int64_t>(*out_width);
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (in.rank != 4 || in.dims[1] < 1 || in.dims[2] < 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<ResizeCpuKernel>(handle);
  k->dtype = static_cast<oprig_dtype>(in.dtype);
  k->batches = in.dims[0];
  k->height = in.dims[1];
  k->width = in.dims[2];
  k->channels = in.dims[3];
  k->rows = axis_table(*k, k->height, k->out_height);
  k->columns = axis_table(*k, k->width, k->out_width);
  out.rank = 4;
  out.dims[0] = k->batches;
  out.dims[1] = k->out_height;
  out.dims[2] = k->out_width;
  out.dims[3] = k->channels;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* k = from_handle<ResizeCpuKernel>(handle);
  const auto pixels = static_cast<size_t>(k->batches * k->out_height * k->out_width);
  if (pixels == 0 || k->channels == 0) return OPRIG_STATUS_OK;
  Work work{k, inputs[0].data, outputs[0].data, static_cast<oprig_cpu_isa>(k->ctx->cpu_isa)};
  // About 64 Ki output values a thread at least: less is not worth a hand-off.
  const size_t grain = std::max<size_t>(1, (size_t{1} << 16) / static_cast<size_t>(k->channels));
  k->ctx->cpu_parallel_for(k->ctx->cpu_pool, pixels, grain, run_range, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<ResizeCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ResizeCpuKernel>(handle);
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  const auto outputs = static_cast<uint64_t>(k->batches * k->out_height * k->out_width * k->channels);
  const auto inputs = static_cast<uint64_t>(k->batches * k->height * k->width * k->channels);
  const bool bilinear = k->mode == Mode::kBilinear;
  out->flops = bilinear ? 9 * outputs : 0;  // six products and three sums per value
  // Each output value reads its neighbours (from cache after the first time);
  // count the smaller of what is read and the whole input.
  out->bytes_read = std::min(inputs, (bilinear ? 4 : 1) * outputs) * width;
  out->bytes_written = outputs * width;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_resize__cpu = {"Resize", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
