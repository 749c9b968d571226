// See half_convert.hpp.
#include "common/half_convert.hpp"

#include <immintrin.h>

#include "core/half.hpp"

namespace oprig::opsuite {

void widen_half_scalar(const uint16_t* src, float* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = half_to_float(src[i]);
}

void narrow_half_scalar(const float* src, uint16_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = float_to_half(src[i]);
}

#if defined(__x86_64__)
// noipa: GCC's constant-propagated clones of these (Pool2D's n = 64) drew a
// bogus -Waggressive-loop-optimizations on the tail loop.
__attribute__((target("avx2,f16c"), noipa)) void widen_half_f16c(const uint16_t* src, float* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i))));
  for (; i < n; ++i) dst[i] = half_to_float(src[i]);
}

__attribute__((target("avx2,f16c"), noipa)) void narrow_half_f16c(const float* src, uint16_t* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT));
  for (; i < n; ++i) dst[i] = float_to_half(src[i]);
}
#endif

void widen_half(const void* src, float* dst, size_t n, bool f16c) {
  const auto* s = static_cast<const uint16_t*>(src);
#if defined(__x86_64__)
  if (f16c) return widen_half_f16c(s, dst, n);
#endif
  (void)f16c;
  widen_half_scalar(s, dst, n);
}

void narrow_half(const float* src, void* dst, size_t n, bool f16c) {
  auto* d = static_cast<uint16_t*>(dst);
#if defined(__x86_64__)
  if (f16c) return narrow_half_f16c(src, d, n);
#endif
  (void)f16c;
  narrow_half_scalar(src, d, n);
}

}  // namespace oprig::opsuite
