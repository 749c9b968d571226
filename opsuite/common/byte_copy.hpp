// Byte copies for the cpu kernels that only move memory (Concat, Split,
// Crop), once for all of them: the widest moves the backend's cpu_isa allows
// (glibc's memcpy picks its own ISA at load time and would ignore the user's
// cap, OPRIG_CPU_ISA, so it is not used), copies of 8 MiB and more with
// streaming stores past the cache, spread over the backend's threads by
// ranges of bytes of the side that is dense; and the walks over the layouts
// of strided_copy.hpp: rows of chunks (Concat gathers into the dense tensor,
// Split scatters from it) and a strided block into a dense destination
// (Crop). Threads take ranges of bytes and walk chunk by chunk, so one huge
// chunk splits as evenly as many small ones.
#pragma once

#include <xmmintrin.h>

#include <cstddef>
#include <cstdint>

#include "common/strided_copy.hpp"
#include "oprig/oprig_package.h"

namespace oprig::opsuite {

using ByteCopyFn = void (*)(std::byte* dst, const std::byte* src, size_t n);

// Copies from this size on are streamed past the cache: several times a
// core's L2 and a large share of the L3 a core can count on.
inline constexpr size_t kStreamBytes = size_t{8} << 20;

// The copy for `isa` (an oprig_cpu_isa); with `stream`, non-temporal stores,
// which are weakly ordered: parallel_copy fences them once per thread.
ByteCopyFn byte_copy_for(uint32_t isa, bool stream);

// Bytes [begin, end) of the dense tensor of `rows`, chunk by chunk: gathered
// from the parts into it (Concat: parts are the inputs), or scattered from it
// to the parts (Split: parts are the outputs).
void gather_chunks(const ChunkedRows& rows, std::byte* dense, const std::byte* const* parts, size_t begin, size_t end,
                   ByteCopyFn copy);
void scatter_chunks(const ChunkedRows& rows, const std::byte* dense, std::byte* const* parts, size_t begin, size_t end,
                    ByteCopyFn copy);
// Bytes [begin, end) of the destination of a block whose destination is
// dense (row r at r * bytes from dst_offset), row by row (Crop).
void copy_block_range(const CopyBlock& block, const std::byte* src, std::byte* dst, size_t begin, size_t end,
                      ByteCopyFn copy);

// Copies `total` bytes over the backend's threads: range(begin, end, copy)
// copies bytes [begin, end) with `copy`, which streams from kStreamBytes on.
// 256 KiB a thread at least: a hand-off costs microseconds, about what
// copying that much costs.
template <class Range>
void parallel_copy(const oprig_backend_context& ctx, size_t total, const Range& range) {
  struct Work {
    const Range* range;
    ByteCopyFn copy;
    bool stream;
  };
  const bool stream = total >= kStreamBytes;
  Work work{&range, byte_copy_for(ctx.cpu_isa, stream), stream};
  ctx.cpu_parallel_for(
      ctx.cpu_pool, total, size_t{1} << 18,
      [](void* arg, size_t begin, size_t end) {
        const Work& w = *static_cast<const Work*>(arg);
        (*w.range)(begin, end, w.copy);
        if (w.stream) _mm_sfence();  // before the thread reports its work done
      },
      &work);
}

}  // namespace oprig::opsuite
