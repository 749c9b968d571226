// What the DepthwiseConv2D kernel tests (cpu_test.cpp, gpu_test.cpp) share
// beyond common/op_test_support.hpp: the parameters by spec name, one run on
// any backend, and the independent oracle: an int64 loop over the window on
// small integers, exact in any order of summation.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/op_test_support.hpp"

namespace oprig::harness::depthwise_test {

using op_test::count;
using op_test::f32;
using op_test::values;

struct Window {
  int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int64_t top = 0, bottom = 0, left = 0, right = 0;
  ParamList params() const {
    return ParamList()
        .add_ints("stride", {stride_h, stride_w}, OPRIG_DTYPE_UINT_32)
        .add_ints("dilation", {dilation_h, dilation_w}, OPRIG_DTYPE_UINT_32)
        .add_ints("pad_amount", {top, bottom, left, right}, OPRIG_DTYPE_UINT_32);
  }
};

inline HostTensor run_once(Backend& backend, const Window& window, std::vector<HostTensor> inputs,
                           std::vector<int64_t>* shape = nullptr) {
  return op_test::run_op(backend, "DepthwiseConv2D", window.params(), std::move(inputs), shape);
}

struct Case {
  std::vector<int64_t> in, w;  // NHWC, [kh, kw, 1, channels * multiplier]
  Window window;
  bool bias;
};

inline std::vector<float> oracle(const Case& c, const std::vector<float>& x, const std::vector<float>& w,
                          const std::vector<float>& b) {
  const int64_t h = c.in[1], wd = c.in[2], ch = c.in[3], kh = c.w[0], kw = c.w[1], co = c.w[3];
  const Window& s = c.window;
  const int64_t oh = (h + s.top + s.bottom - ((kh - 1) * s.dilation_h + 1)) / s.stride_h + 1;
  const int64_t ow = (wd + s.left + s.right - ((kw - 1) * s.dilation_w + 1)) / s.stride_w + 1;
  std::vector<float> y;
  for (int64_t n = 0; n < c.in[0]; ++n)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox)
        for (int64_t o = 0; o < co; ++o) {
          int64_t sum = c.bias ? static_cast<int64_t>(b[static_cast<size_t>(o)]) : 0;
          for (int64_t ky = 0; ky < kh; ++ky)
            for (int64_t kx = 0; kx < kw; ++kx) {
              const int64_t iy = oy * s.stride_h - s.top + ky * s.dilation_h;
              const int64_t ix = ox * s.stride_w - s.left + kx * s.dilation_w;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              sum += static_cast<int64_t>(x[static_cast<size_t>(((n * h + iy) * wd + ix) * ch + o / (co / ch))]) *
                     static_cast<int64_t>(w[static_cast<size_t>((ky * kw + kx) * co + o)]);
            }
          y.push_back(static_cast<float>(sum));
        }
  return y;
}

}  // namespace oprig::harness::depthwise_test
