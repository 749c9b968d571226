// Resize as every backend's kernel sees it: the parameters read in create(),
// the checks and output shape of prepare(), and what depends only on an
// output row or column, worked out once per prepare in double exactly as the
// spec writes it: the input rows and columns each output index reads and
// BILINEAR's weights, rounded once to fp32. The cpu kernel reads these
// tables directly; the opencl and vulkan kernels read them from a device
// buffer (device_table), so every backend blends with the same weights. The
// dsp kernel (UINT_8 only) takes the same coordinates (input_coordinate,
// linear_position) and rounds the weights to its own fixed point.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "common/kernel.hpp"

namespace oprig::opsuite::resize {

enum class Mode { kNearest, kBilinear };
enum class Transformation { kAlignCorners, kHalfPixel, kAsymmetric };
enum class Rounding { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };

struct Resampling {
  Mode mode = Mode::kNearest;
  Transformation transformation = Transformation::kHalfPixel;
  Rounding rounding = Rounding::kRoundPreferFloor;
  int64_t out_height = 0, out_width = 0;
};

// Per output index along one axis: the input index or indices it reads and,
// for BILINEAR, the weights of the second one and of the first.
struct AxisTable {
  std::vector<size_t> first, second;
  std::vector<float> weight, rest;  // rest = 1 - weight, rounded on its own
};

// The tensors of one prepare (FLOAT_32 or FLOAT_16, NHWC) and the tables.
struct Plan {
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  int64_t batches = 0, height = 0, width = 0, channels = 0;
  AxisTable rows, columns;

  uint64_t element_bytes() const { return dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4; }
};

// The parameters by spec name; absent enumerations take the spec's defaults
// (NEAREST, HALF_PIXEL, ROUND_PREFER_FLOOR). nullopt when one is missing or
// illegal (create answers INVALID_ARGUMENT).
inline std::optional<Resampling> read_resampling(const oprig_param* params, size_t num_params) {
  const std::optional<double> out_height = scalar_param(params, num_params, "output_height");
  const std::optional<double> out_width = scalar_param(params, num_params, "output_width");
  if (!out_height || !out_width || *out_height < 1 || *out_width < 1) return std::nullopt;
  const int mode = enum_param(params, num_params, "mode", {"NEAREST", "BILINEAR"}).value_or(0);
  const int transformation = enum_param(params, num_params, "coordinate_transformation",
                                        {"ALIGN_CORNERS", "HALF_PIXEL", "ASYMMETRIC"})
                                 .value_or(1);
  const int rounding = enum_param(params, num_params, "nearest_mode",
                                  {"ROUND_PREFER_FLOOR", "ROUND_PREFER_CEIL", "FLOOR", "CEIL"})
                           .value_or(0);
  if (mode < 0 || transformation < 0 || rounding < 0) return std::nullopt;
  Resampling r;
  r.mode = static_cast<Mode>(mode);
  r.transformation = static_cast<Transformation>(transformation);
  r.rounding = static_cast<Rounding>(rounding);
  r.out_height = static_cast<int64_t>(*out_height);
  r.out_width = static_cast<int64_t>(*out_width);
  return r;
}

// Left to right in double: exact wherever the exact coordinate is an integer
// or half an integer, so NEAREST breaks ties as exact arithmetic would.
inline double input_coordinate(Transformation t, int64_t x, int64_t in, int64_t out) {
  const auto xd = static_cast<double>(x), ind = static_cast<double>(in), outd = static_cast<double>(out);
  switch (t) {
    case Transformation::kAlignCorners: return out == 1 ? 0.0 : xd * (ind - 1) / (outd - 1);
    case Transformation::kHalfPixel: return (xd + 0.5) * ind / outd - 0.5;
    case Transformation::kAsymmetric: return xd * ind / outd;
  }
  return 0.0;
}

// BILINEAR along one axis: the coordinate clamped to [0, in - 1], its two
// neighbours and the exact weight of the second (the dsp kernel rounds it to
// its own fixed point).
struct LinearPosition {
  int64_t first, second;
  double weight;
};
inline LinearPosition linear_position(double c, int64_t in) {
  const double clamped = std::clamp(c, 0.0, static_cast<double>(in - 1));
  const auto first = static_cast<int64_t>(std::floor(clamped));
  return {first, std::min(first + 1, in - 1), clamped - static_cast<double>(first)};
}

inline AxisTable axis_table(const Resampling& r, int64_t in, int64_t out) {
  AxisTable t;
  for (int64_t x = 0; x < out; ++x) {
    const double c = input_coordinate(r.transformation, x, in, out);
    if (r.mode == Mode::kNearest) {
      double index = 0;
      switch (r.rounding) {
        case Rounding::kRoundPreferFloor: index = std::ceil(c - 0.5); break;
        case Rounding::kRoundPreferCeil: index = std::floor(c + 0.5); break;
        case Rounding::kFloor: index = std::floor(c); break;
        case Rounding::kCeil: index = std::ceil(c); break;
      }
      t.first.push_back(static_cast<size_t>(std::clamp(static_cast<int64_t>(index), int64_t{0}, in - 1)));
    } else {
      const LinearPosition p = linear_position(c, in);
      t.first.push_back(static_cast<size_t>(p.first));
      t.second.push_back(static_cast<size_t>(p.second));
      t.weight.push_back(static_cast<float>(p.weight));
      t.rest.push_back(static_cast<float>(1.0 - p.weight));
    }
  }
  return t;
}

// prepare()'s checks (one FLOAT_32 or FLOAT_16 input and output, rank 4, at
// least one input pixel); writes the output shape and fills the tables.
inline oprig_status plan_resize(const Resampling& r, const oprig_tensor* inputs, size_t num_inputs,
                                oprig_tensor* outputs, size_t num_outputs, Plan* plan) {
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (in.rank != 4 || in.dims[1] < 1 || in.dims[2] < 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  plan->dtype = static_cast<oprig_dtype>(in.dtype);
  plan->batches = in.dims[0];
  plan->height = in.dims[1];
  plan->width = in.dims[2];
  plan->channels = in.dims[3];
  plan->rows = axis_table(r, plan->height, r.out_height);
  plan->columns = axis_table(r, plan->width, r.out_width);
  out.rank = 4;
  out.dims[0] = plan->batches;
  out.dims[1] = r.out_height;
  out.dims[2] = r.out_width;
  out.dims[3] = plan->channels;
  return OPRIG_STATUS_OK;
}

// The tables as the device kernels read them: one 16-byte entry per output
// row, then one per output column: {first, second, weight bits, rest bits}
// (NEAREST: second = first, weight 0, rest 1).
inline std::vector<uint32_t> device_table(const Plan& plan) {
  std::vector<uint32_t> words;
  for (const AxisTable* t : {&plan.rows, &plan.columns})
    for (size_t x = 0; x < t->first.size(); ++x) {
      const bool bilinear = !t->second.empty();
      const float weight = bilinear ? t->weight[x] : 0.0f, rest = bilinear ? t->rest[x] : 1.0f;
      uint32_t w = 0, r = 0;
      std::memcpy(&w, &weight, 4);
      std::memcpy(&r, &rest, 4);
      words.insert(words.end(), {static_cast<uint32_t>(t->first[x]),
                                 static_cast<uint32_t>(bilinear ? t->second[x] : t->first[x]), w, r});
    }
  return words;
}

// What every backend's cost() reports: six products and three sums per
// BILINEAR value; each output value reads its neighbours (from cache after
// the first time): the smaller of what is read and the whole input.
inline oprig_cost resize_cost(const Resampling& r, const Plan& plan) {
  const auto outputs = static_cast<uint64_t>(plan.batches * r.out_height * r.out_width * plan.channels);
  const auto inputs = static_cast<uint64_t>(plan.batches * plan.height * plan.width * plan.channels);
  const bool bilinear = r.mode == Mode::kBilinear;
  return {bilinear ? 9 * outputs : 0, std::min(inputs, (bilinear ? 4 : 1) * outputs) * plan.element_bytes(),
          outputs * plan.element_bytes()};
}

}  // namespace oprig::opsuite::resize
