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
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <vector>

#include "common/half_convert.hpp"
#include "common/kernel.hpp"
#include "pool2d/pooling.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_pool2d__cpu;

namespace {

using pool2d::Kind;
enum class Element { kF32, kF16, kCodesU8 };

// The parameters (create) and the tensors (prepare), as pool2d/pooling.hpp reads them.
struct Pool2DCpuKernel : KernelBase, pool2d::Pooling, pool2d::Geometry {
  const oprig_backend_context* ctx = nullptr;
};

// ---- fp16 <-> fp32 ------------------------------------------------------------

// WidenFn, NarrowFn and the conversions: common/half_convert.hpp.

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
  range_body<kKind, kElement, 32>(w, begin, end, widen_half_scalar, narrow_half_scalar);
}
#if defined(__x86_64__)
template <Kind kKind, Element kElement>
OPRIG_POOL2D_PATH __attribute__((target("avx2,fma,f16c"))) void range_avx2(const Work& w, size_t begin, size_t end) {
  range_body<kKind, kElement, 64>(w, begin, end, widen_half_f16c, narrow_half_f16c);
}
template <Kind kKind, Element kElement>
OPRIG_POOL2D_PATH __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c,prefer-vector-width=512")))
void range_avx512(const Work& w, size_t begin, size_t end) {
  range_body<kKind, kElement, 128>(w, begin, end, widen_half_f16c, narrow_half_f16c);
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
  const std::optional<pool2d::Pooling> pooling = pool2d::read_pooling(params, num_params);
  if (!pooling) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) Pool2DCpuKernel();
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_pool2d__cpu;
  k->ctx = ctx;
  static_cast<pool2d::Pooling&>(*k) = *pooling;
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<Pool2DCpuKernel>(handle);
  return pool2d::plan_geometry(*k, inputs, num_inputs, outputs, num_outputs, k);
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
  *out = pool2d::pooling_cost(*k, *k);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_pool2d__cpu = {"Pool2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
