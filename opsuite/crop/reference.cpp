// fp64 reference of Crop (seed 000's example: output_height = input_height -
// crop_top - crop_bottom): out[n, h, w, c] = in[n, h + crop_top, w + crop_left, c]
// over an NHWC tensor. A copy, so every value comes through unchanged.
#include <stdexcept>
#include <string>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& in = inputs.at(0);
  if (in.shape.size() != 4) throw std::invalid_argument("Crop takes an NHWC tensor of rank 4");
  const int64_t batches = in.shape[0], height = in.shape[1], width = in.shape[2], channels = in.shape[3];
  const int64_t top = params.integer_or("crop_top", 0), bottom = params.integer_or("crop_bottom", 0);
  const int64_t left = params.integer_or("crop_left", 0), right = params.integer_or("crop_right", 0);
  if (top < 0 || bottom < 0 || left < 0 || right < 0) throw std::invalid_argument("Crop: negative crop");
  if (top + bottom > height || left + right > width)
    throw std::invalid_argument("Crop: crops larger than the input (" + std::to_string(height) + "x" +
                                std::to_string(width) + ")");
  const int64_t out_height = height - top - bottom, out_width = width - left - right;

  RefTensor& out = outputs.at(0);
  out.shape = {batches, out_height, out_width, channels};
  out.values.clear();
  out.values.reserve(element_count(out.shape));
  for (int64_t n = 0; n < batches; ++n)
    for (int64_t h = 0; h < out_height; ++h)
      for (int64_t w = 0; w < out_width; ++w)
        for (int64_t c = 0; c < channels; ++c)
          out.values.push_back(
              in.values[static_cast<size_t>(((n * height + h + top) * width + w + left) * channels + c)]);
}

}  // namespace

extern const ReferenceOp oprig_reference_Crop;
const ReferenceOp oprig_reference_Crop = {"Crop", compute, 0.0};

}  // namespace oprig::opsuite
