// Concat on the cpu backend: one or more tensors of any element type of 1,
// 2, 4 or 8 bytes joined along one axis (a copy needs no arithmetic; a
// quantised tensor keeps its codes, so all share one scale and zero point).
// Seen from the output, which is dense, each input contributes one
// contiguous chunk per "outer" index (the dimensions before axis): chunk k is
// d_axis(k) * inner elements. Threads take ranges of output bytes and walk
// chunk by chunk, so one huge input splits as evenly as many small ones.
// Copies use the widest moves the backend's cpu_isa allows: glibc's memcpy
// picks its own ISA at load time and would ignore the user's cap
// (OPRIG_CPU_ISA), so it is not used. Outputs of 8 MiB and more
// are written with streaming stores, past the cache.
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "common/kernel.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_concat__cpu;

namespace {

// ---- byte copies, one per ISA -------------------------------------------------
// One loop written once over the width of a move, instantiated inside a
// function compiled for each ISA. GCC would turn a plain copy loop into a
// call to memcpy (loop distribution); the attribute keeps each loop the ISA
// it is written for.
#define OPRIG_CONCAT_COPY_FN __attribute__((optimize("no-tree-loop-distribute-patterns"))) void

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
OPRIG_CONCAT_COPY_FN copy_baseline(std::byte* d, const std::byte* s, size_t n) {
  const size_t i = copy_moves<16>(d, s, n, move16);
  copy_tail(d + i, s + i, n - i);
}

OPRIG_CONCAT_COPY_FN __attribute__((target("avx2"))) copy_avx2(std::byte* d, const std::byte* s, size_t n) {
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
OPRIG_CONCAT_COPY_FN __attribute__((target("avx512f,avx512bw")))
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

OPRIG_CONCAT_COPY_FN stream_baseline(std::byte* d, const std::byte* s, size_t n) {
  copy_streaming<16>(d, s, n, copy_baseline, [](std::byte* to, const std::byte* from) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(to), _mm_loadu_si128(reinterpret_cast<const __m128i*>(from)));
  });
}

OPRIG_CONCAT_COPY_FN __attribute__((target("avx2"))) stream_avx2(std::byte* d, const std::byte* s, size_t n) {
  copy_streaming<32>(d, s, n, copy_avx2, [](std::byte* to, const std::byte* from) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(to), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from)));
  });
}

OPRIG_CONCAT_COPY_FN __attribute__((target("avx512f,avx512bw")))
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

struct ConcatCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  int64_t axis = 0;
  // From prepare, in bytes: output row o (one outer index) is chunk 0 of
  // input 0, chunk o of input 1, ...; chunk[k] bytes each, starting at
  // chunk_start[k] within the row.
  std::vector<size_t> chunk, chunk_start;
  size_t row_bytes = 0;
  size_t total_bytes = 0;
  std::vector<const std::byte*> sources;  // execute's input pointers (one execute at a time per instance)
};

struct Work {
  const ConcatCpuKernel* k;
  std::byte* dst;
  CopyFn copy;
  bool stream;  // copy streams past the cache: fence at the end
};

// Output bytes [begin, end), chunk by chunk.
void copy_range(void* arg, size_t begin, size_t end) {
  const Work& w = *static_cast<const Work*>(arg);
  const ConcatCpuKernel& k = *w.k;
  size_t row = begin / k.row_bytes, offset = begin % k.row_bytes;
  size_t input = 0;
  while (offset >= k.chunk_start[input] + k.chunk[input]) ++input;  // the chunk holding offset
  offset -= k.chunk_start[input];
  while (begin < end) {
    const size_t n = std::min(k.chunk[input] - offset, end - begin);
    w.copy(w.dst + begin, k.sources[input] + row * k.chunk[input] + offset, n);
    begin += n;
    offset += n;
    if (offset == k.chunk[input]) {  // on to the next non-empty chunk, maybe of the next row
      offset = 0;
      do {
        if (++input == k.chunk.size()) {
          input = 0;
          ++row;
        }
      } while (k.chunk[input] == 0 && begin < end);
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
  auto* kernel = new (std::nothrow) ConcatCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_concat__cpu;
  kernel->ctx = ctx;
  kernel->axis = static_cast<int64_t>(scalar_param(params, num_params, "axis").value_or(0.0));  // spec default 0
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs < 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& first = inputs[0];
  oprig_tensor& out = outputs[0];
  const size_t esize = element_size(first.dtype);
  if (esize == 0) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != first.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t rank = first.rank;
  auto* k = from_handle<ConcatCpuKernel>(handle);
  if (rank < 1 || k->axis < -rank || k->axis >= rank) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto axis = static_cast<uint32_t>(k->axis < 0 ? k->axis + rank : k->axis);

  out.rank = first.rank;
  std::copy(first.dims, first.dims + OPRIG_MAX_RANK, out.dims);
  out.dims[axis] = 0;
  for (size_t i = 0; i < num_inputs; ++i) {
    const oprig_tensor& in = inputs[i];
    if (in.dtype != first.dtype || in.rank != first.rank) return OPRIG_STATUS_INVALID_ARGUMENT;
    if (in.scale != out.scale || (in.scale != 0 && in.zero_point != out.zero_point))
      return OPRIG_STATUS_UNSUPPORTED;  // a copy cannot requantise
    for (uint32_t d = 0; d < first.rank; ++d)
      if (d != axis && in.dims[d] != first.dims[d]) return OPRIG_STATUS_INVALID_ARGUMENT;
    out.dims[axis] += in.dims[axis];
  }

  size_t outer = 1, inner = esize;
  for (uint32_t d = 0; d < axis; ++d) outer *= static_cast<size_t>(first.dims[d]);
  for (uint32_t d = axis + 1; d < first.rank; ++d) inner *= static_cast<size_t>(first.dims[d]);
  k->chunk.assign(num_inputs, 0);
  k->chunk_start.assign(num_inputs, 0);
  k->sources.assign(num_inputs, nullptr);
  k->row_bytes = 0;
  for (size_t i = 0; i < num_inputs; ++i) {
    k->chunk_start[i] = k->row_bytes;
    k->chunk[i] = static_cast<size_t>(inputs[i].dims[axis]) * inner;
    k->row_bytes += k->chunk[i];
  }
  k->total_bytes = outer * k->row_bytes;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  auto* k = from_handle<ConcatCpuKernel>(handle);
  if (num_inputs != k->chunk.size() || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->total_bytes == 0) return OPRIG_STATUS_OK;
  for (size_t i = 0; i < num_inputs; ++i) k->sources[i] = static_cast<const std::byte*>(inputs[i].data);
  const bool stream = k->total_bytes >= kStreamBytes;
  Work work{k, static_cast<std::byte*>(outputs[0].data), copy_for(k->ctx->cpu_isa, stream), stream};
  // 256 KiB a thread at least: a hand-off costs microseconds, about what
  // copying that much costs.
  k->ctx->cpu_parallel_for(k->ctx->cpu_pool, k->total_bytes, size_t{1} << 18, copy_range, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<ConcatCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ConcatCpuKernel>(handle);
  out->flops = 0;
  out->bytes_read = k->total_bytes;
  out->bytes_written = k->total_bytes;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_concat__cpu = {"Concat", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
