// Pool2D on the cpu backend: MAX and AVG pooling of NHWC tensors, FLOAT_32,
// FLOAT_16 (widened to fp32 a window cell at a time, reduced in fp32,
// rounded back once) and quantised UINT_8 (codes reduced exactly in int32:
// MAX of codes is the code of the largest value, AVG a sum of codes; the
// result requantised once in double, rounding halves away from zero, as the
// harness's reference rounding does). NHWC puts the channels of one pixel side by side, so
// each output pixel is a loop over its window's input pixels that combines
// whole channel vectors: one vector max or add per window cell and channel
// block, the block's running values kept in registers. Window cells in the
// padding are skipped rather than read as -inf or 0, so AVG divides by the
// cells it read (or by the whole window with count_include_pad). Each lane
// reduces its channel over the window in the same order on every path, with
// no fused multiply-add, so the AVX-512, AVX2 and baseline paths (chosen by
// the backend's cpu_isa) agree bit for bit. Output pixels are split over the
// backend's threads with cpu_parallel_for.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <vector>

#include "common/kernel.hpp"
#include "core/half.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_pool2d__cpu;

namespace {

enum class Kind { kMax, kAvg };
enum class Element { kF32, kF16, kCodesU8 };

struct Pool2DCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  Kind kind = Kind::kMax;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  bool count_include_pad = false;
  // From prepare.
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  double in_scale = 0, out_scale = 0;  // UINT_8: real = scale * (code - zero point)
  int32_t in_zero = 0, out_zero = 0;
  int64_t batches = 0, height = 0, width = 0, channels = 0, out_height = 0, out_width = 0;
};

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

// ---- one output pixel -----------------------------------------------------------

// MAX keeps two running values per channel: the largest, as `x > acc ? x :
// acc` (one vector max: it passes over NaN), and the last NaN met, if any
// (x != x only for NaN), which wins at the end. Two short dependency chains
// instead of one long select: a third faster than a single NaN-aware select.
__attribute__((always_inline)) inline float larger(float acc, float x) { return x > acc ? x : acc; }
__attribute__((always_inline)) inline float nan_of(float seen, float x) { return x != x ? x : seen; }

// Channels reduced together: a block's running values stay in registers.
// Each ISA path takes blocks of its own size first (AVX-512 128 channels, 8
// vectors; AVX2 64; the baseline 32), then half that, then the rest.
constexpr size_t kMaxBlock = 128;

struct Window {
  int64_t h_begin, h_end, w_begin, w_end;  // input rows and columns inside the input
  int64_t cells;                           // input elements in the window
  float divisor;                           // AVG: cells, or the whole window with count_include_pad
};

// One block of channels of one output pixel, from channel `c0`: kLanes of
// them (a constant trip count the compiler unrolls into registers), or, with
// kLanes 0, the last `n` (< kMaxBlock).
template <Kind kKind, bool kHalf, size_t kLanes>
__attribute__((always_inline)) inline void pool_block_float(const Pool2DCpuKernel& k, const void* src, void* dst,
                                                      size_t image_offset, const Window& win, size_t c0, size_t n,
                                                      WidenFn widen, NarrowFn narrow) {
  const size_t count = kLanes != 0 ? kLanes : n;
  alignas(64) float acc[kMaxBlock];
  alignas(64) float seen[kMaxBlock];  // MAX: the last NaN met, else 0
  alignas(64) float cell[kMaxBlock];
  const float init = kKind == Kind::kMax ? -std::numeric_limits<float>::infinity() : 0.0f;
  for (size_t i = 0; i < count; ++i) acc[i] = init;
  if constexpr (kKind == Kind::kMax)
    for (size_t i = 0; i < count; ++i) seen[i] = 0.0f;
  const auto channels = static_cast<size_t>(k.channels), width = static_cast<size_t>(k.width);
  for (int64_t h = win.h_begin; h < win.h_end; ++h) {
    const size_t row = (image_offset + static_cast<size_t>(h)) * width;
    for (int64_t w = win.w_begin; w < win.w_end; ++w) {
      const size_t at = (row + static_cast<size_t>(w)) * channels + c0;
      const float* x;
      if constexpr (kHalf) {
        widen(static_cast<const uint16_t*>(src) + at, cell, count);
        x = cell;
      } else {
        x = static_cast<const float*>(src) + at;
      }
      if constexpr (kKind == Kind::kMax) {
        for (size_t i = 0; i < count; ++i) acc[i] = larger(acc[i], x[i]);
        for (size_t i = 0; i < count; ++i) seen[i] = nan_of(seen[i], x[i]);
      } else {
        for (size_t i = 0; i < count; ++i) acc[i] += x[i];
      }
    }
  }
  if constexpr (kKind == Kind::kMax)
    for (size_t i = 0; i < count; ++i) acc[i] = nan_of(acc[i], seen[i]);
  else
    for (size_t i = 0; i < count; ++i) acc[i] = acc[i] / win.divisor;
  if constexpr (kHalf) {
    narrow(acc, static_cast<uint16_t*>(dst) + c0, count);
  } else {
    float* y = static_cast<float*>(dst) + c0;
    for (size_t i = 0; i < count; ++i) y[i] = acc[i];
  }
}

// One code, rounded half away from zero and clamped: the reference's rule.
inline uint8_t requantize(double real, double scale, int32_t zero) {
  const double code = std::round(real / scale) + zero;
  return static_cast<uint8_t>(std::clamp(code, 0.0, 255.0));
}

// The UINT_8 counterpart of pool_block_float: codes combined in int32 (exact),
// then one requantisation per output value. MAX with the output quantised
// like the input keeps the largest code as it is.
template <Kind kKind, size_t kLanes>
__attribute__((always_inline)) inline void pool_block_codes(const Pool2DCpuKernel& k, const void* src, void* dst,
                                                            size_t image_offset, const Window& win, size_t c0,
                                                            size_t n) {
  const size_t count = kLanes != 0 ? kLanes : n;
  alignas(64) int32_t acc[kMaxBlock];
  for (size_t i = 0; i < count; ++i) acc[i] = 0;  // no code is below 0; every window holds a cell
  const auto channels = static_cast<size_t>(k.channels), width = static_cast<size_t>(k.width);
  for (int64_t h = win.h_begin; h < win.h_end; ++h) {
    const size_t row = (image_offset + static_cast<size_t>(h)) * width;
    for (int64_t w = win.w_begin; w < win.w_end; ++w) {
      const uint8_t* x = static_cast<const uint8_t*>(src) + (row + static_cast<size_t>(w)) * channels + c0;
      for (size_t i = 0; i < count; ++i) {
        if constexpr (kKind == Kind::kMax) acc[i] = std::max(acc[i], static_cast<int32_t>(x[i]));
        else acc[i] += x[i];
      }
    }
  }
  uint8_t* y = static_cast<uint8_t*>(dst) + c0;
  const bool same = k.in_scale == k.out_scale && k.in_zero == k.out_zero;
  const auto divisor = static_cast<int64_t>(win.divisor);
  for (size_t i = 0; i < count; ++i) {
    if constexpr (kKind == Kind::kMax) {
      y[i] = same ? static_cast<uint8_t>(acc[i])
                  : requantize(k.in_scale * (acc[i] - k.in_zero), k.out_scale, k.out_zero);
    } else if (same) {
      // The mean in codes is (sum - cells * zero) / divisor exactly; round it
      // half away from zero in integers, where means of 2 or 4 codes often
      // land exactly on a half.
      const int64_t a = acc[i] - win.cells * k.in_zero;
      const int64_t magnitude = (2 * (a < 0 ? -a : a) + divisor) / (2 * divisor);
      y[i] = static_cast<uint8_t>(std::clamp<int64_t>(k.out_zero + (a < 0 ? -magnitude : magnitude), 0, 255));
    } else {
      const double sum = k.in_scale * (static_cast<double>(acc[i]) - static_cast<double>(win.cells * k.in_zero));
      y[i] = requantize(sum / win.divisor, k.out_scale, k.out_zero);
    }
  }
}

template <Kind kKind, Element kElement, size_t kLanes>
__attribute__((always_inline)) inline void pool_block(const Pool2DCpuKernel& k, const void* src, void* dst,
                                                      size_t image_offset, const Window& win, size_t c0, size_t n,
                                                      WidenFn widen, NarrowFn narrow) {
  if constexpr (kElement == Element::kCodesU8)
    pool_block_codes<kKind, kLanes>(k, src, dst, image_offset, win, c0, n);
  else
    pool_block_float<kKind, kElement == Element::kF16, kLanes>(k, src, dst, image_offset, win, c0, n, widen, narrow);
}

struct Work {
  const Pool2DCpuKernel* k;
  const void* src;
  void* dst;
  oprig_cpu_isa isa;
};

// Output pixels [begin, end) (over batch, out_height, out_width).
template <Kind kKind, Element kElement, size_t kBlock>
__attribute__((always_inline)) inline void range_body(const Work& work, size_t begin, size_t end, WidenFn widen,
                                                      NarrowFn narrow) {
  const Pool2DCpuKernel& k = *work.k;
  const auto channels = static_cast<size_t>(k.channels);
  const size_t per_image = static_cast<size_t>(k.out_height * k.out_width);
  const size_t esize = kElement == Element::kF32 ? 4 : kElement == Element::kF16 ? 2 : 1;
  // Where `begin` is; then one step at a time (no division per pixel).
  auto n = static_cast<int64_t>(begin / per_image);
  auto oh = static_cast<int64_t>(begin % per_image) / k.out_width;
  auto ow = static_cast<int64_t>(begin % per_image) % k.out_width;
  for (size_t p = begin; p < end; ++p, ++ow) {
    if (ow == k.out_width) {
      ow = 0;
      if (++oh == k.out_height) {
        oh = 0;
        ++n;
      }
    }
    const int64_t h0 = oh * k.stride_h - k.pad_top, w0 = ow * k.stride_w - k.pad_left;
    Window win{std::max<int64_t>(h0, 0), std::min(h0 + k.kernel_h, k.height), std::max<int64_t>(w0, 0),
               std::min(w0 + k.kernel_w, k.width), 0, 0.0f};
    win.cells = (win.h_end - win.h_begin) * (win.w_end - win.w_begin);
    win.divisor = static_cast<float>(k.count_include_pad ? k.kernel_h * k.kernel_w : win.cells);
    const size_t image_offset = static_cast<size_t>(n * k.height);
    void* dst = static_cast<std::byte*>(work.dst) + p * channels * esize;
    size_t c0 = 0;
    for (; c0 + kBlock <= channels; c0 += kBlock)
      pool_block<kKind, kElement, kBlock>(k, work.src, dst, image_offset, win, c0, kBlock, widen, narrow);
    if (c0 + kBlock / 2 <= channels) {
      pool_block<kKind, kElement, kBlock / 2>(k, work.src, dst, image_offset, win, c0, kBlock / 2, widen, narrow);
      c0 += kBlock / 2;
    }
    if (c0 < channels)
      pool_block<kKind, kElement, 0>(k, work.src, dst, image_offset, win, c0, channels - c0, widen, narrow);
  }
}

// One function per ISA. no-tree-loop-distribute-patterns: GCC would
// otherwise turn the block's fill and copy loops into calls to memset and
// memcpy, whose ISA is glibc's choice rather than the backend's cpu_isa.
#define OPRIG_POOL2D_PATH __attribute__((optimize("no-tree-loop-distribute-patterns")))

template <Kind kKind, Element kElement>
OPRIG_POOL2D_PATH void range_scalar(const Work& w, size_t begin, size_t end) {
  range_body<kKind, kElement, 32>(w, begin, end, widen_scalar, narrow_scalar);
}
#if defined(__x86_64__)
template <Kind kKind, Element kElement>
OPRIG_POOL2D_PATH __attribute__((target("avx2,fma,f16c"))) void range_avx2(const Work& w, size_t begin, size_t end) {
  range_body<kKind, kElement, 64>(w, begin, end, widen_f16c, narrow_f16c);
}
template <Kind kKind, Element kElement>
OPRIG_POOL2D_PATH __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c,prefer-vector-width=512")))
void range_avx512(const Work& w, size_t begin, size_t end) {
  range_body<kKind, kElement, 128>(w, begin, end, widen_f16c, narrow_f16c);
}
#endif

template <Kind kKind, Element kElement>
void range_for_isa(const Work& w, size_t begin, size_t end) {
#if defined(__x86_64__)
  if (w.isa == OPRIG_CPU_ISA_AVX512) return range_avx512<kKind, kElement>(w, begin, end);
  if (w.isa == OPRIG_CPU_ISA_AVX2) return range_avx2<kKind, kElement>(w, begin, end);
#endif
  range_scalar<kKind, kElement>(w, begin, end);
}

template <Kind kKind>
void run_kind(const Work& w, size_t begin, size_t end) {
  switch (w.k->dtype) {
    case OPRIG_DTYPE_FLOAT_16: return range_for_isa<kKind, Element::kF16>(w, begin, end);
    case OPRIG_DTYPE_UINT_8: return range_for_isa<kKind, Element::kCodesU8>(w, begin, end);
    default: return range_for_isa<kKind, Element::kF32>(w, begin, end);
  }
}

void run_range(void* arg, size_t begin, size_t end) {
  const Work& w = *static_cast<const Work*>(arg);
  if (w.k->kind == Kind::kMax) run_kind<Kind::kMax>(w, begin, end);
  else run_kind<Kind::kAvg>(w, begin, end);
}

// ---- the ABI --------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<int> type = enum_param(params, num_params, "type", {"MAX", "AVG"});
  const std::optional<std::vector<int64_t>> kernel = int_list_param(params, num_params, "kernel");
  if (!type || *type < 0 || !kernel || kernel->size() != 2) return OPRIG_STATUS_INVALID_ARGUMENT;  // mandatory
  const std::vector<int64_t> stride = int_list_param(params, num_params, "stride").value_or(std::vector<int64_t>{1, 1});
  const std::vector<int64_t> pads =
      int_list_param(params, num_params, "pads").value_or(std::vector<int64_t>{0, 0, 0, 0});
  if (stride.size() != 2 || pads.size() != 4) return OPRIG_STATUS_INVALID_ARGUMENT;
  for (int axis = 0; axis < 2; ++axis) {
    const int64_t k = (*kernel)[axis];
    if (k < 1 || stride[axis] < 1) return OPRIG_STATUS_INVALID_ARGUMENT;
    // A window of padding only has no value to give: the spec rules it out.
    if (pads[axis] < 0 || pads[axis + 2] < 0 || pads[axis] >= k || pads[axis + 2] >= k)
      return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  auto* k = new (std::nothrow) Pool2DCpuKernel();
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_pool2d__cpu;
  k->ctx = ctx;
  k->kind = *type == 0 ? Kind::kMax : Kind::kAvg;
  k->kernel_h = (*kernel)[0];
  k->kernel_w = (*kernel)[1];
  k->stride_h = stride[0];
  k->stride_w = stride[1];
  k->pad_top = pads[0];
  k->pad_left = pads[1];
  k->pad_bottom = pads[2];
  k->pad_right = pads[3];
  k->count_include_pad = scalar_param(params, num_params, "count_include_pad").value_or(0.0) != 0.0;
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  const bool codes = in.dtype == OPRIG_DTYPE_UINT_8;
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16 && !codes) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (codes != (in.scale > 0) || codes != (out.scale > 0)) return OPRIG_STATUS_UNSUPPORTED;  // UINT_8 is quantised
  if (in.rank != 4) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<Pool2DCpuKernel>(handle);
  const int64_t padded_h = in.dims[1] + k->pad_top + k->pad_bottom, padded_w = in.dims[2] + k->pad_left + k->pad_right;
  if (k->kernel_h > padded_h || k->kernel_w > padded_w) return OPRIG_STATUS_INVALID_ARGUMENT;
  k->dtype = static_cast<oprig_dtype>(in.dtype);
  k->in_scale = in.scale;
  k->in_zero = in.zero_point;
  k->out_scale = out.scale;
  k->out_zero = out.zero_point;
  k->batches = in.dims[0];
  k->height = in.dims[1];
  k->width = in.dims[2];
  k->channels = in.dims[3];
  k->out_height = (padded_h - k->kernel_h) / k->stride_h + 1;
  k->out_width = (padded_w - k->kernel_w) / k->stride_w + 1;
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
  const auto* k = from_handle<Pool2DCpuKernel>(handle);
  const auto pixels = static_cast<size_t>(k->batches * k->out_height * k->out_width);
  if (pixels == 0 || k->channels == 0) return OPRIG_STATUS_OK;
  Work work{k, inputs[0].data, outputs[0].data, static_cast<oprig_cpu_isa>(k->ctx->cpu_isa)};
  // About 64 Ki window-cell channel values a thread at least: less is not
  // worth a hand-off.
  const auto per_pixel = static_cast<size_t>(k->kernel_h * k->kernel_w * k->channels);
  const size_t grain = std::max<size_t>(1, (size_t{1} << 16) / per_pixel);
  k->ctx->cpu_parallel_for(k->ctx->cpu_pool, pixels, grain, run_range, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<Pool2DCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const Pool2DCpuKernel>(handle);
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_32 ? 4 : k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 1;
  const auto outputs = static_cast<uint64_t>(k->batches * k->out_height * k->out_width * k->channels);
  out->flops = outputs * static_cast<uint64_t>(k->kernel_h * k->kernel_w);  // one max or add per window cell
  // Every input element once (overlapping windows re-read from cache).
  out->bytes_read = static_cast<uint64_t>(k->batches * k->height * k->width * k->channels) * width;
  out->bytes_written = outputs * width;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_pool2d__cpu = {"Pool2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
