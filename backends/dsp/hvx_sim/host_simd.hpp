// Whether the instruction semantics take their x86 SIMD paths (SSE2, which
// every x86-64 CPU has, and AVX2 where the CPU reports it at run time; the
// build stays baseline x86-64). The portable C++ loops are the definition:
// OPRIG_HVX_PORTABLE=1 in the environment makes every instruction take them,
// and OPRIG_HVX_NO_AVX2=1 keeps them to SSE2 (what a CPU without AVX2 runs),
// so the bit-exactness test (tests/backends_dsp/hvx_bitexact) runs every
// path this CPU can against qemu-hexagon.
#pragma once

#include <cstdlib>

namespace oprig::hvx {

#if defined(__x86_64__) && defined(__SSE2__)
inline const bool kHostSimd = std::getenv("OPRIG_HVX_PORTABLE") == nullptr;
inline const bool kHostAvx2 =
    kHostSimd && __builtin_cpu_supports("avx2") && std::getenv("OPRIG_HVX_NO_AVX2") == nullptr;
#else
inline constexpr bool kHostSimd = false;
inline constexpr bool kHostAvx2 = false;
#endif

}  // namespace oprig::hvx
