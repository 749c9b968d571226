// MultiClassNms as every backend's kernel sees it: the parameters read in
// create(), prepare()'s checks and shapes (the detection dimension left at
// -1: it depends on the values), the corners and the suppression test whose
// IEEE double operations every path repeats one for one (files that include
// this are compiled without contraction into fused multiply-adds, see
// CMakeLists.txt), and the host's count of detections that the device
// kernels' resolve_shapes() answers with (opencl.cpp says why the host).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/kernel.hpp"
#include "core/half.hpp"

namespace oprig::opsuite::multi_class_nms {

struct Params {
  float iou_threshold = 0.5f, score_threshold = 0.0f;
  int64_t max_detections = 100, per_class = 0;  // per_class 0: no limit
  bool center_size = false;
};

// The parameters by spec name with the spec's defaults; nullopt when one is
// outside its constraints (create answers INVALID_ARGUMENT).
inline std::optional<Params> read_params(const oprig_param* params, size_t num_params) {
  const std::optional<int> coding = enum_param(params, num_params, "box_coding", {"CORNERS", "CENTER_SIZE"});
  if (coding && *coding < 0) return std::nullopt;
  Params p;
  p.iou_threshold = static_cast<float>(scalar_param(params, num_params, "iou_threshold").value_or(0.5));
  p.score_threshold = static_cast<float>(scalar_param(params, num_params, "score_threshold").value_or(0.0));
  p.max_detections = static_cast<int64_t>(scalar_param(params, num_params, "max_detections").value_or(100));
  p.per_class = static_cast<int64_t>(scalar_param(params, num_params, "max_detections_per_class").value_or(0));
  p.center_size = coding.value_or(0) == 1;
  if (p.max_detections < 1 || p.per_class < 0 || !(p.iou_threshold >= 0 && p.iou_threshold <= 1)) return std::nullopt;
  return p;
}

// The tensors of one prepare.
struct Geometry {
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;  // of boxes and scores (and their outputs)
  size_t batch = 0, n = 0, classes = 0;
  // Kept boxes per class that can matter: min(max_detections_per_class or
  // n, max_detections, n); no class can place more in the merged output.
  size_t limit = 0;
  struct Feature {
    oprig_dtype dtype;
    size_t row;  // elements per box
  };
  std::vector<Feature> features;

  size_t element_bytes() const { return dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4; }
};

inline bool is_float(const oprig_tensor& t, bool allow_f16) {
  return t.scale == 0 && (t.dtype == OPRIG_DTYPE_FLOAT_32 || (allow_f16 && t.dtype == OPRIG_DTYPE_FLOAT_16));
}
inline bool is_int32(const oprig_tensor& t) { return t.scale == 0 && t.dtype == OPRIG_DTYPE_INT_32; }

// prepare()'s checks and shapes: boxes [batch, n, 4] and scores [batch, n,
// classes] of one float type (FLOAT_32, and FLOAT_16 where allow_f16), each
// features input [batch, n, ...] of a float type its output shares;
// detection_classes and num_detections INT_32. The detection dimension D of
// every output but num_detections is written as -1 (resolve_shapes() sets it).
inline oprig_status plan(const Params& p, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                         size_t num_outputs, bool allow_f16, Geometry* g) {
  if (inputs == nullptr || outputs == nullptr || num_inputs < 2 || num_outputs != num_inputs + 2)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& boxes = inputs[0];
  const oprig_tensor& scores = inputs[1];
  if (!is_float(boxes, allow_f16) || scores.dtype != boxes.dtype || !is_float(scores, allow_f16) ||
      outputs[0].dtype != boxes.dtype || outputs[1].dtype != boxes.dtype || !is_float(outputs[0], allow_f16) ||
      !is_float(outputs[1], allow_f16) || !is_int32(outputs[2]) || !is_int32(outputs[3]))
    return OPRIG_STATUS_UNSUPPORTED;
  for (size_t f = 2; f < num_inputs; ++f)
    if (!is_float(inputs[f], allow_f16) || outputs[f + 2].dtype != inputs[f].dtype || !is_float(outputs[f + 2], allow_f16))
      return OPRIG_STATUS_UNSUPPORTED;
  if (boxes.rank != 3 || boxes.dims[2] != 4 || scores.rank != 3 || scores.dims[0] != boxes.dims[0] ||
      scores.dims[1] != boxes.dims[1] || boxes.dims[1] > INT32_MAX)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  g->dtype = static_cast<oprig_dtype>(boxes.dtype);
  g->batch = static_cast<size_t>(boxes.dims[0]);
  g->n = static_cast<size_t>(boxes.dims[1]);
  g->classes = static_cast<size_t>(scores.dims[2]);
  g->features.clear();
  for (size_t f = 2; f < num_inputs; ++f) {
    const oprig_tensor& t = inputs[f];
    if (t.rank < 2 || t.dims[0] != boxes.dims[0] || t.dims[1] != boxes.dims[1]) return OPRIG_STATUS_INVALID_ARGUMENT;
    size_t row = 1;
    for (uint32_t d = 2; d < t.rank; ++d) row *= static_cast<size_t>(t.dims[d]);
    g->features.push_back({static_cast<oprig_dtype>(t.dtype), row});
  }
  const size_t per_class = p.per_class > 0 ? static_cast<size_t>(p.per_class) : g->n;
  g->limit = std::min({per_class, static_cast<size_t>(p.max_detections), g->n});

  outputs[0].rank = 3;
  outputs[0].dims[0] = boxes.dims[0], outputs[0].dims[1] = -1, outputs[0].dims[2] = 4;
  for (int o : {1, 2}) {
    outputs[o].rank = 2;
    outputs[o].dims[0] = boxes.dims[0], outputs[o].dims[1] = -1;
  }
  outputs[3].rank = 1;
  outputs[3].dims[0] = boxes.dims[0];
  for (size_t f = 2; f < num_inputs; ++f) {
    oprig_tensor& y = outputs[f + 2];
    y.rank = inputs[f].rank;
    std::copy(inputs[f].dims, inputs[f].dims + inputs[f].rank, y.dims);
    y.dims[1] = -1;
  }
  return OPRIG_STATUS_OK;
}

// resolve_shapes()' answer: D in every output but num_detections.
inline void set_depth(oprig_tensor* outputs, size_t num_outputs, int64_t depth) {
  for (size_t o = 0; o < num_outputs; ++o)
    if (o != 3) outputs[o].dims[1] = depth;
}

// ---- the arithmetic every path repeats --------------------------------------------------------

struct Corners {
  double ymin, xmin, ymax, xmax, area;
};

// One box's corners (sorted) and area in double, from its four coordinates
// in the order they are stored.
inline Corners corners_of(float v0, float v1, float v2, float v3, bool center_size) {
  double y1, x1, y2, x2;
  if (center_size) {  // [x_center, y_center, width, height]
    x1 = static_cast<double>(v0) - static_cast<double>(v2) / 2;
    x2 = static_cast<double>(v0) + static_cast<double>(v2) / 2;
    y1 = static_cast<double>(v1) - static_cast<double>(v3) / 2;
    y2 = static_cast<double>(v1) + static_cast<double>(v3) / 2;
  } else {  // [y1, x1, y2, x2]
    y1 = v0, x1 = v1, y2 = v2, x2 = v3;
  }
  Corners c{std::min(y1, y2), std::min(x1, x2), std::max(y1, y2), std::max(x1, x2), 0};
  c.area = (c.ymax - c.ymin) * (c.xmax - c.xmin);
  return c;
}

// Whether a kept box suppresses a candidate: both with area, overlapping,
// intersection over union above the threshold.
inline bool suppresses(const Corners& kept, const Corners& c, double iou_threshold) {
  if (kept.area <= 0 || c.area <= 0) return false;
  const double h = std::min(kept.ymax, c.ymax) - std::max(kept.ymin, c.ymin);
  const double w = std::min(kept.xmax, c.xmax) - std::max(kept.xmin, c.xmin);
  if (h <= 0 || w <= 0) return false;
  const double intersection = h * w;
  return intersection / (kept.area + c.area - intersection) > iou_threshold;
}

// A score above the threshold (never NaN) as a monotone integer key; -0 and
// +0 alike.
inline uint32_t score_key(float s) {
  const auto b = static_cast<int32_t>(std::bit_cast<uint32_t>(s + 0.0f));  // -0 + 0 = +0
  return static_cast<uint32_t>(b ^ static_cast<int32_t>(static_cast<uint32_t>(b >> 31) >> 1)) ^ 0x80000000u;
}

// The score threshold as the device kernels compare scores: ordered
// integers (a < b as floats iff order(a) < order(b), -0 and +0 alike), so
// that a device flushing fp32 denormals still compares them. No score is
// above a NaN threshold.
inline int32_t threshold_order(float threshold) {
  if (std::isnan(threshold)) return INT32_MAX;
  const uint32_t bits = std::bit_cast<uint32_t>(threshold);
  return (bits & 0x80000000u) != 0 ? static_cast<int32_t>(0x80000000u - bits) : static_cast<int32_t>(bits);
}

// ---- the host's count ------------------------------------------------------------------------

inline float element(const oprig_tensor& t, size_t i) {
  if (t.dtype == OPRIG_DTYPE_FLOAT_16) return half_to_float(static_cast<const uint16_t*>(t.data)[i]);
  return static_cast<const float*>(t.data)[i];
}

// D, the largest num_detections over the batch, from HOST copies of boxes
// and scores: the same greedy selection, counting only, and no further than
// the answer needs (a batch item stops at max_detections kept boxes, the
// whole count once one item reaches it). Throws std::bad_alloc.
inline int64_t count_depth(const Params& p, const Geometry& g, const oprig_tensor* inputs) {
  const size_t most = static_cast<size_t>(p.max_detections);
  std::vector<Corners> corners(g.n), kept;
  std::vector<uint64_t> ranks;
  size_t depth = 0;
  for (size_t b = 0; b < g.batch && depth < most && g.limit > 0; ++b) {
    for (size_t i = 0; i < g.n; ++i) {
      const size_t at = (b * g.n + i) * 4;
      corners[i] = corners_of(element(inputs[0], at), element(inputs[0], at + 1), element(inputs[0], at + 2),
                              element(inputs[0], at + 3), p.center_size);
    }
    size_t found = 0;
    for (size_t c = 0; c < g.classes && found < most; ++c) {
      ranks.clear();
      for (size_t i = 0; i < g.n; ++i) {
        const float s = element(inputs[1], (b * g.n + i) * g.classes + c);
        if (s > p.score_threshold)
          ranks.push_back((static_cast<uint64_t>(score_key(s)) << 32) | static_cast<uint32_t>(~static_cast<uint32_t>(i)));
      }
      std::make_heap(ranks.begin(), ranks.end());
      kept.clear();
      for (auto end = ranks.end(); end != ranks.begin() && kept.size() < g.limit; --end) {
        std::pop_heap(ranks.begin(), end);
        const Corners& candidate = corners[static_cast<uint32_t>(~static_cast<uint32_t>(*(end - 1)))];
        if (std::none_of(kept.begin(), kept.end(),
                         [&](const Corners& k) { return suppresses(k, candidate, p.iou_threshold); }))
          kept.push_back(candidate);
      }
      found += kept.size();
    }
    depth = std::max(depth, std::min(found, most));
  }
  return static_cast<int64_t>(depth);
}

// Reading every score once per class and every box once; the comparisons
// depend on the values and are not counted.
inline oprig_cost cost(const Geometry& g, size_t depth) {
  const size_t e = g.element_bytes();
  oprig_cost c{};
  c.flops = g.batch * g.classes * g.n;
  c.bytes_read = g.batch * g.n * (4 + g.classes) * e;
  c.bytes_written = g.batch * (depth * (4 * e + e + 4) + 4);
  return c;
}

}  // namespace oprig::opsuite::multi_class_nms
