// fp64 reference of MultiClassNms, written as the spec reads: per batch item
// and class, the candidates (score above score_threshold) in order of score,
// each kept unless a box already kept for the class overlaps it with an
// intersection over union above iou_threshold; then all classes' kept boxes
// ordered by (score, class, box index) and cut to max_detections; outputs
// padded to the batch's largest count. The float parameters are used as the
// kernel receives them (FLOAT_32).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

struct Corners {
  double ymin, xmin, ymax, xmax, area;
};

Corners corners_of(const double* box, bool center_size) {
  double y1, x1, y2, x2;
  if (center_size) {  // [x_center, y_center, width, height]
    x1 = box[0] - box[2] / 2;
    x2 = box[0] + box[2] / 2;
    y1 = box[1] - box[3] / 2;
    y2 = box[1] + box[3] / 2;
  } else {  // [y1, x1, y2, x2], either corner first
    y1 = box[0];
    x1 = box[1];
    y2 = box[2];
    x2 = box[3];
  }
  Corners c{std::min(y1, y2), std::min(x1, x2), std::max(y1, y2), std::max(x1, x2), 0};
  c.area = (c.ymax - c.ymin) * (c.xmax - c.xmin);
  return c;
}

bool suppresses(const Corners& kept, const Corners& candidate, double iou_threshold) {
  if (kept.area <= 0 || candidate.area <= 0) return false;
  const double h = std::min(kept.ymax, candidate.ymax) - std::max(kept.ymin, candidate.ymin);
  const double w = std::min(kept.xmax, candidate.xmax) - std::max(kept.xmin, candidate.xmin);
  if (h <= 0 || w <= 0) return false;
  const double intersection = h * w;
  const double iou = intersection / (kept.area + candidate.area - intersection);
  return iou > iou_threshold;
}

struct Detection {
  double score;
  int64_t cls, box;
};

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& boxes = inputs.at(0);
  const RefTensor& scores = inputs.at(1);
  if (boxes.shape.size() != 3 || boxes.shape[2] != 4) throw std::invalid_argument("boxes must be [batch, num_boxes, 4]");
  if (scores.shape.size() != 3 || scores.shape[0] != boxes.shape[0] || scores.shape[1] != boxes.shape[1])
    throw std::invalid_argument("scores must be [batch, num_boxes, num_classes]");
  const size_t features = inputs.size() - 2;
  if (outputs.size() != 4 + features)
    throw std::invalid_argument("one detection_features output per features input");
  for (size_t f = 0; f < features; ++f) {
    const RefTensor& t = inputs[2 + f];
    if (!t.present || t.shape.size() < 2 || t.shape[0] != boxes.shape[0] || t.shape[1] != boxes.shape[1])
      throw std::invalid_argument("features must be [batch, num_boxes, ...]");
  }
  const double iou_threshold = static_cast<float>(params.number_or("iou_threshold", 0.5));
  const double score_threshold = static_cast<float>(params.number_or("score_threshold", 0.0));
  const int64_t max_detections = params.integer_or("max_detections", 100);
  const int64_t per_class = params.integer_or("max_detections_per_class", 0);
  const std::string coding = params.text_or("box_coding", "CORNERS");
  if (coding != "CORNERS" && coding != "CENTER_SIZE") throw std::invalid_argument("unknown box_coding " + coding);
  if (max_detections < 1 || per_class < 0 || iou_threshold < 0 || iou_threshold > 1)
    throw std::invalid_argument("parameters outside their constraints");

  const int64_t batch = boxes.shape[0], n = boxes.shape[1], classes = scores.shape[2];
  std::vector<std::vector<Detection>> found(static_cast<size_t>(batch));
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<Corners> corners;
    for (int64_t i = 0; i < n; ++i)
      corners.push_back(corners_of(&boxes.values[static_cast<size_t>((b * n + i) * 4)], coding == "CENTER_SIZE"));
    auto score = [&](int64_t i, int64_t c) { return scores.values[static_cast<size_t>((b * n + i) * classes + c)]; };
    for (int64_t c = 0; c < classes; ++c) {
      std::vector<int64_t> candidates;
      for (int64_t i = 0; i < n; ++i)
        if (score(i, c) > score_threshold) candidates.push_back(i);
      std::stable_sort(candidates.begin(), candidates.end(),
                       [&](int64_t a, int64_t d) { return score(a, c) > score(d, c); });
      std::vector<int64_t> kept;
      for (int64_t i : candidates) {
        if (per_class > 0 && static_cast<int64_t>(kept.size()) == per_class) break;
        const bool overlapped = std::any_of(kept.begin(), kept.end(), [&](int64_t k) {
          return suppresses(corners[static_cast<size_t>(k)], corners[static_cast<size_t>(i)], iou_threshold);
        });
        if (!overlapped) kept.push_back(i);
      }
      for (int64_t i : kept) found[static_cast<size_t>(b)].push_back({score(i, c), c, i});
    }
    auto& d = found[static_cast<size_t>(b)];
    std::sort(d.begin(), d.end(), [](const Detection& x, const Detection& y) {
      if (x.score != y.score) return x.score > y.score;
      if (x.cls != y.cls) return x.cls < y.cls;
      return x.box < y.box;
    });
    if (static_cast<int64_t>(d.size()) > max_detections) d.resize(static_cast<size_t>(max_detections));
  }

  size_t most = 0;
  for (const auto& d : found) most = std::max(most, d.size());
  const auto depth = static_cast<int64_t>(most);
  RefTensor& out_boxes = outputs[0];
  RefTensor& out_scores = outputs[1];
  RefTensor& out_classes = outputs[2];
  RefTensor& out_count = outputs[3];
  out_boxes.shape = {batch, depth, 4};
  out_scores.shape = {batch, depth};
  out_classes.shape = {batch, depth};
  out_count.shape = {batch};
  out_boxes.values.assign(static_cast<size_t>(batch * depth * 4), 0.0);
  out_scores.values.assign(static_cast<size_t>(batch * depth), 0.0);
  out_classes.values.assign(static_cast<size_t>(batch * depth), -1.0);
  out_count.values.assign(static_cast<size_t>(batch), 0.0);
  for (size_t f = 0; f < features; ++f) {
    const RefTensor& t = inputs[2 + f];
    RefTensor& out = outputs[4 + f];
    out.shape = t.shape;
    out.shape[1] = depth;
    out.values.assign(element_count(out.shape), 0.0);
  }
  for (int64_t b = 0; b < batch; ++b) {
    const auto& d = found[static_cast<size_t>(b)];
    out_count.values[static_cast<size_t>(b)] = static_cast<double>(d.size());
    for (size_t j = 0; j < d.size(); ++j) {
      const size_t at = static_cast<size_t>(b * depth) + j;
      for (int e = 0; e < 4; ++e)
        out_boxes.values[at * 4 + static_cast<size_t>(e)] = boxes.values[static_cast<size_t>((b * n + d[j].box) * 4 + e)];
      out_scores.values[at] = d[j].score;
      out_classes.values[at] = static_cast<double>(d[j].cls);
      for (size_t f = 0; f < features; ++f) {
        const RefTensor& t = inputs[2 + f];
        const size_t row = element_count(t.shape) / static_cast<size_t>(std::max<int64_t>(1, batch * n));
        std::copy_n(t.values.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(b * n + d[j].box) * row), row,
                    outputs[4 + f].values.begin() + static_cast<std::ptrdiff_t>(at * row));
      }
    }
  }
}

}  // namespace

extern const ReferenceOp oprig_reference_MultiClassNms;
const ReferenceOp oprig_reference_MultiClassNms = {"MultiClassNms", compute, 0.0};

}  // namespace oprig::opsuite
