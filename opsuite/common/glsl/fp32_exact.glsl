// IEEE fp32 results on drivers that flush fp32 denormals and cannot be asked
// not to (lavapipe among them): operands widened to double (a denormal by
// integer arithmetic, its mantissa times 2^-149), the operation done in
// double, and the result rounded back to fp32 by conversion where it is
// normal and by integer rounding to nearest even where it is an fp32
// denormal. For + - * / of two fp32 operands the double result rounded to
// fp32 is the correctly rounded fp32 result (53 >= 2*24 + 2). Needs the
// device's shaderFloat64 (the oprig vulkan backend enables it where present).
#ifndef OPRIG_FP32_EXACT_GLSL
#define OPRIG_FP32_EXACT_GLSL

const double kTwoPowMinus149 = 1.401298464324817070923729583289916131280e-45LF;  // exact
const double kTwoPow149 = 7.1362384635297994052914298472474756e44LF;             // exact
const uint kAbs = 0x7fffffffu;
const uint kSign = 0x80000000u;

double widen(uint bits) {
  uint magnitude = bits & kAbs;
  if (magnitude >= 0x00800000u) return double(uintBitsToFloat(bits));  // normal, Inf or NaN
  double d = double(magnitude) * kTwoPowMinus149;                        // denormal or zero, exactly
  return (bits & kSign) != 0u ? -d : d;
}

uint narrow(double d) {
  if (isnan(d)) return 0x7fc00000u;
  double magnitude = abs(d);
  uint sign = unpackDouble2x32(d).y & kSign;  // from the bits: -0 keeps its sign
  if (magnitude >= 1.1754943508222875079687365372222456778186655567720875215087517062784172594547271728515625e-38LF)
    return floatBitsToUint(float(d));  // the fp32 normal range (and overflow to Inf): rounded to nearest even
  // An fp32 denormal (or 0): the mantissa is the value in units of 2^-149,
  // rounded to nearest even; 2^23 is the smallest normal, whose bits it also is.
  return uint(roundEven(magnitude * kTwoPow149)) | sign;
}

// The ordered integer image of fp32 bits: a < b as floats iff order(a) < order(b) (not NaN).
int order(uint bits) { return (bits & kSign) != 0u ? int(kSign) - int(bits) : int(bits); }
bool is_nan(uint bits) { return (bits & kAbs) > 0x7f800000u; }

#endif
