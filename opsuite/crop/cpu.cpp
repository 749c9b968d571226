// Crop on the cpu backend: a strided copy of an NHWC tensor, for any element
// type of 1, 2, 4 or 8 bytes (a copy needs no arithmetic; a quantised tensor
// keeps its codes, so output and input must share scale and zero point).
// The output is dense, so it is cut into "runs": the kept part of one input
// row, or of a whole image when no column is cropped, or the whole tensor when
// nothing is cropped. Threads take ranges of output bytes, so one huge run
// splits as evenly as many small ones. Copies use the widest moves the
// backend's cpu_isa allows: glibc's memcpy picks its own ISA at load time and
// would ignore the user's cap (OPRIG_CPU_ISA), so it is not used. Outputs of 8 MiB and more
// are written with streaming stores, past the cache.
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "common/kernel.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_crop__cpu;

namespace {

// ---- byte copies, one per ISA -------------------------------------------------
// One loop written once over the width of a move, instantiated inside a
// function compiled for each ISA. GCC would turn a plain copy loop into a
// call to memcpy (loop distribution); the attribute keeps each loop the ISA
// it is written for.
#define OPRIG_CROP_COPY_FN __attribute__((optimize("no-tree-loop-distribute-patterns"))) void

// Fewer than 16 bytes, with fixed-size moves the compiler inlines.
__attribute__((always_inline)) inline void copy_tail(std::byte* d, const std::byte* s, size_t n) {
  if (n & 8) { std::memcpy(d, s, 8); d += 8; s += 8; }
  if (n & 4) { std::memcpy(d, s, 4); d += 4; s += 4; }
  if (n & 2) { std::memcpy(d, s, 2); d += 2; s += 2; }
  if (n & 1) *d = *s;
}

// kWidth-byte moves, four at a time, then one at a time; returns where they stopped.
template <size_t kWidth, class Move>
__attribute__((always_inline)) inline size_t copy_moves(std::byte* d, const std::byte* s, size_t n, Move move) {
  size_t i = 0;
  for (; i + 4 * kWidth <= n; i += 4 * kWidth) {
    move(d + i, s + i);
    move(d + i + kWidth, s + i + kWidth);
    move(d + i + 2 * kWidth, s + i + 2 * kWidth);
    move(d + i + 3 * kWidth, s + i + 3 * kWidth);
  }
  for (; i + kWidth <= n; i += kWidth) move(d + i, s + i);
  return i;
}

__attribute__((always_inline)) inline void move16(std::byte* d, const std::byte* s) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm_loadu_si128(reinterpret_cast<const __m128i*>(s)));
}

// The x86-64 baseline (SSE2): 16-byte moves.
OPRIG_CROP_COPY_FN copy_baseline(std::byte* d, const std::byte* s, size_t n) {
  const size_t i = copy_moves<16>(d, s, n, move16);
  copy_tail(d + i, s + i, n - i);
}

OPRIG_CROP_COPY_FN __attribute__((target("avx2"))) copy_avx2(std::byte* d, const std::byte* s, size_t n) {
  size_t i = copy_moves<32>(d, s, n, [](std::byte* to, const std::byte* from) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from)));
  });
  if (i + 16 <= n) {
    move16(d + i, s + i);
    i += 16;
  }
  copy_tail(d + i, s + i, n - i);
}

// 64-byte moves; the last partial vector is one masked move (AVX-512 BW).
OPRIG_CROP_COPY_FN __attribute__((target("avx512f,avx512bw")))
copy_avx512(std::byte* d, const std::byte* s, size_t n) {
  const size_t i = copy_moves<64>(d, s, n, [](std::byte* to, const std::byte* from) {
    _mm512_storeu_si512(to, _mm512_loadu_si512(from));
  });
  if (i < n) {
    const __mmask64 m = ~uint64_t{0} >> (64 - (n - i));
    _mm512_mask_storeu_epi8(d + i, m, _mm512_maskz_loadu_epi8(m, s + i));
  }
}

// Streaming (non-temporal) stores, for outputs much larger than the cache:
// the destination is neither read into the cache first (no read for
// ownership: a third less memory traffic for a copy) nor kept there. Plain
// moves up to the first kWidth-aligned destination byte, aligned streaming
// moves, plain moves for the rest. Streamed bytes are weakly ordered:
// copy_range fences them once before the thread reports its work done.
template <size_t kWidth, class Stream>
__attribute__((always_inline)) inline void copy_streaming(std::byte* d, const std::byte* s, size_t n,
                                                          void (*plain)(std::byte*, const std::byte*, size_t),
                                                          Stream stream) {
  const size_t head = std::min(n, (kWidth - reinterpret_cast<uintptr_t>(d) % kWidth) % kWidth);
  plain(d, s, head);
  const size_t i = head + copy_moves<kWidth>(d + head, s + head, n - head, stream);
  plain(d + i, s + i, n - i);
}

OPRIG_CROP_COPY_FN stream_baseline(std::byte* d, const std::byte* s, size_t n) {
  copy_streaming<16>(d, s, n, copy_baseline, [](std::byte* to, const std::byte* from) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(to), _mm_loadu_si128(reinterpret_cast<const __m128i*>(from)));
  });
}

OPRIG_CROP_COPY_FN __attribute__((target("avx2"))) stream_avx2(std::byte* d, const std::byte* s, size_t n) {
  copy_streaming<32>(d, s, n, copy_avx2, [](std::byte* to, const std::byte* from) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(to), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from)));
  });
}

OPRIG_CROP_COPY_FN __attribute__((target("avx512f,avx512bw")))
stream_avx512(std::byte* d, const std::byte* s, size_t n) {
  copy_streaming<64>(d, s, n, copy_avx512, [](std::byte* to, const std::byte* from) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(to), _mm512_loadu_si512(from));
  });
}

using CopyFn = void (*)(std::byte*, const std::byte*, size_t);

// Outputs from this size on are streamed past the cache: several times a
// core's L2 and a large share of the L3 a core can count on.
constexpr size_t kStreamBytes = size_t{8} << 20;

CopyFn copy_for(uint32_t isa, bool stream) {
  if (isa >= OPRIG_CPU_ISA_AVX512) return stream ? stream_avx512 : copy_avx512;
  if (isa >= OPRIG_CPU_ISA_AVX2) return stream ? stream_avx2 : copy_avx2;
  return stream ? stream_baseline : copy_baseline;
}

// ---- the kernel -----------------------------------------------------------------

struct CropCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  int64_t top = 0, bottom = 0, left = 0, right = 0;
  // From prepare, in bytes: run k of image i starts in the input at
  // src_start + i * src_image_stride + k * src_run_stride.
  size_t run_bytes = 0;
  size_t runs_per_image = 1;
  size_t src_run_stride = 0;
  size_t src_image_stride = 0;
  size_t src_start = 0;
  size_t total_bytes = 0;
};

struct Work {
  const CropCpuKernel* k;
  const std::byte* src;
  std::byte* dst;
  CopyFn copy;
  bool stream;  // copy streams past the cache: fence at the end
};

// Output bytes [begin, end), run by run (one division to find the first).
void copy_range(void* arg, size_t begin, size_t end) {
  const Work& w = *static_cast<const Work*>(arg);
  const CropCpuKernel& k = *w.k;
  const size_t run = begin / k.run_bytes;
  size_t offset = begin % k.run_bytes, image = run / k.runs_per_image, row = run % k.runs_per_image;
  while (begin < end) {
    const size_t n = std::min(k.run_bytes - offset, end - begin);
    w.copy(w.dst + begin, w.src + k.src_start + image * k.src_image_stride + row * k.src_run_stride + offset, n);
    begin += n;
    offset = 0;
    if (++row == k.runs_per_image) {
      row = 0;
      ++image;
    }
  }
  if (w.stream) _mm_sfence();
}

size_t element_size(uint32_t dtype) {
  switch (dtype) {
    case OPRIG_DTYPE_INT_8: case OPRIG_DTYPE_UINT_8: case OPRIG_DTYPE_BOOL_8: return 1;
    case OPRIG_DTYPE_FLOAT_16: case OPRIG_DTYPE_INT_16: case OPRIG_DTYPE_UINT_16: return 2;
    case OPRIG_DTYPE_FLOAT_32: case OPRIG_DTYPE_INT_32: case OPRIG_DTYPE_UINT_32: return 4;
    case OPRIG_DTYPE_FLOAT_64: case OPRIG_DTYPE_INT_64: case OPRIG_DTYPE_UINT_64: return 8;
    default: return 0;
  }
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  int64_t crops[4];
  const char* const names[4] = {"crop_top", "crop_bottom", "crop_left", "crop_right"};
  for (int i = 0; i < 4; ++i) {
    crops[i] = static_cast<int64_t>(scalar_param(params, num_params, names[i]).value_or(0.0));  // spec default 0
    if (crops[i] < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  auto* kernel = new (std::nothrow) CropCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_crop__cpu;
  kernel->ctx = ctx;
  kernel->top = crops[0];
  kernel->bottom = crops[1];
  kernel->left = crops[2];
  kernel->right = crops[3];
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  const size_t esize = element_size(in.dtype);
  if (esize == 0) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != in.dtype || out.scale != in.scale || (in.scale != 0 && out.zero_point != in.zero_point))
    return OPRIG_STATUS_UNSUPPORTED;  // a copy cannot requantise
  if (in.rank != 4) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<CropCpuKernel>(handle);
  const int64_t batches = in.dims[0], height = in.dims[1], width = in.dims[2], channels = in.dims[3];
  if (k->top + k->bottom > height || k->left + k->right > width) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t out_height = height - k->top - k->bottom, out_width = width - k->left - k->right;
  out.rank = 4;
  out.dims[0] = batches;
  out.dims[1] = out_height;
  out.dims[2] = out_width;
  out.dims[3] = channels;

  const size_t pixel = static_cast<size_t>(channels) * esize;
  const size_t in_row = static_cast<size_t>(width) * pixel, in_image = static_cast<size_t>(height) * in_row;
  k->total_bytes = static_cast<size_t>(batches * out_height * out_width) * pixel;
  k->src_start = static_cast<size_t>(k->top) * in_row + static_cast<size_t>(k->left) * pixel;
  k->src_image_stride = in_image;
  k->src_run_stride = in_row;
  if (k->left == 0 && k->right == 0) {
    // Whole rows: the kept rows of one image are contiguous in the input.
    k->runs_per_image = 1;
    k->run_bytes = static_cast<size_t>(out_height) * in_row;
    if (k->top == 0 && k->bottom == 0) {  // nothing cropped: one run
      k->run_bytes = k->total_bytes;
      k->src_image_stride = 0;
    }
  } else {
    k->runs_per_image = static_cast<size_t>(out_height);
    k->run_bytes = static_cast<size_t>(out_width) * pixel;
  }
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* k = from_handle<CropCpuKernel>(handle);
  if (k->total_bytes == 0) return OPRIG_STATUS_OK;
  const bool stream = k->total_bytes >= kStreamBytes;
  Work work{k, static_cast<const std::byte*>(inputs[0].data), static_cast<std::byte*>(outputs[0].data),
            copy_for(k->ctx->cpu_isa, stream), stream};
  // 256 KiB a thread at least: a hand-off costs microseconds, about what
  // copying that much costs.
  k->ctx->cpu_parallel_for(k->ctx->cpu_pool, k->total_bytes, size_t{1} << 18, copy_range, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<CropCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const CropCpuKernel>(handle);
  out->flops = 0;
  out->bytes_read = k->total_bytes;
  out->bytes_written = k->total_bytes;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_crop__cpu = {"Crop", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
