// fp64 reference of Conv2D: for every output element, the sum over the kernel
// window and the group's input channels, in double, straight from the formula
// of the spec. The activations are read and written through their layout
// (RefTensor::layout of the input: "NHWC", or "NCHW"); the weights are
// [kernel_height, kernel_width, channel_in / group, channel_out] on every
// backend. Products of fp32 values are exact in double; their sum is kept with
// Neumaier's compensated summation (common/compensated_sum.hpp), so it is
// within about one ulp of double of the exact sum even where the terms cancel
// (the golden cross-check holds it to 2 ulp of NumPy's exactly rounded
// math.fsum).
#include <algorithm>
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

struct Layout4 {
  bool nchw;
  int64_t batch, channels, height, width;
  size_t index(int64_t n, int64_t c, int64_t y, int64_t x) const {
    const int64_t i = nchw ? ((n * channels + c) * height + y) * width + x : ((n * height + y) * width + x) * channels + c;
    return static_cast<size_t>(i);
  }
};

Layout4 activations(const RefTensor& t) {
  if (t.shape.size() != 4) throw std::invalid_argument("Conv2D: the input must be 4-D");
  const auto& s = t.shape;
  if (t.layout == "NCHW") return {true, s[0], s[1], s[2], s[3]};
  if (t.layout.empty() || t.layout == "NHWC") return {false, s[0], s[3], s[1], s[2]};
  throw std::invalid_argument("Conv2D: layout '" + t.layout + "' (NHWC or NCHW)");
}

// Padding before and after along one axis, and the output size, per the spec.
struct Axis {
  int64_t before, after, out;
};

Axis plan_axis(const std::string& mode, int64_t size, int64_t kernel, int64_t stride, int64_t dilation,
               int64_t pad_before, int64_t pad_after) {
  const int64_t span = (kernel - 1) * dilation + 1;
  if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
    const int64_t out = (size + stride - 1) / stride;
    const int64_t total = std::max<int64_t>(0, (out - 1) * stride + span - size);
    const int64_t small = total / 2, large = total - small;
    return mode == "SAME_UPPER" ? Axis{small, large, out} : Axis{large, small, out};
  }
  if (mode == "VALID") pad_before = pad_after = 0;
  else if (mode != "EXPLICIT") throw std::invalid_argument("Conv2D: padding '" + mode + "'");
  const int64_t padded = size + pad_before + pad_after;
  if (padded < span) throw std::invalid_argument("Conv2D: the kernel window is larger than the padded input");
  return {pad_before, pad_after, (padded - span) / stride + 1};
}

// A checked node: its geometry, the output's shape set.
struct Node {
  Layout4 x, y;
  int64_t kh = 0, kw = 0, group_in = 0, c_out = 0, group_out = 0;
  bool has_bias = false;
  std::vector<int64_t> stride, dilation;
  Axis rows{}, cols{};

  // term(input index, weight index) for every product of output element
  // (n, co, oy, ox) whose input pixel lies in the image (padding is zero).
  template <class Term>
  void window(int64_t n, int64_t co, int64_t oy, int64_t ox, Term&& term) const {
    const int64_t g = co / group_out;
    for (int64_t ky = 0; ky < kh; ++ky) {
      const int64_t iy = oy * stride[0] - rows.before + ky * dilation[0];
      if (iy < 0 || iy >= x.height) continue;
      for (int64_t kx = 0; kx < kw; ++kx) {
        const int64_t ix = ox * stride[1] - cols.before + kx * dilation[1];
        if (ix < 0 || ix >= x.width) continue;
        for (int64_t ci = 0; ci < group_in; ++ci)
          term(x.index(n, g * group_in + ci, iy, ix), static_cast<size_t>(((ky * kw + kx) * group_in + ci) * c_out + co));
      }
    }
  }
};

Node node_of(const std::vector<RefTensor>& inputs, const RefParams& params, RefTensor& out) {
  const RefTensor& weights = inputs.at(1);
  Node d;
  d.has_bias = inputs.size() > 2 && inputs[2].present;
  d.x = activations(inputs.at(0));
  if (weights.shape.size() != 4) throw std::invalid_argument("Conv2D: weights must be 4-D");
  d.kh = weights.shape[0], d.kw = weights.shape[1], d.group_in = weights.shape[2], d.c_out = weights.shape[3];
  const int64_t group = params.integer_or("group", 1);
  if (group < 1 || d.x.channels != d.group_in * group || d.c_out % group != 0)
    throw std::invalid_argument("Conv2D: channel_in must be group * weights[2] and group must divide channel_out");
  if (d.has_bias && (inputs[2].shape.size() != 1 || inputs[2].shape[0] != d.c_out))
    throw std::invalid_argument("Conv2D: bias must be [channel_out]");
  d.stride = params.integers_or("stride", {1, 1});
  d.dilation = params.integers_or("dilation", {1, 1});
  const std::vector<int64_t> pads = params.integers_or("pad_amount", {0, 0, 0, 0});  // [[top, bottom], [left, right]]
  if (d.stride.size() != 2 || d.dilation.size() != 2 || pads.size() != 4)
    throw std::invalid_argument("Conv2D: stride and dilation take 2 values, pad_amount 2 x 2");
  if (d.stride[0] < 1 || d.stride[1] < 1 || d.dilation[0] < 1 || d.dilation[1] < 1)
    throw std::invalid_argument("Conv2D: stride and dilation must be at least 1");
  const std::string mode = params.text_or("padding", "EXPLICIT");
  d.rows = plan_axis(mode, d.x.height, d.kh, d.stride[0], d.dilation[0], pads[0], pads[1]);
  d.cols = plan_axis(mode, d.x.width, d.kw, d.stride[1], d.dilation[1], pads[2], pads[3]);
  d.group_out = d.c_out / group;
  d.y = Layout4{d.x.nchw, d.x.batch, d.c_out, d.rows.out, d.cols.out};
  out.shape = d.x.nchw ? std::vector<int64_t>{d.y.batch, d.y.channels, d.y.height, d.y.width}
                       : std::vector<int64_t>{d.y.batch, d.y.height, d.y.width, d.y.channels};
  out.values.assign(element_count(out.shape), 0.0);
  return d;
}

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& in = inputs.at(0);
  const RefTensor& weights = inputs.at(1);
  RefTensor& out = outputs.at(0);
  const Node d = node_of(inputs, params, out);
  const double bias_unit = conv_reference::bias_unit(inputs, d.has_bias);
  for (int64_t n = 0; n < d.y.batch; ++n)
    for (int64_t oy = 0; oy < d.y.height; ++oy)
      for (int64_t ox = 0; ox < d.y.width; ++ox)
        for (int64_t co = 0; co < d.c_out; ++co) {
          CompensatedSum sum;
          if (d.has_bias) sum.add(bias_unit * inputs[2].values[static_cast<size_t>(co)]);
          d.window(n, co, oy, ox, [&](size_t i, size_t w) { sum.add(in.values[i] * weights.values[w]); });
          out.values[d.y.index(n, co, oy, ox)] = sum.value();
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
  const conv_reference::IntegerRule rule("Conv2D", in, weights, out);
  out.codes = true;
  for (int64_t n = 0; n < d.y.batch; ++n)
    for (int64_t oy = 0; oy < d.y.height; ++oy)
      for (int64_t ox = 0; ox < d.y.width; ++ox)
        for (int64_t co = 0; co < d.c_out; ++co) {
          int64_t acc = d.has_bias ? static_cast<int64_t>(inputs[2].values[static_cast<size_t>(co)]) : 0;
          d.window(n, co, oy, ox, [&](size_t i, size_t w) {
            acc += rule.product(in.values[i], weights.values[w]);
          });
          out.values[d.y.index(n, co, oy, ox)] = rule.output(acc);
        }
  return true;
}

}  // namespace

extern const ReferenceOp oprig_reference_Conv2D;
const ReferenceOp oprig_reference_Conv2D = {"Conv2D", compute, 0.0};
extern const IntegerReferenceOp oprig_integer_reference_Conv2D;
const IntegerReferenceOp oprig_integer_reference_Conv2D = {"Conv2D", compute_integer};

}  // namespace oprig::opsuite
