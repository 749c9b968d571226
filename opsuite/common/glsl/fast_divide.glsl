// n / d.divisor for every 32-bit n, from the multiplier and shifts the host
// computed (common/fast_divide.hpp): an invocation's row and column without
// a division, which CPU drivers cannot vectorise.
#ifndef OPRIG_FAST_DIVIDE_GLSL
#define OPRIG_FAST_DIVIDE_GLSL

struct OprigDivisor {
  uint divisor, magic, shift1, shift2;
};

uint oprig_divide(uint n, OprigDivisor d) {
  uint t, low;
  umulExtended(n, d.magic, t, low);
  return (t + ((n - t) >> d.shift1)) >> d.shift2;
}

#endif
