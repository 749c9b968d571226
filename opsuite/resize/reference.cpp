// fp64 reference of Resize over an NHWC tensor, output element by output
// element, written as the spec reads. The input coordinate is evaluated left
// to right in double, which is exact wherever the exact value is an integer
// or half an integer (the numerator is an exact integer or half-integer, and
// a quotient that is representable comes out exact), so NEAREST's rounding
// decisions at ties are those of exact arithmetic.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

double input_coordinate(const std::string& transformation, int64_t x, int64_t in, int64_t out) {
  const auto xd = static_cast<double>(x), ind = static_cast<double>(in), outd = static_cast<double>(out);
  if (transformation == "ALIGN_CORNERS") return out == 1 ? 0.0 : xd * (ind - 1) / (outd - 1);
  if (transformation == "HALF_PIXEL") return (xd + 0.5) * ind / outd - 0.5;
  if (transformation == "ASYMMETRIC") return xd * ind / outd;
  throw std::invalid_argument("Resize: unknown coordinate_transformation '" + transformation + "'");
}

int64_t nearest_index(const std::string& rounding, double x_in, int64_t in) {
  double index;
  if (rounding == "ROUND_PREFER_FLOOR") index = std::ceil(x_in - 0.5);        // halves go down
  else if (rounding == "ROUND_PREFER_CEIL") index = std::floor(x_in + 0.5);   // halves go up
  else if (rounding == "FLOOR") index = std::floor(x_in);
  else if (rounding == "CEIL") index = std::ceil(x_in);
  else throw std::invalid_argument("Resize: unknown nearest_mode '" + rounding + "'");
  return std::clamp(static_cast<int64_t>(index), int64_t{0}, in - 1);
}

// BILINEAR's two neighbours along one axis and the weight of the second.
struct Neighbours {
  int64_t first, second;
  double weight;
};

Neighbours linear_neighbours(double x_in, int64_t in) {
  const double x = std::clamp(x_in, 0.0, static_cast<double>(in - 1));
  const auto first = static_cast<int64_t>(std::floor(x));
  return {first, std::min(first + 1, in - 1), x - static_cast<double>(first)};
}

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& in = inputs.at(0);
  if (in.shape.size() != 4) throw std::invalid_argument("Resize takes an NHWC tensor of rank 4");
  const int64_t batches = in.shape[0], height = in.shape[1], width = in.shape[2], channels = in.shape[3];
  const int64_t out_height = params.integer("output_height"), out_width = params.integer("output_width");
  if (height < 1 || width < 1) throw std::invalid_argument("Resize: the input has no pixel to sample");
  if (out_height < 1 || out_width < 1) throw std::invalid_argument("Resize: the output size must be at least 1x1");
  const std::string mode = params.text_or("mode", "NEAREST");
  const std::string transformation = params.text_or("coordinate_transformation", "HALF_PIXEL");
  const std::string rounding = params.text_or("nearest_mode", "ROUND_PREFER_FLOOR");
  if (mode != "NEAREST" && mode != "BILINEAR") throw std::invalid_argument("Resize: unknown mode '" + mode + "'");

  RefTensor& out = outputs.at(0);
  out.shape = {batches, out_height, out_width, channels};
  out.values.clear();
  out.values.reserve(element_count(out.shape));
  auto at = [&](int64_t n, int64_t h, int64_t w, int64_t c) {
    return in.values[static_cast<size_t>(((n * height + h) * width + w) * channels + c)];
  };
  for (int64_t n = 0; n < batches; ++n)
    for (int64_t y = 0; y < out_height; ++y)
      for (int64_t x = 0; x < out_width; ++x)
        for (int64_t c = 0; c < channels; ++c) {
          const double y_in = input_coordinate(transformation, y, height, out_height);
          const double x_in = input_coordinate(transformation, x, width, out_width);
          if (mode == "NEAREST") {
            out.values.push_back(at(n, nearest_index(rounding, y_in, height), nearest_index(rounding, x_in, width), c));
            continue;
          }
          const Neighbours ny = linear_neighbours(y_in, height), nx = linear_neighbours(x_in, width);
          const double a = at(n, ny.first, nx.first, c), b = at(n, ny.first, nx.second, c);
          const double cc = at(n, ny.second, nx.first, c), d = at(n, ny.second, nx.second, c);
          const double wx = nx.weight, wy = ny.weight;
          out.values.push_back((1 - wx) * ((1 - wy) * a + wy * cc) + wx * ((1 - wy) * b + wy * d));
        }
}

}  // namespace

extern const ReferenceOp oprig_reference_Resize;
const ReferenceOp oprig_reference_Resize = {"Resize", compute, 0.0};

}  // namespace oprig::opsuite
