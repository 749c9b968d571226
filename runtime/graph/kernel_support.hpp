// Internal: what the host kernels of built-in operations share: reading
// inputs and the activation operand, NNAPI broadcasting over real shapes,
// and element loads/stores per storage type (FLOAT_16 goes through float, as
// NNAPI's reference computes TENSOR_FLOAT16).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/half.hpp"
#include "graph/builtin_types.hpp"
#include "graph/runtime_types.hpp"

namespace oprig::graph::kernels {

inline const Operand& decl(const Frame& f, uint32_t operand) { return *f.plan->operands[operand].decl; }

std::string shape_text(const Shape& s);

// Shape equality without a library call (ranks are tiny; this is on the path
// of every one-element loop counter).
inline bool same_shape(const Shape& a, const Shape& b) {
  if (a.rank != b.rank) return false;
  for (uint32_t i = 0; i < a.rank; ++i)
    if (a.dims[i] != b.dims[i]) return false;
  return true;
}

// The out-of-line halves of the helpers below (errors and general cases).
const Value* missing_input(Exec& x, Frame& f, const Step& s, size_t j);
bool broadcast_general(const Shape& a, const Shape& b, Shape* out);
bool read_activation_operand(Exec& x, Frame& f, const Step& s, size_t j, bool int32_tensor, FuseCode* act);

// Input j of the step, or nullptr after setting the step error (an input
// without a value: a NO_VALUE operand handed through an IF or WHILE).
inline const Value* input(Exec& x, Frame& f, const Step& s, size_t j) {
  const Value& v = f.values[s.op->inputs[j]];
  return v.present ? &v : missing_input(x, f, s, j);
}

// NNAPI broadcasting of two real shapes (trailing alignment; equal or 1;
// a zero-sized dimension pairs with 0 or 1 and gives 0). false: incompatible.
inline bool broadcast_shape(const Shape& a, const Shape& b, Shape* out) {
  if (same_shape(a, b)) {
    *out = a;
    return true;
  }
  return broadcast_general(a, b, out);
}

// The FuseCode of input j (NONE when the operation has no input j), checked
// to be a FuseCode and, for TENSOR_INT32, NONE. false after setting the error.
inline bool read_activation(Exec& x, Frame& f, const Step& s, size_t j, bool int32_tensor, FuseCode* act) {
  *act = FuseCode::kNone;
  return j >= s.op->inputs.size() || read_activation_operand(x, f, s, j, int32_tensor, act);
}

// NNAPI CalculateActivationRangeFloat + TFLite's min(max(v, lo), hi): RELU
// [0, +max], RELU1 [-1, 1], RELU6 [0, 6]; NaN stays NaN. NONE leaves the
// value alone (NeuralNetworks.h: "NO fused activation function").
inline float apply_activation(float v, FuseCode act) {
  switch (act) {
    case FuseCode::kRelu: return std::max(v, 0.0f);
    case FuseCode::kRelu1: return std::min(std::max(v, -1.0f), 1.0f);
    case FuseCode::kRelu6: return std::min(std::max(v, 0.0f), 6.0f);
    case FuseCode::kNone: break;
  }
  return v;
}

// Calls fn(out_index, a_index, b_index) for every element of `out`, the
// broadcast of `a` and `b`, in C order.
template <typename Fn>
void for_each_broadcast(const Shape& a, const Shape& b, const Shape& out, Fn fn) {
  const size_t n = out.elements();
  const bool a_full = same_shape(a, out), b_full = same_shape(b, out);
  if (a_full && b_full) {
    for (size_t i = 0; i < n; ++i) fn(i, i, i);
    return;
  }
  if (b_full && a.elements() == 1) {
    for (size_t i = 0; i < n; ++i) fn(i, size_t{0}, i);
    return;
  }
  if (a_full && b.elements() == 1) {
    for (size_t i = 0; i < n; ++i) fn(i, i, size_t{0});
    return;
  }
  // Strides in elements over out's dimensions; 0 where an input broadcasts.
  const uint32_t rank = out.rank;
  int64_t sa[OPRIG_MAX_RANK] = {}, sb[OPRIG_MAX_RANK] = {};
  int64_t stride_a = 1, stride_b = 1;
  for (uint32_t k = 0; k < rank; ++k) {
    const uint32_t d = rank - 1 - k;
    if (k < a.rank) {
      const int64_t da = a.dims[a.rank - 1 - k];
      sa[d] = da == 1 ? 0 : stride_a;
      stride_a *= da;
    }
    if (k < b.rank) {
      const int64_t db = b.dims[b.rank - 1 - k];
      sb[d] = db == 1 ? 0 : stride_b;
      stride_b *= db;
    }
  }
  int64_t index[OPRIG_MAX_RANK] = {};
  int64_t ia = 0, ib = 0;
  for (size_t o = 0; o < n; ++o) {
    fn(o, static_cast<size_t>(ia), static_cast<size_t>(ib));
    for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
      ++index[d];
      ia += sa[d];
      ib += sb[d];
      if (index[d] < out.dims[d]) break;
      ia -= sa[d] * index[d];
      ib -= sb[d] * index[d];
      index[d] = 0;
    }
  }
}

// Element access by storage type. FLOAT_16 elements are IEEE binary16 bits.
struct Half {
  uint16_t bits;
};
template <typename T>
inline float load_float(const std::byte* p, size_t i) {
  if constexpr (std::is_same_v<T, Half>) {
    uint16_t h;
    std::memcpy(&h, p + i * sizeof h, sizeof h);
    return half_to_float(h);
  } else {
    T v;
    std::memcpy(&v, p + i * sizeof v, sizeof v);
    return static_cast<float>(v);
  }
}
template <typename T>
inline void store_float(std::byte* p, size_t i, float v) {
  if constexpr (std::is_same_v<T, Half>) {
    const uint16_t h = float_to_half(v);
    std::memcpy(p + i * sizeof h, &h, sizeof h);
  } else {
    const T t = static_cast<T>(v);
    std::memcpy(p + i * sizeof t, &t, sizeof t);
  }
}

}  // namespace oprig::graph::kernels
