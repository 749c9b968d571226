// What the MultiClassNms unit tests share (cpu_test.cpp, device_test.cpp):
// one run of the op through the package ABI on any backend (FLOAT_32 or
// FLOAT_16 tensors, outputs read back as floats), random inputs with
// repeated boxes and tied scores, and the oracle: a plain greedy loop
// written from the spec's words, independent of the kernels' code (scores
// sorted by a stable sort, each candidate tested against every box kept so
// far with the spec's IoU in double, the classes merged by a stable sort).
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/half.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness::nms_test {

struct Params {
  float iou = 0.5f, score = 0.0f;
  int max_detections = 100, per_class = 0;
  bool center_size = false;
};

struct Result {
  std::vector<int64_t> boxes_shape;
  std::vector<float> boxes, scores;
  std::vector<int32_t> classes, count;
  std::vector<std::vector<float>> features;
};

inline HostTensor tensor_of(oprig_dtype dtype, std::vector<int64_t> shape, const std::vector<float>& v) {
  if (dtype == OPRIG_DTYPE_FLOAT_32) return HostTensor::of(dtype, shape, v);
  std::vector<uint16_t> h;
  for (float f : v) h.push_back(float_to_half(f));
  return HostTensor::of(dtype, shape, h);
}

inline std::vector<float> floats_of(const HostTensor& t) {
  if (t.dtype == OPRIG_DTYPE_FLOAT_32) return t.as<float>();
  std::vector<float> f;
  for (uint16_t h : t.as<uint16_t>()) f.push_back(half_to_float(h));
  return f;
}

// Values as the given type holds them (fp16: rounded once).
inline std::vector<float> as_stored(oprig_dtype dtype, std::vector<float> v) {
  if (dtype == OPRIG_DTYPE_FLOAT_16)
    for (float& f : v) f = half_to_float(float_to_half(f));
  return v;
}

// One execute; boxes, scores and features (given as floats) of `dtype`. Throws with the failing call's message.
inline Result run_nms(Backend& backend, const oprig_implementation_v1& impl, oprig_dtype dtype,
                      const std::vector<int64_t>& boxes_shape, const std::vector<float>& boxes,
                      const std::vector<int64_t>& scores_shape, const std::vector<float>& scores,
                      const std::vector<std::pair<std::vector<int64_t>, std::vector<float>>>& features, const Params& p) {
  std::vector<HostTensor> inputs = {tensor_of(dtype, boxes_shape, boxes), tensor_of(dtype, scores_shape, scores)};
  for (const auto& [shape, values] : features) inputs.push_back(tensor_of(dtype, shape, values));
  std::vector<oprig_tensor> outputs(4 + features.size());
  for (oprig_tensor& o : outputs) o.dtype = dtype;
  outputs[2].dtype = outputs[3].dtype = OPRIG_DTYPE_INT_32;
  ParamList params;
  params.add_float("iou_threshold", p.iou).add_float("score_threshold", p.score);
  params.add_int("max_detections", p.max_detections).add_int("max_detections_per_class", p.per_class);
  params.add_int("box_coding", p.center_size ? 1 : 0, OPRIG_DTYPE_UINT_32);
  KernelSession s(backend, impl, "MultiClassNms", params, inputs, outputs);
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  Result r;
  const HostTensor b = s.output(0);
  r.boxes_shape = b.shape;
  r.boxes = floats_of(b);
  r.scores = floats_of(s.output(1));
  r.classes = s.output(2).as<int32_t>();
  r.count = s.output(3).as<int32_t>();
  for (size_t f = 0; f < features.size(); ++f) r.features.push_back(floats_of(s.output(4 + f)));
  return r;
}

// Random boxes (corners, or centres and sizes) in the unit square, sizes in
// [min_size, max_size], every seventh box a copy of the one before; scores in
// [0, 1) rounded to 1/64 (ties); a feature per box: its index.
struct Data {
  std::vector<float> boxes, scores, index;
};

inline Data random_data(int64_t batch, int64_t n, int64_t classes, float min_size, float max_size, bool center_size,
                        uint32_t seed) {
  Data d;
  d.boxes.resize(static_cast<size_t>(batch * n * 4));
  d.scores.resize(static_cast<size_t>(batch * n * classes));
  d.index.resize(static_cast<size_t>(batch * n));
  uint32_t x = seed;
  auto next = [&] { return static_cast<float>((x = x * 1664525u + 1013904223u) >> 8) * 0x1p-24f; };
  for (size_t i = 0; i < d.index.size(); ++i) {
    const float cy = next(), cx = next(), h = min_size + (max_size - min_size) * next(),
                w = min_size + (max_size - min_size) * next();
    float* b = &d.boxes[i * 4];
    if (center_size)
      b[0] = cx, b[1] = cy, b[2] = w, b[3] = h;
    else
      b[0] = cy - h / 2, b[1] = cx - w / 2, b[2] = cy + h / 2, b[3] = cx + w / 2;
    if (i % 7 == 3) std::copy_n(&d.boxes[(i - 1) * 4], 4, b);  // identical boxes
    d.index[i] = static_cast<float>(i % static_cast<size_t>(n));
  }
  for (float& s : d.scores) s = static_cast<float>(static_cast<int>(next() * 64)) / 64;
  return d;
}

struct Oracle {
  std::vector<int32_t> count, classes;
  std::vector<float> scores, box_index;
  int64_t depth = 0;
};

inline Oracle oracle(const std::vector<float>& boxes, const std::vector<float>& scores, int64_t batch, int64_t n,
                     int64_t classes, const Params& p) {
  struct D {
    float s;
    int64_t c, i;
  };
  std::vector<std::vector<D>> found(static_cast<size_t>(batch));
  for (int64_t b = 0; b < batch; ++b) {
    auto box = [&](int64_t i) {
      const float* v = &boxes[static_cast<size_t>((b * n + i) * 4)];
      double y1 = v[0], x1 = v[1], y2 = v[2], x2 = v[3];
      if (p.center_size) {
        x1 = static_cast<double>(v[0]) - static_cast<double>(v[2]) / 2;
        x2 = static_cast<double>(v[0]) + static_cast<double>(v[2]) / 2;
        y1 = static_cast<double>(v[1]) - static_cast<double>(v[3]) / 2;
        y2 = static_cast<double>(v[1]) + static_cast<double>(v[3]) / 2;
      }
      std::vector<double> c = {std::min(y1, y2), std::min(x1, x2), std::max(y1, y2), std::max(x1, x2)};
      c.push_back((c[2] - c[0]) * (c[3] - c[1]));
      return c;
    };
    for (int64_t c = 0; c < classes; ++c) {
      auto s = [&](int64_t i) { return scores[static_cast<size_t>((b * n + i) * classes + c)]; };
      std::vector<int64_t> order;
      for (int64_t i = 0; i < n; ++i)
        if (s(i) > p.score) order.push_back(i);
      std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return s(x) > s(y); });
      std::vector<int64_t> kept;
      for (int64_t i : order) {
        if (p.per_class > 0 && static_cast<int>(kept.size()) == p.per_class) break;
        bool hit = false;
        const std::vector<double> a = box(i);
        for (int64_t k : kept) {
          const std::vector<double> q = box(k);
          if (a[4] <= 0 || q[4] <= 0) continue;
          const double h = std::min(a[2], q[2]) - std::max(a[0], q[0]), w = std::min(a[3], q[3]) - std::max(a[1], q[1]);
          if (h <= 0 || w <= 0) continue;
          if (h * w / (q[4] + a[4] - h * w) > static_cast<double>(p.iou)) hit = true;
        }
        if (!hit) kept.push_back(i);
      }
      for (int64_t i : kept) found[static_cast<size_t>(b)].push_back({s(i), c, i});
    }
    auto& d = found[static_cast<size_t>(b)];
    std::stable_sort(d.begin(), d.end(), [](const D& x, const D& y) { return x.s > y.s; });  // classes were in order
    if (static_cast<int>(d.size()) > p.max_detections) d.resize(static_cast<size_t>(p.max_detections));
  }
  Oracle o;
  for (const auto& d : found) o.depth = std::max<int64_t>(o.depth, static_cast<int64_t>(d.size()));
  for (const auto& d : found) {
    o.count.push_back(static_cast<int32_t>(d.size()));
    for (int64_t j = 0; j < o.depth; ++j) {
      const bool real = j < static_cast<int64_t>(d.size());
      o.classes.push_back(real ? static_cast<int32_t>(d[static_cast<size_t>(j)].c) : -1);
      o.scores.push_back(real ? d[static_cast<size_t>(j)].s : 0.0f);
      o.box_index.push_back(real ? static_cast<float>(d[static_cast<size_t>(j)].i) : 0.0f);
    }
  }
  return o;
}

}  // namespace oprig::harness::nms_test
