#version 450
// ElementwiseBinary, vulkan, INT_32: ADD, SUB, MUL wrap (two's complement),
// DIV truncates toward zero or floors (by 0 gives 0; INT_MIN / -1 wraps to
// INT_MIN),
// MAX, MIN, POW by squaring modulo 2^32 (the same value as the cpu's repeated
// product; a negative exponent gives the truncated quotient). NumPy
// broadcasting through the merged iteration space of common/broadcast.hpp.
// The fused activation clamps the wrapped result. No floating point, so it
// runs on devices without Float64.

layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) readonly buffer A { int a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { int b[]; };
layout(std430, set = 0, binding = 2) buffer Y { int y[]; };

layout(push_constant) uniform Params {
  uint op;  // 0 ADD, 1 SUB, 2 MUL, 3 DIV, 4 MAX, 5 MIN, 6 POW, 7 DIV flooring
  uint count;
  uint merged;
  uint dims[8];
  uint a_strides[8];
  uint b_strides[8];
  int lo, hi;  // the fused activation's bounds (INT_MIN, INT_MAX: none)
} p;

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

int int_pow(int base, int exponent) {
  if (exponent < 0) return base == 1 ? 1 : base == -1 ? ((exponent & 1) == 0 ? 1 : -1) : 0;
  uint result = 1u, square = uint(base);
  for (uint e = uint(exponent); e != 0u; e >>= 1) {
    if ((e & 1u) != 0u) result *= square;
    square *= square;
  }
  return int(result);
}

int apply(int x, int z) {
  switch (p.op) {
    case 0u: return int(uint(x) + uint(z));
    case 1u: return int(uint(x) - uint(z));
    case 2u: return int(uint(x) * uint(z));
    case 3u: return z == 0 ? 0 : z == -1 ? int(0u - uint(x)) : x / z;
    case 7u: {  // DIV with integer_division FLOOR
      if (z == 0) return 0;
      if (z == -1) return int(0u - uint(x));
      int q = x / z;
      return q * z != x && ((x < 0) != (z < 0)) ? q - 1 : q;
    }
    case 4u: return max(x, z);
    case 5u: return min(x, z);
    default: return int_pow(x, z);
  }
}

int activate(int r) { return min(max(r, p.lo), p.hi); }

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < p.count; i += stride) {
    uint ao, bo;
    offsets(i, ao, bo);
    y[i] = activate(apply(a[ao], b[bo]));
  }
}
