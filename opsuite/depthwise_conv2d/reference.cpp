// fp64 reference of DepthwiseConv2D: for every output element, the sum over
// the kernel window of its one input channel, in double, straight from the
// formula of the spec (NHWC activations, weights [kernel_height, kernel_width,
// 1, channels * multiplier], output channel o reading input channel o /
// multiplier). Products of fp32 values are exact in double; their sum is kept
// with Neumaier's compensated summation (common/compensated_sum.hpp), so it is
// within about one ulp of double of the exact sum even where the terms cancel
// (the golden cross-check holds it to 2 ulp of NumPy's exactly rounded
// math.fsum).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/compensated_sum.hpp"
#include "common/conv_reference.hpp"
#include "common/integer_reference.hpp"
#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

// A checked node: its geometry, the output's shape set.
struct Node {
  int64_t batch = 0, height = 0, width = 0, channels = 0, kh = 0, kw = 0, c_out = 0, multiplier = 1;
  int64_t out_h = 0, out_w = 0;
  bool has_bias = false;
  std::vector<int64_t> stride, dilation, pads;

  // term(input index, weight index) for every product of output element
  // (n, oy, ox, o) whose input pixel lies in the image (padding is zero).
  template <class Term>
  void window(int64_t n, int64_t oy, int64_t ox, int64_t o, Term&& term) const {
    const int64_t c = o / multiplier;
    for (int64_t ky = 0; ky < kh; ++ky) {
      const int64_t iy = oy * stride[0] - pads[0] + ky * dilation[0];
      if (iy < 0 || iy >= height) continue;
      for (int64_t kx = 0; kx < kw; ++kx) {
        const int64_t ix = ox * stride[1] - pads[2] + kx * dilation[1];
        if (ix < 0 || ix >= width) continue;
        term(static_cast<size_t>(((n * height + iy) * width + ix) * channels + c),
             static_cast<size_t>((ky * kw + kx) * c_out + o));
      }
    }
  }
};

Node node_of(const std::vector<RefTensor>& inputs, const RefParams& params, RefTensor& out) {
  const RefTensor& in = inputs.at(0);
  const RefTensor& weights = inputs.at(1);
  Node d;
  d.has_bias = inputs.size() > 2 && inputs[2].present;
  if (in.shape.size() != 4 || weights.shape.size() != 4)
    throw std::invalid_argument("DepthwiseConv2D: input and weights must be 4-D");
  d.batch = in.shape[0], d.height = in.shape[1], d.width = in.shape[2], d.channels = in.shape[3];
  d.kh = weights.shape[0], d.kw = weights.shape[1], d.c_out = weights.shape[3];
  if (weights.shape[2] != 1 || d.channels < 1 || d.c_out % d.channels != 0)
    throw std::invalid_argument("DepthwiseConv2D: weights must be [kh, kw, 1, channels * multiplier]");
  if (d.has_bias && (inputs[2].shape.size() != 1 || inputs[2].shape[0] != d.c_out))
    throw std::invalid_argument("DepthwiseConv2D: bias must be [channels * multiplier]");
  d.multiplier = d.c_out / d.channels;
  d.stride = params.integers_or("stride", {1, 1});
  d.dilation = params.integers_or("dilation", {1, 1});
  d.pads = params.integers_or("pad_amount", {0, 0, 0, 0});  // [[top, bottom], [left, right]]
  if (d.stride.size() != 2 || d.dilation.size() != 2 || d.pads.size() != 4)
    throw std::invalid_argument("DepthwiseConv2D: stride and dilation take 2 values, pad_amount 2 x 2");
  if (d.stride[0] < 1 || d.stride[1] < 1 || d.dilation[0] < 1 || d.dilation[1] < 1)
    throw std::invalid_argument("DepthwiseConv2D: stride and dilation must be at least 1");
  const int64_t span_h = (d.kh - 1) * d.dilation[0] + 1, span_w = (d.kw - 1) * d.dilation[1] + 1;
  const int64_t padded_h = d.height + d.pads[0] + d.pads[1], padded_w = d.width + d.pads[2] + d.pads[3];
  if (padded_h < span_h || padded_w < span_w)
    throw std::invalid_argument("DepthwiseConv2D: the kernel window is larger than the padded input");
  d.out_h = (padded_h - span_h) / d.stride[0] + 1, d.out_w = (padded_w - span_w) / d.stride[1] + 1;
  out.shape = {d.batch, d.out_h, d.out_w, d.c_out};
  out.values.assign(element_count(out.shape), 0.0);
  return d;
}

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& in = inputs.at(0);
  const RefTensor& weights = inputs.at(1);
  RefTensor& out = outputs.at(0);
  const Node d = node_of(inputs, params, out);
  const double bias_unit = conv_reference::bias_unit(inputs, d.has_bias);
  size_t next = 0;
  for (int64_t n = 0; n < d.batch; ++n)
    for (int64_t oy = 0; oy < d.out_h; ++oy)
      for (int64_t ox = 0; ox < d.out_w; ++ox)
        for (int64_t o = 0; o < d.c_out; ++o) {
          CompensatedSum sum;
          if (d.has_bias) sum.add(bias_unit * inputs[2].values[static_cast<size_t>(o)]);
          d.window(n, oy, ox, o, [&](size_t i, size_t w) { sum.add(in.values[i] * weights.values[w]); });
          out.values[next++] = sum.value();
        }
}


// The integer reference (common/integer_reference.hpp): the rule of
// common/conv_reference.hpp on the stored codes, over the same window as
// compute(). false for the float types: the fp64 reference alone judges them.
bool compute_integer(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& in = inputs.at(0);
  const RefTensor& weights = inputs.at(1);
  RefTensor& out = outputs.at(0);
  if (!conv_reference::integer_rule_applies(in, weights, out)) return false;
  const Node d = node_of(inputs, params, out);
  const conv_reference::IntegerRule rule("DepthwiseConv2D", in, weights, out);
  out.codes = true;
  size_t next = 0;
  for (int64_t n = 0; n < d.batch; ++n)
    for (int64_t oy = 0; oy < d.out_h; ++oy)
      for (int64_t ox = 0; ox < d.out_w; ++ox)
        for (int64_t o = 0; o < d.c_out; ++o) {
          int64_t acc = d.has_bias ? static_cast<int64_t>(inputs[2].values[static_cast<size_t>(o)]) : 0;
          d.window(n, oy, ox, o, [&](size_t i, size_t w) {
            acc += rule.product(in.values[i], weights.values[w]);
          });
          out.values[next++] = rule.output(acc);
        }
  return true;
}

}  // namespace

extern const ReferenceOp oprig_reference_DepthwiseConv2D;
const ReferenceOp oprig_reference_DepthwiseConv2D = {"DepthwiseConv2D", compute, 0.0};
extern const IntegerReferenceOp oprig_integer_reference_DepthwiseConv2D;
const IntegerReferenceOp oprig_integer_reference_DepthwiseConv2D = {"DepthwiseConv2D", compute_integer};

}  // namespace oprig::opsuite
