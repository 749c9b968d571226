// The byte copies of byte_copy.hpp, one per ISA, and the walks that call them.
#include "common/byte_copy.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstring>

namespace oprig::opsuite {
namespace {

// ---- byte copies, one per ISA -------------------------------------------------
// One loop written once over the width of a move, instantiated inside a
// function compiled for each ISA. GCC would turn a plain copy loop into a
// call to memcpy (loop distribution); the attribute keeps each loop the ISA
// it is written for.
#define OPRIG_BYTE_COPY_FN __attribute__((optimize("no-tree-loop-distribute-patterns"))) void

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
OPRIG_BYTE_COPY_FN copy_baseline(std::byte* d, const std::byte* s, size_t n) {
  const size_t i = copy_moves<16>(d, s, n, move16);
  copy_tail(d + i, s + i, n - i);
}

OPRIG_BYTE_COPY_FN __attribute__((target("avx2"))) copy_avx2(std::byte* d, const std::byte* s, size_t n) {
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
OPRIG_BYTE_COPY_FN __attribute__((target("avx512f,avx512bw")))
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
// parallel_copy fences them once before the thread reports its work done.
template <size_t kWidth, class Stream>
__attribute__((always_inline)) inline void copy_streaming(std::byte* d, const std::byte* s, size_t n,
                                                          void (*plain)(std::byte*, const std::byte*, size_t),
                                                          Stream stream) {
  const size_t head = std::min(n, (kWidth - reinterpret_cast<uintptr_t>(d) % kWidth) % kWidth);
  plain(d, s, head);
  const size_t i = head + copy_moves<kWidth>(d + head, s + head, n - head, stream);
  plain(d + i, s + i, n - i);
}

OPRIG_BYTE_COPY_FN stream_baseline(std::byte* d, const std::byte* s, size_t n) {
  copy_streaming<16>(d, s, n, copy_baseline, [](std::byte* to, const std::byte* from) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(to), _mm_loadu_si128(reinterpret_cast<const __m128i*>(from)));
  });
}

OPRIG_BYTE_COPY_FN __attribute__((target("avx2"))) stream_avx2(std::byte* d, const std::byte* s, size_t n) {
  copy_streaming<32>(d, s, n, copy_avx2, [](std::byte* to, const std::byte* from) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(to), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from)));
  });
}

OPRIG_BYTE_COPY_FN __attribute__((target("avx512f,avx512bw")))
stream_avx512(std::byte* d, const std::byte* s, size_t n) {
  copy_streaming<64>(d, s, n, copy_avx512, [](std::byte* to, const std::byte* from) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(to), _mm512_loadu_si512(from));
  });
}

// Rows of chunks, either way: copy_chunk(part, byte of the part, byte of the
// dense tensor, n) for each piece of bytes [begin, end) of the dense tensor.
template <class CopyChunk>
void walk_chunks(const ChunkedRows& c, size_t begin, size_t end, const CopyChunk& copy_chunk) {
  size_t row = begin / c.row_bytes, offset = begin % c.row_bytes;
  size_t part = 0;
  while (offset >= c.start[part] + c.chunk[part]) ++part;  // the chunk holding offset
  offset -= c.start[part];
  while (begin < end) {
    const size_t n = std::min(c.chunk[part] - offset, end - begin);
    copy_chunk(part, row * c.chunk[part] + offset, begin, n);
    begin += n;
    offset += n;
    if (offset == c.chunk[part]) {  // on to the next non-empty chunk, maybe of the next row
      offset = 0;
      do {
        if (++part == c.chunk.size()) {
          part = 0;
          ++row;
        }
      } while (c.chunk[part] == 0 && begin < end);
    }
  }
}

}  // namespace

ByteCopyFn byte_copy_for(uint32_t isa, bool stream) {
  if (isa >= OPRIG_CPU_ISA_AVX512) return stream ? stream_avx512 : copy_avx512;
  if (isa >= OPRIG_CPU_ISA_AVX2) return stream ? stream_avx2 : copy_avx2;
  return stream ? stream_baseline : copy_baseline;
}

void gather_chunks(const ChunkedRows& rows, std::byte* dense, const std::byte* const* parts, size_t begin, size_t end,
                   ByteCopyFn copy) {
  walk_chunks(rows, begin, end,
              [&](size_t part, size_t at, size_t b, size_t n) { copy(dense + b, parts[part] + at, n); });
}

void scatter_chunks(const ChunkedRows& rows, const std::byte* dense, std::byte* const* parts, size_t begin, size_t end,
                    ByteCopyFn copy) {
  walk_chunks(rows, begin, end,
              [&](size_t part, size_t at, size_t b, size_t n) { copy(parts[part] + at, dense + b, n); });
}

void copy_block_range(const CopyBlock& k, const std::byte* src, std::byte* dst, size_t begin, size_t end,
                      ByteCopyFn copy) {
  const size_t run = begin / k.bytes;
  size_t offset = begin % k.bytes, outer = run / k.inner, row = run % k.inner;
  while (begin < end) {
    const size_t n = std::min(k.bytes - offset, end - begin);
    copy(dst + k.dst_offset + begin, src + k.src_offset + outer * k.src_outer + row * k.src_inner + offset, n);
    begin += n;
    offset = 0;
    if (++row == k.inner) {
      row = 0;
      ++outer;
    }
  }
}

}  // namespace oprig::opsuite
