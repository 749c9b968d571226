// TopK on the cpu backend: FLOAT_32 (what the spec declares for CPU), plus
// FLOAT_16 and INT_32 for callers that pass them.
//
// Every element gets a 64-bit rank that is unique and orders exactly as the
// spec: the high half is the element's int32 key (floats map their bits to a
// monotone integer, -0 becomes +0, NaN becomes INT32_MAX; integers are their
// own key; bitwise-not for smallest-first), the low half is the bitwise-not
// of its index, so that among equal keys the lower index ranks higher. TopK
// is then "the k greatest ranks", with no ties left to break.
//  - Small k (k <= 256 and at most n/16): one filtering pass. Elements whose
//    key is above a threshold are appended to a candidate buffer; when it
//    fills, nth_element keeps the k best and the threshold rises to the
//    least of them (an element with an equal key comes later, so it ranks
//    lower and cannot enter). The test runs on 16 (AVX-512) or 8 (AVX2) keys
//    at once and AVX-512 appends with compresses, so after the first part of
//    a random line almost every block is one compare and one branch.
//    On AVX-512 with k <= 16 the k best instead live sorted in one register
//    and an entering element is inserted with a compare and two permutes.
//    The pre-test compares values, not keys (one instruction per vector; see
//    float_of_key). One long line is split over the threads, each part
//    filtered on its own, and the parts' winners merged.
//  - Otherwise: radix selection of the k-th greatest key over the whole line,
//    the winners gathered in index order, radix-sorted when sorted is asked.
// Lines along an inner axis (inner > 1) are copied into a contiguous buffer
// first, 16 lines at a time from contiguous row segments.
// All paths select the same ranks, so every ISA gives identical outputs.
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <vector>

#include "common/kernel.hpp"
#include "common/order_keys.hpp"
#include "top_k/top_k_plan.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_top_k__cpu;

namespace {

constexpr size_t kMaxFilterK = 256;
constexpr size_t kMinTaskElements = size_t{1} << 15;  // less work per task is not worth a hand-off
constexpr size_t kGatherLines = 16;                   // lines copied together along an inner axis

struct TopKCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  int64_t k_param = 0, axis_param = -1;
  bool largest = true, sorted = true;
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  size_t outer = 0, n = 0, inner = 0, k = 0;
  size_t parts = 1;              // one line split into parts (inner == 1, few long lines)
  std::vector<uint64_t> merged;  // parts * k winners per line, merged after the parallel pass
};

// ---- keys and ranks ------------------------------------------------------------------------

using order_keys::key_of;  // common/order_keys.hpp

// flip: 0 for largest, -1 (bitwise not) for smallest.
template <class T>
inline int32_t oriented_key(T x, int32_t flip) {
  return key_of(x) ^ flip;
}

inline uint64_t rank_of(int32_t key, size_t index) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(key) ^ 0x80000000u) << 32) |
         static_cast<uint32_t>(~static_cast<uint32_t>(index));
}
inline int32_t key_of_rank(uint64_t rank) { return static_cast<int32_t>(static_cast<uint32_t>(rank >> 32) ^ 0x80000000u); }
inline size_t index_of_rank(uint64_t rank) { return static_cast<uint32_t>(~static_cast<uint32_t>(rank)); }

// ---- the filter pass ----------------------------------------------------------------------------
// Candidates: elements that may still be among the k best. Appending is cheap
// (no ordering); when the buffer fills, the k best are kept (nth_element over
// their ranks) and the threshold rises to the least kept key. An element
// whose key is not above the threshold cannot enter: an equal key comes
// later than the kept one, so it ranks lower.

struct Candidates {
  int32_t* keys;     // capacity + kSlack
  int32_t* index;    // capacity + kSlack
  uint64_t* ranks;   // capacity + kSlack
  int32_t* scratch;  // capacity + kSlack
  size_t capacity = 0, k = 0, count = 0;
  int32_t threshold = INT32_MIN;

  static constexpr size_t kSlack = 32;  // a vector block may be stored whole past count
  static size_t capacity_for(size_t k) { return 4 * k + 64; }

  // Keeps exactly the k best (count >= k), threshold the least of them.
  void compact() {
    for (size_t i = 0; i < count; ++i) ranks[i] = rank_of(keys[i], static_cast<size_t>(index[i]));
    std::nth_element(ranks, ranks + (k - 1), ranks + count, std::greater<>());
    for (size_t i = 0; i < k; ++i) {
      keys[i] = key_of_rank(ranks[i]);
      index[i] = static_cast<int32_t>(index_of_rank(ranks[i]));
    }
    count = k;
    threshold = key_of_rank(ranks[k - 1]);
  }
  // Cheaper while filtering: the k-th greatest key t becomes the threshold and
  // only candidates with keys below t leave (those equal to t may be more than
  // needed; they are sorted out at the end). Exact compaction when ties at t
  // keep the buffer too full.
  void raise_threshold() {
    std::copy(keys, keys + count, scratch);
    std::nth_element(scratch, scratch + (k - 1), scratch + count, std::greater<>());
    const int32_t t = scratch[k - 1];
    size_t kept = 0;
    for (size_t i = 0; i < count; ++i) {
      keys[kept] = keys[i];
      index[kept] = index[i];
      kept += keys[i] >= t;
    }
    count = kept;
    threshold = t;
    if (count > capacity / 2) compact();
  }
  void append(int32_t key, size_t i) {
    keys[count] = key;
    index[count++] = static_cast<int32_t>(i);
  }
  void make_room(size_t block) {
    if (count + block > capacity) raise_threshold();
  }
};

// Elements [from, to) of a line through the filter.
template <class T>
inline void filter_scalar(Candidates& c, const T* line, size_t from, size_t to, int32_t flip, size_t base) {
  for (size_t i = from; i < to; ++i) {
    const int32_t key = oriented_key(line[i], flip);
    if (key <= c.threshold) continue;
    c.append(key, base + i);
    c.make_room(1);
  }
}

// The first elements (as many as the buffer holds, at least k) enter
// unconditionally and set the first threshold: k-th best of a sample of
// 4k + 64, so few later elements pass and the buffer rarely fills again.
template <class T>
inline size_t seed_candidates(Candidates& c, const T* line, size_t n, int32_t flip, size_t base) {
  const size_t m = std::min(n, c.capacity);
  for (size_t i = 0; i < m; ++i) c.append(oriented_key(line[i], flip), base + i);
  c.raise_threshold();
  return m;
}

template <class T>
void filter_line_scalar(Candidates& c, const T* line, size_t n, int32_t flip, size_t base) {
  filter_scalar(c, line, seed_candidates(c, line, n, flip, base), n, flip, base);
}

#if defined(__x86_64__)
#pragma GCC diagnostic ignored "-Wpsabi"  // vector arguments only between always-inline functions of one target

#define OPRIG_AVX2 __attribute__((target("avx2,fma,f16c"), always_inline)) inline

using order_keys::key8;
using order_keys::load_key8;

// The values' own compare as a pre-test, one instruction per vector: a float
// x has key(x) > K exactly when x > float_of_key(K), and key(x) < K exactly
// when x < float_of_key(K), as long as K is a normalised key (never that of
// -0) — thresholds are keys of elements, so they are. The unordered forms
// let NaN (and a NaN bound) through; the exact key test follows for the few
// blocks that pass.
inline float float_of_key(int32_t key) {
  return std::bit_cast<float>(static_cast<uint32_t>(key >= 0 ? key : key ^ 0x7FFFFFFF));
}

template <class T>
struct Avx2Values;  // load(p): 8 values; bound(K); passes<kLargest>(x, bound): lanes that may pass
template <>
struct Avx2Values<float> {
  using V = __m256;
  OPRIG_AVX2 static V load(const float* p) { return _mm256_loadu_ps(p); }
  OPRIG_AVX2 static V bound(int32_t key) { return _mm256_set1_ps(float_of_key(key)); }
  template <bool kLargest>
  OPRIG_AVX2 static __m256i passes(V x, V b) {
    return _mm256_castps_si256(kLargest ? _mm256_cmp_ps(x, b, _CMP_NLE_UQ) : _mm256_cmp_ps(x, b, _CMP_NGE_UQ));
  }
};
template <>
struct Avx2Values<uint16_t> : Avx2Values<float> {
  OPRIG_AVX2 static V load(const uint16_t* p) { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
};
template <>
struct Avx2Values<int32_t> {
  using V = __m256i;
  OPRIG_AVX2 static V load(const int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  OPRIG_AVX2 static V bound(int32_t key) { return _mm256_set1_epi32(key); }
  template <bool kLargest>
  OPRIG_AVX2 static __m256i passes(V x, V b) { return kLargest ? _mm256_cmpgt_epi32(x, b) : _mm256_cmpgt_epi32(b, x); }
};

template <bool kLargest, class T>
__attribute__((target("avx2,fma,f16c"))) void filter_line_avx2(Candidates& c, const T* line, size_t n, size_t base) {
  using Values = Avx2Values<T>;
  constexpr int32_t kFlip = kLargest ? 0 : -1;
  size_t i = seed_candidates(c, line, n, kFlip, base);
  auto bound = Values::bound(c.threshold ^ kFlip);
  for (; i + 8 <= n; i += 8) {
    const __m256i maybe = Values::template passes<kLargest>(Values::load(line + i), bound);
    if (_mm256_testz_si256(maybe, maybe)) continue;
    const __m256i key = _mm256_xor_si256(load_key8(line + i), _mm256_set1_epi32(kFlip));
    auto enters = static_cast<uint32_t>(
        _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(key, _mm256_set1_epi32(c.threshold)))));
    alignas(32) int32_t keys[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(keys), key);
    while (enters != 0) {
      const int lane = std::countr_zero(enters);
      enters &= enters - 1;
      c.append(keys[lane], base + i + static_cast<size_t>(lane));
    }
    c.make_room(8);
    bound = Values::bound(c.threshold ^ kFlip);
  }
  filter_scalar(c, line, i, n, kFlip, base);
}

#define OPRIG_AVX512_TARGET "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c"
#define OPRIG_AVX512 __attribute__((target(OPRIG_AVX512_TARGET), always_inline)) inline

using order_keys::kAll;
using order_keys::key16;
using order_keys::load_key16;

// The lanes of `m` appended in order with register compresses (the memory
// form of vpcompressd is slow on Zen 4) and whole-vector stores into the slack.
OPRIG_AVX512 void append16(Candidates& c, __mmask16 m, __m512i key, __m512i index) {
  _mm512_storeu_si512(c.keys + c.count, _mm512_maskz_compress_epi32(m, key));
  _mm512_storeu_si512(c.index + c.count, _mm512_maskz_compress_epi32(m, index));
  c.count += static_cast<size_t>(std::popcount(static_cast<unsigned>(m)));
}

template <class T>
struct Avx512Values;  // as Avx2Values, 16 lanes
template <>
struct Avx512Values<float> {
  using V = __m512;
  OPRIG_AVX512 static V load(const float* p) { return _mm512_loadu_ps(p); }
  OPRIG_AVX512 static V bound(int32_t key) { return _mm512_set1_ps(float_of_key(key)); }
  template <bool kLargest>
  OPRIG_AVX512 static __mmask16 passes(V x, V b) {
    return kLargest ? _mm512_cmp_ps_mask(x, b, _CMP_NLE_UQ) : _mm512_cmp_ps_mask(x, b, _CMP_NGE_UQ);
  }
};
template <>
struct Avx512Values<uint16_t> : Avx512Values<float> {
  OPRIG_AVX512 static V load(const uint16_t* p) {
    return _mm512_maskz_cvtph_ps(kAll, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
};
template <>
struct Avx512Values<int32_t> {
  using V = __m512i;
  OPRIG_AVX512 static V load(const int32_t* p) { return _mm512_loadu_si512(p); }
  OPRIG_AVX512 static V bound(int32_t key) { return _mm512_set1_epi32(key); }
  template <bool kLargest>
  OPRIG_AVX512 static __mmask16 passes(V x, V b) {
    return kLargest ? _mm512_cmpgt_epi32_mask(x, b) : _mm512_cmplt_epi32_mask(x, b);
  }
};

template <bool kLargest, class T>
__attribute__((target(OPRIG_AVX512_TARGET))) void filter_line_avx512(Candidates& c, const T* line, size_t n,
                                                                     size_t base) {
  using Values = Avx512Values<T>;
  constexpr int32_t kFlip = kLargest ? 0 : -1;
  size_t i = seed_candidates(c, line, n, kFlip, base);
  const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  auto bound = Values::bound(c.threshold ^ kFlip);
  // Two blocks per test: one branch per 32 elements while nothing enters.
  for (; i + 32 <= n; i += 32) {
    const __mmask16 ma = Values::template passes<kLargest>(Values::load(line + i), bound);
    const __mmask16 mb = Values::template passes<kLargest>(Values::load(line + i + 16), bound);
    if ((ma | mb) == 0) continue;
    const __m512i thr = _mm512_set1_epi32(c.threshold), flip = _mm512_set1_epi32(kFlip);
    const __m512i ka = _mm512_xor_si512(load_key16(line + i), flip);
    const __m512i kb = _mm512_xor_si512(load_key16(line + i + 16), flip);
    const __m512i at = _mm512_add_epi32(lanes, _mm512_set1_epi32(static_cast<int>(base + i)));
    append16(c, _mm512_cmpgt_epi32_mask(ka, thr), ka, at);
    append16(c, _mm512_cmpgt_epi32_mask(kb, thr), kb, _mm512_add_epi32(at, _mm512_set1_epi32(16)));
    c.make_room(32);
    bound = Values::bound(c.threshold ^ kFlip);
  }
  filter_scalar(c, line, i, n, kFlip, base);
}

// k <= 16 on AVX-512: the k best so far live in one register, keys sorted
// from the best down (ties: the earlier element first) with their indices in
// a second register. An element that passes the pre-test and beats the
// least of them is inserted with one compare, one popcount-free mask step and
// two lane permutations: no buffer, no selection pass.
struct Top16 {
  __m512i keys, index;
  __mmask16 used;  // lanes 0 .. k-1
  int32_t threshold;
  size_t k;

  // From k ranks sorted from the best down.
  OPRIG_AVX512 void load(const uint64_t* sorted, size_t count) {
    alignas(64) int32_t kk[16] = {}, ii[16] = {};
    for (size_t i = 0; i < count; ++i) {
      kk[i] = key_of_rank(sorted[i]);
      ii[i] = static_cast<int32_t>(index_of_rank(sorted[i]));
    }
    keys = _mm512_load_si512(kk);
    index = _mm512_load_si512(ii);
    k = count;
    used = static_cast<__mmask16>((1u << count) - 1);
    threshold = kk[count - 1];
  }
  // key > threshold: lanes holding keys >= key stay (0 .. p-1), the new one
  // goes to lane p, the rest move down one lane.
  OPRIG_AVX512 void insert(int32_t key, int32_t i) {
    const __m512i previous_lane = _mm512_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
    const __m512i v = _mm512_set1_epi32(key);
    const auto stays = static_cast<__mmask16>(_mm512_cmpge_epi32_mask(keys, v) & used);
    const auto moves = static_cast<__mmask16>(~stays);
    const auto here = static_cast<__mmask16>((stays + 1u) & ~stays);
    keys = _mm512_mask_mov_epi32(_mm512_mask_permutexvar_epi32(keys, moves, previous_lane, keys), here, v);
    index = _mm512_mask_mov_epi32(_mm512_mask_permutexvar_epi32(index, moves, previous_lane, index), here,
                                  _mm512_set1_epi32(i));
    alignas(64) int32_t kk[16];
    _mm512_store_si512(kk, keys);
    threshold = kk[k - 1];
  }
  OPRIG_AVX512 void store(uint64_t* winners) const {
    alignas(64) int32_t kk[16], ii[16];
    _mm512_store_si512(kk, keys);
    _mm512_store_si512(ii, index);
    for (size_t j = 0; j < k; ++j) winners[j] = rank_of(kk[j], static_cast<size_t>(ii[j]));
  }
};

template <bool kLargest, class T>
__attribute__((target(OPRIG_AVX512_TARGET))) void top16_line_avx512(const T* line, size_t n, size_t k, size_t base,
                                                                    uint64_t* winners) {
  using Values = Avx512Values<T>;
  constexpr int32_t kFlip = kLargest ? 0 : -1;
  for (size_t i = 0; i < k; ++i) winners[i] = rank_of(oriented_key(line[i], kFlip), base + i);
  std::sort(winners, winners + k, std::greater<>());
  Top16 top;
  top.load(winners, k);
  auto bound = Values::bound(top.threshold ^ kFlip);
  size_t i = k;
  for (; i + 16 <= n; i += 16) {
    if (Values::template passes<kLargest>(Values::load(line + i), bound) == 0) continue;
    const __m512i key = _mm512_xor_si512(load_key16(line + i), _mm512_set1_epi32(kFlip));
    auto enters = static_cast<uint32_t>(_mm512_cmpgt_epi32_mask(key, _mm512_set1_epi32(top.threshold)));
    alignas(64) int32_t block[16];
    _mm512_store_si512(block, key);
    while (enters != 0) {
      const int lane = std::countr_zero(enters);
      enters &= enters - 1;
      if (block[lane] > top.threshold) top.insert(block[lane], static_cast<int32_t>(base + i) + lane);
    }
    bound = Values::bound(top.threshold ^ kFlip);
  }
  for (; i < n; ++i) {
    const int32_t key = oriented_key(line[i], kFlip);
    if (key > top.threshold) top.insert(key, static_cast<int32_t>(base + i));
  }
  top.store(winners);
}
#endif

template <class T>
void filter_line(oprig_cpu_isa isa, Candidates& c, const T* line, size_t n, int32_t flip, size_t base) {
#if defined(__x86_64__)
  if (isa == OPRIG_CPU_ISA_AVX512)
    return flip == 0 ? filter_line_avx512<true>(c, line, n, base) : filter_line_avx512<false>(c, line, n, base);
  if (isa == OPRIG_CPU_ISA_AVX2)
    return flip == 0 ? filter_line_avx2<true>(c, line, n, base) : filter_line_avx2<false>(c, line, n, base);
#endif
  (void)isa;
  filter_line_scalar(c, line, n, flip, base);
}

// Per-task buffers of the filter pass.
struct CandidateBuffers {
  std::unique_ptr<int32_t[]> keys, index, scratch;
  std::unique_ptr<uint64_t[]> ranks;
  bool allocate(size_t k) {
    const size_t size = Candidates::capacity_for(k) + Candidates::kSlack;
    keys.reset(new (std::nothrow) int32_t[size]);
    index.reset(new (std::nothrow) int32_t[size]);
    ranks.reset(new (std::nothrow) uint64_t[size]);
    scratch.reset(new (std::nothrow) int32_t[size]);
    return keys && index && ranks && scratch;
  }
  // The k best ranks of line[0, n) (n >= k) into winners, unordered.
  template <class T>
  void select(oprig_cpu_isa isa, const T* line, size_t n, size_t k, int32_t flip, size_t base, uint64_t* winners) {
    Candidates c{keys.get(), index.get(), ranks.get(), scratch.get(), Candidates::capacity_for(k), k};
    filter_line(isa, c, line, n, flip, base);
    c.compact();
    std::copy(c.ranks, c.ranks + k, winners);
  }
};

// ---- one line -------------------------------------------------------------------------------

// Orders the k winning ranks as the spec asks: by rank (sorted) or by index.
void order_winners(uint64_t* winners, size_t k, bool sorted) {
  if (sorted) std::sort(winners, winners + k, std::greater<>());
  else std::sort(winners, winners + k, [](uint64_t a, uint64_t b) { return index_of_rank(a) < index_of_rank(b); });
}

// Writes output j of a line: the element (copied as stored) and its index.
template <class T>
void write_winners(const uint64_t* winners, size_t k, const T* line, T* values, int32_t* indices, size_t stride) {
  for (size_t j = 0; j < k; ++j) {
    const size_t i = index_of_rank(winners[j]);
    values[j * stride] = line[i];
    indices[j * stride] = static_cast<int32_t>(i);
  }
}

struct Work {
  TopKCpuKernel* k;
  const void* src;
  void* values;
  int32_t* indices;
  oprig_cpu_isa isa;
  std::atomic<bool> out_of_memory{false};  // a task could not get its buffers
};

inline bool uses_filter(size_t k, size_t n) { return k <= kMaxFilterK && k * 16 <= n; }

// What one task needs to select the k best of a line; buffers from
// new (std::nothrow), since an exception must not escape a pool thread.
// ---- large k: radix selection ------------------------------------------------------------------
// The keys of the line as unsigned integers in the same order (u = key with
// the sign bit flipped). The k-th greatest u, T, is found digit by digit
// (11, 11 and 10 bits; each pass counts the elements that share the digits
// found so far); the winners are then gathered in index order: every u > T,
// and the first elements with u == T until there are k. That order is the
// unsorted output as it stands; sorted, a stable least-significant-digit
// radix sort by descending u keeps equal keys in index order. A few passes
// over the line instead of nth_element's data-dependent branches.
struct RadixSelect {
  std::unique_ptr<uint32_t[]> u, winners_u, tmp_u;
  std::unique_ptr<int32_t[]> winners_i, tmp_i;
  bool allocate(size_t n, size_t k) {
    u.reset(new (std::nothrow) uint32_t[std::max<size_t>(n, 1)]);
    // One slot more than k: the gather below writes every element at the
    // next free slot before deciding whether it entered, so once k have
    // entered the losers that follow land in slot k.
    winners_u.reset(new (std::nothrow) uint32_t[k + 1]);
    tmp_u.reset(new (std::nothrow) uint32_t[k]);
    winners_i.reset(new (std::nothrow) int32_t[k + 1]);
    tmp_i.reset(new (std::nothrow) int32_t[k]);
    return u && winners_u && tmp_u && winners_i && tmp_i;
  }

  // The k winners of line[0, n), ordered as `sorted` asks, as ranks into out.
  template <class T>
  void select(const T* line, size_t n, size_t k, int32_t flip, bool sorted, uint64_t* out) {
    for (size_t i = 0; i < n; ++i) u[i] = static_cast<uint32_t>(oriented_key(line[i], flip)) ^ 0x80000000u;
    uint32_t prefix = 0, known = 0;  // digits of T found so far, and which bits they are
    size_t wanted = k;               // how many elements >= T are still to be found
    constexpr int kShift[3] = {21, 10, 0}, kBits[3] = {11, 11, 10};
    uint32_t count[2048];
    for (int pass = 0; pass < 3; ++pass) {
      const uint32_t digits = (1u << kBits[pass]) - 1;
      std::fill_n(count, digits + 1, 0u);
      for (size_t i = 0; i < n; ++i)
        if ((u[i] & known) == prefix) ++count[(u[i] >> kShift[pass]) & digits];
      uint32_t d = digits;
      while (count[d] < wanted) wanted -= count[d--];
      prefix |= d << kShift[pass];
      known |= digits << kShift[pass];
    }
    // prefix is T; `wanted` elements equal to T enter, in index order.
    size_t m = 0;
    for (size_t i = 0; i < n; ++i) {
      const bool enters = u[i] > prefix || (u[i] == prefix && wanted > 0);
      wanted -= u[i] == prefix && wanted > 0;
      winners_u[m] = u[i];
      winners_i[m] = static_cast<int32_t>(i);
      m += enters;
    }
    if (sorted) sort_descending(k);
    for (size_t j = 0; j < k; ++j)
      out[j] = rank_of(static_cast<int32_t>(winners_u[j] ^ 0x80000000u), static_cast<size_t>(winners_i[j]));
  }

  // Stable, by descending u: four passes of 8 bits over ~u.
  void sort_descending(size_t k) {
    uint32_t* src_u = winners_u.get();
    int32_t* src_i = winners_i.get();
    uint32_t* dst_u = tmp_u.get();
    int32_t* dst_i = tmp_i.get();
    for (int shift = 0; shift < 32; shift += 8) {
      size_t start[257] = {};
      for (size_t j = 0; j < k; ++j) ++start[((~src_u[j] >> shift) & 0xFF) + 1];
      for (int d = 0; d < 256; ++d) start[d + 1] += start[d];
      for (size_t j = 0; j < k; ++j) {
        const size_t at = start[(~src_u[j] >> shift) & 0xFF]++;
        dst_u[at] = src_u[j];
        dst_i[at] = src_i[j];
      }
      std::swap(src_u, dst_u);
      std::swap(src_i, dst_i);
    }
    // Four passes: the result is back in winners_*.
  }
};

struct LineSelector {
  const TopKCpuKernel& kr;
  oprig_cpu_isa isa;
  const bool filter;  // the filter pass (else radix selection over the whole line)
  CandidateBuffers candidates;
  RadixSelect radix;
  std::unique_ptr<uint64_t[]> winners;

  // n: the longest line (or line part) this task selects from.
  LineSelector(Work& w, size_t n) : kr(*w.k), isa(w.isa), filter(uses_filter(kr.k, n)) {
    winners.reset(new (std::nothrow) uint64_t[kr.k]);
    const bool ok = filter ? candidates.allocate(kr.k) : radix.allocate(n, kr.k);
    if (!ok || !winners) w.out_of_memory = true;
  }
  bool ok() const { return winners && (candidates.keys || radix.u); }

  // The k best ranks of line[0, n) (k <= n) into out, unordered; indices
  // from base. The filter path only (parts of split lines use it).
  template <class T>
  void select(const T* line, size_t n, size_t base, uint64_t* out) {
    const int32_t flip = kr.largest ? 0 : -1;
#if defined(__x86_64__)
    if (isa == OPRIG_CPU_ISA_AVX512 && kr.k <= 16)
      return kr.largest ? top16_line_avx512<true>(line, n, kr.k, base, out)
                        : top16_line_avx512<false>(line, n, kr.k, base, out);
#endif
    candidates.select(isa, line, n, kr.k, flip, base, out);
  }
  // A whole line, ordered, written to the outputs (`stride` apart).
  template <class T>
  void line(const T* x, T* values, int32_t* indices, size_t stride) {
    if (filter) {
      select(x, kr.n, 0, winners.get());
      order_winners(winners.get(), kr.k, kr.sorted);
    } else {
      radix.select(x, kr.n, kr.k, kr.largest ? 0 : -1, kr.sorted, winners.get());
    }
    write_winners(winners.get(), kr.k, x, values, indices, stride);
  }
};

// Tasks over contiguous lines (inner == 1): one line each, or one part of a
// line whose k best go to kr.merged.
template <class T>
void lines_task(Work& w, size_t begin, size_t end) {
  TopKCpuKernel& kr = *w.k;
  const T* src = static_cast<const T*>(w.src);
  T* values = static_cast<T*>(w.values);
  LineSelector sel(w, kr.parts > 1 ? kr.n / kr.parts : kr.n);
  if (!sel.ok()) return;
  for (size_t t = begin; t < end; ++t) {
    if (kr.parts > 1) {
      const size_t line = t / kr.parts, part = t % kr.parts;
      const size_t from = kr.n * part / kr.parts, to = kr.n * (part + 1) / kr.parts;
      sel.select(src + line * kr.n + from, to - from, from, kr.merged.data() + t * kr.k);
      continue;
    }
    sel.line(src + t * kr.n, values + t * kr.k, w.indices + t * kr.k, 1);
  }
}

// Tasks over lines along an inner axis: (outer position, group of kGatherLines
// inner positions), copied into contiguous lines first.
template <class T>
void strided_task(Work& w, size_t begin, size_t end) {
  TopKCpuKernel& kr = *w.k;
  const T* src = static_cast<const T*>(w.src);
  T* values = static_cast<T*>(w.values);
  const size_t groups = (kr.inner + kGatherLines - 1) / kGatherLines;
  std::unique_ptr<T[]> lines(new (std::nothrow) T[kGatherLines * kr.n]);
  LineSelector sel(w, kr.n);
  if (!lines || !sel.ok()) {
    w.out_of_memory = true;
    return;
  }
  for (size_t t = begin; t < end; ++t) {
    const size_t o = t / groups, i0 = (t % groups) * kGatherLines;
    const size_t width = std::min(kGatherLines, kr.inner - i0);
    const T* block = src + o * kr.n * kr.inner + i0;
    for (size_t j = 0; j < kr.n; ++j)
      for (size_t l = 0; l < width; ++l) lines[l * kr.n + j] = block[j * kr.inner + l];
    for (size_t l = 0; l < width; ++l) {
      const size_t out = o * kr.k * kr.inner + i0 + l;
      sel.line(lines.get() + l * kr.n, values + out, w.indices + out, kr.inner);
    }
  }
}

template <class T>
void run_typed(void* arg, size_t begin, size_t end) {
  Work& w = *static_cast<Work*>(arg);
  if (w.k->inner == 1) lines_task<T>(w, begin, end);
  else strided_task<T>(w, begin, end);
}

// Each part of a split line left its k best in kr.merged: the k best of them.
template <class T>
void merge_parts(const Work& w) {
  TopKCpuKernel& kr = *w.k;
  const T* src = static_cast<const T*>(w.src);
  T* values = static_cast<T*>(w.values);
  for (size_t line = 0; line < kr.outer; ++line) {
    uint64_t* all = kr.merged.data() + line * kr.parts * kr.k;
    std::nth_element(all, all + (kr.k - 1), all + kr.parts * kr.k, std::greater<>());
    order_winners(all, kr.k, kr.sorted);
    write_winners(all, kr.k, src + line * kr.n, values + line * kr.k, w.indices + line * kr.k, 1);
  }
}

// ---- the ABI -------------------------------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<top_k::Params> p = top_k::read_params(params, num_params);
  if (!p) return OPRIG_STATUS_INVALID_ARGUMENT;  // k is mandatory
  auto* kernel = new (std::nothrow) TopKCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_top_k__cpu;
  kernel->ctx = ctx;
  kernel->k_param = p->k;
  kernel->axis_param = p->axis;
  kernel->largest = p->largest;
  kernel->sorted = p->sorted;
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* kr = from_handle<TopKCpuKernel>(handle);
  top_k::Shape shape;
  const oprig_status st = top_k::plan_shape({kr->k_param, kr->axis_param, kr->largest, kr->sorted}, inputs,
                                            num_inputs, outputs, num_outputs, &shape);
  if (st != OPRIG_STATUS_OK) return st;
  kr->dtype = shape.dtype;
  kr->outer = static_cast<size_t>(shape.outer);
  kr->n = static_cast<size_t>(shape.n);
  kr->inner = static_cast<size_t>(shape.inner);
  kr->k = static_cast<size_t>(shape.k);
  // Few long lines on the filter path: split each into parts so every thread has work.
  const size_t threads = std::max<uint32_t>(1, kr->ctx->cpu_threads);
  kr->parts = 1;
  if (kr->inner == 1 && kr->outer < threads && kr->n >= 2 * kMinTaskElements &&
      uses_filter(kr->k, kr->n / threads))
    kr->parts = std::min(threads, kr->n / kMinTaskElements);
  try {
    kr->merged.assign(kr->parts > 1 ? kr->outer * kr->parts * kr->k : 0, 0);
  } catch (const std::bad_alloc&) {
    return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 1 || num_outputs != 2) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kr = from_handle<TopKCpuKernel>(handle);
  if (kr->outer == 0 || kr->inner == 0) return OPRIG_STATUS_OK;  // empty outputs
  Work work{kr, inputs[0].data, outputs[0].data, static_cast<int32_t*>(outputs[1].data),
            static_cast<oprig_cpu_isa>(kr->ctx->cpu_isa), {}};
  void (*fn)(void*, size_t, size_t) = kr->dtype == OPRIG_DTYPE_FLOAT_16 ? run_typed<uint16_t>
                                      : kr->dtype == OPRIG_DTYPE_INT_32 ? run_typed<int32_t>
                                                                        : run_typed<float>;
  size_t tasks, grain;
  if (kr->inner == 1) {
    tasks = kr->outer * kr->parts;
    grain = kr->parts > 1 ? 1 : std::max<size_t>(1, kMinTaskElements / kr->n);
  } else {
    tasks = kr->outer * ((kr->inner + kGatherLines - 1) / kGatherLines);
    grain = std::max<size_t>(1, kMinTaskElements / (kr->n * kGatherLines));
  }
  kr->ctx->cpu_parallel_for(kr->ctx->cpu_pool, tasks, grain, fn, &work);
  if (work.out_of_memory) return OPRIG_STATUS_OUT_OF_MEMORY;
  if (kr->parts > 1) {
    if (kr->dtype == OPRIG_DTYPE_FLOAT_16) merge_parts<uint16_t>(work);
    else if (kr->dtype == OPRIG_DTYPE_INT_32) merge_parts<int32_t>(work);
    else merge_parts<float>(work);
  }
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<TopKCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* kr = from_handle<const TopKCpuKernel>(handle);
  const uint64_t elements = kr->outer * kr->n * kr->inner;
  const uint64_t width = kr->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  const uint64_t selected = kr->outer * kr->k * kr->inner;
  out->flops = elements;  // one comparison per element on the common path
  out->bytes_read = elements * width;
  out->bytes_written = selected * (width + 4);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_top_k__cpu = {"TopK", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
