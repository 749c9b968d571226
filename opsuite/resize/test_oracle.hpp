// What Resize's unit tests (cpu_test.cpp, device_test.cpp) check kernels
// against, written from the spec and nothing of the kernels: NEAREST's input
// index from the exact fraction of the coordinate (integer arithmetic, never
// a double), and BILINEAR's blend in double. Plus running a kernel through
// the package ABI.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/test_device.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness::resize_test {

inline const char* const kTransformations[] = {"ALIGN_CORNERS", "HALF_PIXEL", "ASYMMETRIC"};
inline const char* const kRoundings[] = {"ROUND_PREFER_FLOOR", "ROUND_PREFER_CEIL", "FLOOR", "CEIL"};

struct Resizing {
  int64_t out_height, out_width;
  std::string mode, transformation, rounding = "ROUND_PREFER_FLOOR";
};

inline ParamList params_of(const Resizing& r) {
  return ParamList()
      .add_int("output_height", r.out_height)
      .add_int("output_width", r.out_width)
      .add_string("mode", r.mode)
      .add_string("coordinate_transformation", r.transformation)
      .add_string("nearest_mode", r.rounding);
}

// One execute of Resize on `backend`, the output of the input's type.
inline HostTensor run_resize(Backend& backend, const oprig_implementation_v1& impl, const HostTensor& in,
                             const Resizing& r) {
  oprig_tensor out{};
  out.dtype = in.dtype;
  return run_once(backend, impl, "Resize", params_of(r), in, out);
}

// Values in [-4, 4), the plan's uniform fill.
inline std::vector<float> values(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t x = seed * 2654435761u + 11;
  for (float& e : v) {
    x = x * 1664525u + 1013904223u;
    e = static_cast<float>(x >> 8) * 0x1p-24f * 8.0f - 4.0f;
  }
  return v;
}

// The input coordinate of output index x as an exact fraction p / q (q > 0).
struct Fraction {
  int64_t p, q;
};
inline Fraction coordinate(const std::string& t, int64_t x, int64_t in, int64_t out) {
  if (t == "ALIGN_CORNERS") return out == 1 ? Fraction{0, 1} : Fraction{x * (in - 1), out - 1};
  if (t == "HALF_PIXEL") return {(2 * x + 1) * in - out, 2 * out};
  return {x * in, out};
}
inline int64_t floor_div(int64_t p, int64_t q) { return p >= 0 ? p / q : -((-p + q - 1) / q); }
inline int64_t ceil_div(int64_t p, int64_t q) { return -floor_div(-p, q); }

inline int64_t exact_nearest(const std::string& rounding, Fraction f, int64_t in) {
  int64_t i;
  if (rounding == "ROUND_PREFER_FLOOR") i = ceil_div(2 * f.p - f.q, 2 * f.q);  // ceil(x - 1/2)
  else if (rounding == "ROUND_PREFER_CEIL") i = floor_div(2 * f.p + f.q, 2 * f.q);  // floor(x + 1/2)
  else if (rounding == "FLOOR") i = floor_div(f.p, f.q);
  else i = ceil_div(f.p, f.q);
  return std::min(std::max<int64_t>(i, 0), in - 1);
}

// NEAREST as the index of the input element each output element copies.
inline std::vector<size_t> nearest_sources(const std::vector<int64_t>& d, const Resizing& r) {
  std::vector<size_t> from;
  for (int64_t n = 0; n < d[0]; ++n)
    for (int64_t y = 0; y < r.out_height; ++y)
      for (int64_t xo = 0; xo < r.out_width; ++xo) {
        const int64_t iy = exact_nearest(r.rounding, coordinate(r.transformation, y, d[1], r.out_height), d[1]);
        const int64_t ix = exact_nearest(r.rounding, coordinate(r.transformation, xo, d[2], r.out_width), d[2]);
        for (int64_t c = 0; c < d[3]; ++c) from.push_back(static_cast<size_t>(((n * d[1] + iy) * d[2] + ix) * d[3] + c));
      }
  return from;
}

// The spec's blend in double, neighbours and weights from double coordinates.
inline std::vector<double> bilinear_in_double(const std::vector<float>& x, const std::vector<int64_t>& d, int64_t out_h,
                                              int64_t out_w, const std::string& t) {
  auto axis = [&](int64_t o, int64_t in, int64_t out, int64_t* first, int64_t* second) {
    const Fraction f = coordinate(t, o, in, out);
    const double c = std::min(std::max(static_cast<double>(f.p) / static_cast<double>(f.q), 0.0),
                              static_cast<double>(in - 1));
    *first = static_cast<int64_t>(std::floor(c));
    *second = std::min(*first + 1, in - 1);
    return c - static_cast<double>(*first);
  };
  std::vector<double> out;
  for (int64_t n = 0; n < d[0]; ++n)
    for (int64_t y = 0; y < out_h; ++y)
      for (int64_t xo = 0; xo < out_w; ++xo) {
        int64_t y0, y1, x0, x1;
        const double wy = axis(y, d[1], out_h, &y0, &y1), wx = axis(xo, d[2], out_w, &x0, &x1);
        for (int64_t c = 0; c < d[3]; ++c) {
          auto at = [&](int64_t h, int64_t w) {
            return static_cast<double>(x[static_cast<size_t>(((n * d[1] + h) * d[2] + w) * d[3] + c)]);
          };
          out.push_back((1 - wx) * ((1 - wy) * at(y0, x0) + wy * at(y1, x0)) +
                        wx * ((1 - wy) * at(y0, x1) + wy * at(y1, x1)));
        }
      }
  return out;
}

}  // namespace oprig::harness::resize_test
