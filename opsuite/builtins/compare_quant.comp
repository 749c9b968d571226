#version 450
// org.oprig.builtins Compare of quantised UINT_8 or INT_8 (spec constant
// kSigned), vulkan: each code's real value is float(q - zero_point) * scale
// as the host computes it, exactly: the product is formed in double (exact:
// 9 by 24 bits) and rounded to fp32 by integer arithmetic where it is an
// fp32 denormal (drivers may flush fp32 denormals, lavapipe does), as
// ElementwiseBinary's vulkan.comp does; the two reals are then compared by
// the order of their bits. Needs shaderFloat64 (the kernel says UNSUPPORTED
// without it). NumPy broadcasting up to rank 4; bytes four to a word.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool kSigned = false;

layout(std430, set = 0, binding = 0) readonly buffer A { uint a_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint b_words[]; };
layout(std430, set = 0, binding = 2) buffer Y { uint y_words[]; };

layout(push_constant) uniform Params {
  uint op;  // LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL, NOT_EQUAL
  uint count;
  uint merged;
  uint dims[4];
  uint a_strides[4];
  uint b_strides[4];
  int a_zero;
  uint a_scale;  // fp32 bits
  int b_zero;
  uint b_scale;
} p;

const double kTwoPowMinus149 = 1.401298464324817070923729583289916131280e-45LF;  // exact
const double kTwoPow149 = 7.1362384635297994052914298472474756e44LF;             // exact
const uint kAbs = 0x7fffffffu;
const uint kSign = 0x80000000u;

void offsets(uint i, out uint ao, out uint bo) {
  ao = 0u;
  bo = 0u;
  for (int k = int(p.merged) - 1; k >= 0; --k) {
    uint c = i % p.dims[k];
    i /= p.dims[k];
    ao += c * p.a_strides[k];
    bo += c * p.b_strides[k];
  }
}

int code(bool first, uint i) {
  uint byte = ((first ? a_words[i >> 2] : b_words[i >> 2]) >> (8u * (i & 3u))) & 0xffu;
  return kSigned ? int(byte << 24) >> 24 : int(byte);
}

double widen(uint bits) {  // a positive scale: normal, or denormal taken exactly
  uint magnitude = bits & kAbs;
  if (magnitude >= 0x00800000u) return double(uintBitsToFloat(bits));
  return double(magnitude) * kTwoPowMinus149;
}

uint narrow(double d) {  // to fp32, rounded to nearest even; d is never NaN here
  double magnitude = abs(d);
  uint sign = unpackDouble2x32(d).y & kSign;
  if (magnitude >= 1.1754943508222875079687365372222456778186655567720875215087517062784172594547271728515625e-38LF)
    return floatBitsToUint(float(d));
  return uint(roundEven(magnitude * kTwoPow149)) | sign;
}

// The order of fp32 bits as a signed key: -0 and +0 meet at 0.
int key(uint bits) { return (bits & kSign) != 0u ? -int(bits & kAbs) : int(bits); }

uint element(uint i) {
  uint ao, bo;
  offsets(i, ao, bo);
  int x = key(narrow(double(code(true, ao) - p.a_zero) * widen(p.a_scale)));
  int z = key(narrow(double(code(false, bo) - p.b_zero) * widen(p.b_scale)));
  switch (p.op) {
    case 0u: return x < z ? 1u : 0u;
    case 1u: return x <= z ? 1u : 0u;
    case 2u: return x > z ? 1u : 0u;
    case 3u: return x >= z ? 1u : 0u;
    case 4u: return x == z ? 1u : 0u;
    default: return x != z ? 1u : 0u;
  }
}

void main() {
  uint words = (p.count + 3u) / 4u;
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint w = gl_GlobalInvocationID.x; w < words; w += stride) {
    uint word = 0u, kept = 0xffffffffu;
    for (uint j = 0u; j < 4u; ++j) {
      uint i = 4u * w + j;
      if (i >= p.count) break;
      word |= element(i) << (8u * j);
      kept &= ~(0xffu << (8u * j));
    }
    y_words[w] = word | (y_words[w] & kept);
  }
}
