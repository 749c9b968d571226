// n / d.divisor for every 32-bit n, from the multiplier and shifts the host
// computed (common/fast_divide.hpp): a work-item's row and column without a
// division, which CPU drivers cannot vectorise.
typedef struct {
  uint divisor, magic, shift1, shift2;
} oprig_divisor;

inline uint oprig_divide(const uint n, const oprig_divisor d) {
  const uint t = mul_hi(n, d.magic);
  return (t + ((n - t) >> d.shift1)) >> d.shift2;
}
