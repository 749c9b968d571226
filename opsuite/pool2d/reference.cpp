// fp64 reference of Pool2D over an NHWC tensor, window by window: the
// window of output (oh, ow) covers input rows oh * stride[0] - pads[0] + i
// and columns ow * stride[1] - pads[1] + j; cells outside the input are
// padding. MAX is the largest input value in the window (NaN if any is
// NaN); AVG is the sum in double (exact for the small-integer fills, within
// 2^-50 of it otherwise) divided once by the number of input cells, or by the
// whole window with count_include_pad.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

std::vector<int64_t> list_of(const RefParams& params, const char* name, std::vector<int64_t> fallback, size_t size) {
  std::vector<int64_t> v = params.integers_or(name, std::move(fallback));
  if (v.size() != size)
    throw std::invalid_argument(std::string("Pool2D: ") + name + " needs " + std::to_string(size) + " values");
  return v;
}

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& in = inputs.at(0);
  if (in.shape.size() != 4) throw std::invalid_argument("Pool2D takes an NHWC tensor of rank 4");
  const int64_t batches = in.shape[0], height = in.shape[1], width = in.shape[2], channels = in.shape[3];
  const std::string type = params.text("type");
  if (type != "MAX" && type != "AVG") throw std::invalid_argument("Pool2D: unknown type '" + type + "'");
  const bool is_max = type == "MAX";
  const std::vector<int64_t> kernel = list_of(params, "kernel", {}, 2);
  const std::vector<int64_t> stride = list_of(params, "stride", {1, 1}, 2);
  const std::vector<int64_t> pads = list_of(params, "pads", {0, 0, 0, 0}, 4);  // top, left, bottom, right
  const bool count_include_pad = params.boolean_or("count_include_pad", false);
  for (int axis = 0; axis < 2; ++axis) {
    if (kernel[axis] < 1 || stride[axis] < 1) throw std::invalid_argument("Pool2D: kernel and stride must be >= 1");
    if (pads[axis] < 0 || pads[axis + 2] < 0 || pads[axis] >= kernel[axis] || pads[axis + 2] >= kernel[axis])
      throw std::invalid_argument("Pool2D: pads must be in [0, kernel)");
  }
  const int64_t padded_height = height + pads[0] + pads[2], padded_width = width + pads[1] + pads[3];
  if (kernel[0] > padded_height || kernel[1] > padded_width)
    throw std::invalid_argument("Pool2D: the window is larger than the padded input");
  const int64_t out_height = (padded_height - kernel[0]) / stride[0] + 1;
  const int64_t out_width = (padded_width - kernel[1]) / stride[1] + 1;

  RefTensor& out = outputs.at(0);
  out.shape = {batches, out_height, out_width, channels};
  out.values.assign(element_count(out.shape), 0.0);
  auto at = [&](int64_t n, int64_t h, int64_t w, int64_t c) {
    return in.values[static_cast<size_t>(((n * height + h) * width + w) * channels + c)];
  };
  size_t o = 0;
  for (int64_t n = 0; n < batches; ++n)
    for (int64_t oh = 0; oh < out_height; ++oh)
      for (int64_t ow = 0; ow < out_width; ++ow)
        for (int64_t c = 0; c < channels; ++c) {
          double largest = -std::numeric_limits<double>::infinity(), sum = 0;
          bool nan = false;
          int64_t cells = 0;
          for (int64_t i = 0; i < kernel[0]; ++i)
            for (int64_t j = 0; j < kernel[1]; ++j) {
              const int64_t h = oh * stride[0] - pads[0] + i, w = ow * stride[1] - pads[1] + j;
              if (h < 0 || h >= height || w < 0 || w >= width) continue;  // padding
              const double x = at(n, h, w, c);
              nan = nan || std::isnan(x);
              largest = std::max(largest, x);
              sum += x;
              ++cells;
            }
          if (is_max) {
            out.values[o++] = nan ? std::numeric_limits<double>::quiet_NaN() : largest;
          } else {
            const int64_t divisor = count_include_pad ? kernel[0] * kernel[1] : cells;
            out.values[o++] = sum / static_cast<double>(divisor);
          }
        }
}

}  // namespace

extern const ReferenceOp oprig_reference_Pool2D;
const ReferenceOp oprig_reference_Pool2D = {"Pool2D", compute, 0.0};

}  // namespace oprig::opsuite
