// What the Conv2D kernel tests (cpu_test.cpp, gpu_test.cpp) share beyond
// common/op_test_support.hpp: the parameters by spec name, one run on any
// backend, and the independent oracle: an int64 loop over the window on
// small integers, whose fp32 products and sums are exact in any order, in
// either activation layout. Explicit padding only.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/op_test_support.hpp"

namespace oprig::harness::conv2d_test {

using op_test::count;
using op_test::f32;
using op_test::values;

// One convolution's parameters, as the spec names them.
struct Conv {
  int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int64_t top = 0, bottom = 0, left = 0, right = 0, group = 1;
  std::string padding = "EXPLICIT";
  ParamList params() const {
    return ParamList()
        .add_ints("stride", {stride_h, stride_w}, OPRIG_DTYPE_UINT_32)
        .add_ints("dilation", {dilation_h, dilation_w}, OPRIG_DTYPE_UINT_32)
        .add_ints("pad_amount", {top, bottom, left, right}, OPRIG_DTYPE_UINT_32)
        .add_int("group", group, OPRIG_DTYPE_UINT_32)
        .add_string("padding", padding);
  }
};

inline HostTensor run_once(Backend& backend, const Conv& conv, std::vector<HostTensor> inputs,
                           std::vector<int64_t>* shape = nullptr) {
  return op_test::run_op(backend, "Conv2D", conv.params(), std::move(inputs), shape);
}

struct Case {
  std::vector<int64_t> in, w;  // activations as `nchw` says, [kh, kw, c_in / group, c_out]
  Conv conv;
  bool bias;
  bool nchw = false;
};

// The oracle: int64 sums over the window, in the case's layout.
inline std::vector<float> oracle(const Case& c, const std::vector<float>& x, const std::vector<float>& w,
                                 const std::vector<float>& b) {
  const int64_t n_ = c.in[0], h = c.nchw ? c.in[2] : c.in[1], wd = c.nchw ? c.in[3] : c.in[2];
  const int64_t ci = c.nchw ? c.in[1] : c.in[3];
  const int64_t kh = c.w[0], kw = c.w[1], gi = c.w[2], co = c.w[3], go = co / c.conv.group;
  const int64_t oh = (h + c.conv.top + c.conv.bottom - ((kh - 1) * c.conv.dilation_h + 1)) / c.conv.stride_h + 1;
  const int64_t ow = (wd + c.conv.left + c.conv.right - ((kw - 1) * c.conv.dilation_w + 1)) / c.conv.stride_w + 1;
  auto in_at = [&](int64_t n, int64_t ch, int64_t y, int64_t xx) {
    return static_cast<size_t>(c.nchw ? ((n * ci + ch) * h + y) * wd + xx : ((n * h + y) * wd + xx) * ci + ch);
  };
  std::vector<float> out(static_cast<size_t>(n_ * oh * ow * co));
  for (int64_t n = 0; n < n_; ++n)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox)
        for (int64_t o = 0; o < co; ++o) {
          int64_t sum = c.bias ? static_cast<int64_t>(b[static_cast<size_t>(o)]) : 0;
          for (int64_t ky = 0; ky < kh; ++ky)
            for (int64_t kx = 0; kx < kw; ++kx)
              for (int64_t i = 0; i < gi; ++i) {
                const int64_t iy = oy * c.conv.stride_h - c.conv.top + ky * c.conv.dilation_h;
                const int64_t ix = ox * c.conv.stride_w - c.conv.left + kx * c.conv.dilation_w;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                sum += static_cast<int64_t>(x[in_at(n, (o / go) * gi + i, iy, ix)]) *
                       static_cast<int64_t>(w[static_cast<size_t>(((ky * kw + kx) * gi + i) * co + o)]);
              }
          const int64_t at = c.nchw ? ((n * co + o) * oh + oy) * ow + ox : ((n * oh + oy) * ow + ox) * co + o;
          out[static_cast<size_t>(at)] = static_cast<float>(sum);
        }
  return out;
}

}  // namespace oprig::harness::conv2d_test
