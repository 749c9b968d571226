// fp64 reference of DepthwiseConv2D: for every output element, the sum over
// the kernel window of its one input channel, in double, straight from the
// formula of the spec (NHWC activations, weights [kernel_height,
// kernel_width, 1, channels * multiplier], output channel o reading input
// channel o / multiplier). Products of fp32 values are exact in double; their
// sum is kept with Neumaier's compensated summation, so it is within about
// one ulp of double of the exact sum even where the terms cancel (the golden
// cross-check holds it to 2 ulp of NumPy's exactly rounded math.fsum).
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

// Neumaier's variant of Kahan summation: the rounding error of every
// addition is collected and added back at the end.
class CompensatedSum {
 public:
  void add(double x) {
    const double t = sum_ + x;
    // Once the sum is infinite or NaN it stays so; there is no error to keep.
    if (std::isfinite(t)) error_ += std::fabs(sum_) >= std::fabs(x) ? (sum_ - t) + x : (x - t) + sum_;
    sum_ = t;
  }
  double value() const { return std::isfinite(sum_) ? sum_ + error_ : sum_; }

 private:
  double sum_ = 0, error_ = 0;
};

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& in = inputs.at(0);
  const RefTensor& weights = inputs.at(1);
  const bool has_bias = inputs.size() > 2 && inputs[2].present;
  if (in.shape.size() != 4 || weights.shape.size() != 4)
    throw std::invalid_argument("DepthwiseConv2D: input and weights must be 4-D");
  const int64_t batch = in.shape[0], height = in.shape[1], width = in.shape[2], channels = in.shape[3];
  const int64_t kh = weights.shape[0], kw = weights.shape[1], c_out = weights.shape[3];
  if (weights.shape[2] != 1 || channels < 1 || c_out % channels != 0)
    throw std::invalid_argument("DepthwiseConv2D: weights must be [kh, kw, 1, channels * multiplier]");
  if (has_bias && (inputs[2].shape.size() != 1 || inputs[2].shape[0] != c_out))
    throw std::invalid_argument("DepthwiseConv2D: bias must be [channels * multiplier]");
  const int64_t multiplier = c_out / channels;
  const std::vector<int64_t> stride = params.integers_or("stride", {1, 1});
  const std::vector<int64_t> dilation = params.integers_or("dilation", {1, 1});
  const std::vector<int64_t> pads = params.integers_or("pad_amount", {0, 0, 0, 0});  // [[top, bottom], [left, right]]
  if (stride.size() != 2 || dilation.size() != 2 || pads.size() != 4)
    throw std::invalid_argument("DepthwiseConv2D: stride and dilation take 2 values, pad_amount 2 x 2");
  if (stride[0] < 1 || stride[1] < 1 || dilation[0] < 1 || dilation[1] < 1)
    throw std::invalid_argument("DepthwiseConv2D: stride and dilation must be at least 1");
  const int64_t span_h = (kh - 1) * dilation[0] + 1, span_w = (kw - 1) * dilation[1] + 1;
  const int64_t padded_h = height + pads[0] + pads[1], padded_w = width + pads[2] + pads[3];
  if (padded_h < span_h || padded_w < span_w)
    throw std::invalid_argument("DepthwiseConv2D: the kernel window is larger than the padded input");
  const int64_t out_h = (padded_h - span_h) / stride[0] + 1, out_w = (padded_w - span_w) / stride[1] + 1;

  RefTensor& out = outputs.at(0);
  out.shape = {batch, out_h, out_w, c_out};
  out.values.assign(element_count(out.shape), 0.0);
  // Quantised activations: a plain INT_32 bias holds codes in units of
  // s_in * s_w (TFLite, NNAPI, QNN); a quantised one is already real.
  const double bias_unit = has_bias && in.scale != 0 && inputs[2].scale == 0 ? in.scale * weights.scale : 1.0;
  size_t next = 0;
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t oy = 0; oy < out_h; ++oy)
      for (int64_t ox = 0; ox < out_w; ++ox)
        for (int64_t o = 0; o < c_out; ++o) {
          const int64_t c = o / multiplier;
          CompensatedSum sum;
          if (has_bias) sum.add(bias_unit * inputs[2].values[static_cast<size_t>(o)]);
          for (int64_t ky = 0; ky < kh; ++ky) {
            const int64_t iy = oy * stride[0] - pads[0] + ky * dilation[0];
            if (iy < 0 || iy >= height) continue;  // padding: zero
            for (int64_t kx = 0; kx < kw; ++kx) {
              const int64_t ix = ox * stride[1] - pads[2] + kx * dilation[1];
              if (ix < 0 || ix >= width) continue;
              sum.add(in.values[static_cast<size_t>(((n * height + iy) * width + ix) * channels + c)] *
                      weights.values[static_cast<size_t>((ky * kw + kx) * c_out + o)]);
            }
          }
          out.values[next++] = sum.value();
        }
}

}  // namespace

extern const ReferenceOp oprig_reference_DepthwiseConv2D;
const ReferenceOp oprig_reference_DepthwiseConv2D = {"DepthwiseConv2D", compute, 0.0};

}  // namespace oprig::opsuite
