// The cpu MultiClassNms kernel through the package ABI (prepare leaves the
// detection dimension at -1, resolve_shapes sets it): hand-derived answers
// for ONNX's suppress-by-IoU example, identical boxes, an IoU exactly at the
// threshold, boxes without area, padding of a batch with fewer detections
// and gathered features; on random inputs every ISA path and thread count
// gives bit for bit what a plain greedy loop gives (test_oracle.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"
#include "multi_class_nms/test_oracle.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

const oprig_implementation_v1& cpu_impl() {
  std::string why;
  const oprig_implementation_v1* impl = opsuite_implementation(OPRIG_BACKEND_CPU, &why);
  if (impl == nullptr) throw std::runtime_error(why);
  return *impl;
}

using nms_test::Oracle;
using nms_test::oracle;
using nms_test::Params;
using nms_test::Result;

Result nms(CpuBackend& backend, const HostTensor& boxes, const HostTensor& scores,
           const std::vector<HostTensor>& features, const Params& p) {
  std::vector<HostTensor> inputs = {boxes, scores};
  inputs.insert(inputs.end(), features.begin(), features.end());
  std::vector<oprig_tensor> outputs(4 + features.size());
  for (oprig_tensor& o : outputs) o.dtype = OPRIG_DTYPE_FLOAT_32;
  outputs[2].dtype = outputs[3].dtype = OPRIG_DTYPE_INT_32;
  ParamList params;
  params.add_float("iou_threshold", p.iou).add_float("score_threshold", p.score);
  params.add_int("max_detections", p.max_detections).add_int("max_detections_per_class", p.per_class);
  params.add_int("box_coding", p.center_size ? 1 : 0, OPRIG_DTYPE_UINT_32);
  KernelSession s(backend, cpu_impl(), "MultiClassNms", params, inputs, outputs);
  if (!s.ok()) throw std::runtime_error(s.error());
  if (s.run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
  Result r;
  const HostTensor b = s.output(0);
  r.boxes_shape = b.shape;
  r.boxes = b.as<float>();
  r.scores = s.output(1).as<float>();
  r.classes = s.output(2).as<int32_t>();
  r.count = s.output(3).as<int32_t>();
  for (size_t f = 0; f < features.size(); ++f) r.features.push_back(s.output(4 + f).as<float>());
  return r;
}

std::vector<oprig_cpu_isa> host_isas() {
  std::vector<oprig_cpu_isa> out;
  for (oprig_cpu_isa isa : {OPRIG_CPU_ISA_SCALAR, OPRIG_CPU_ISA_AVX2, OPRIG_CPU_ISA_AVX512})
    if (isa <= host_cpu_isa()) out.push_back(isa);
  return out;
}

HostTensor f32(std::vector<int64_t> shape, std::vector<float> v) { return HostTensor::of(OPRIG_DTYPE_FLOAT_32, shape, v); }

TEST(MultiClassNmsCpu, OnnxSuppressByIouExampleByHand) {
  // Box 3 (0.95) suppresses box 4 and box 0 (0.9) suppresses boxes 1 and 2
  // (IoU 0.9 / 1.1 each); box 5 overlaps nothing.
  const HostTensor boxes = f32({1, 6, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, -0.1f, 1, 0.9f,
                                           0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100, 1, 101});
  const HostTensor scores = f32({1, 6, 1}, {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f});
  const HostTensor index = f32({1, 6}, {0, 1, 2, 3, 4, 5});
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(1, isa);
    const Result r = nms(backend, boxes, scores, {index}, {});
    EXPECT_EQ(r.boxes_shape, (std::vector<int64_t>{1, 3, 4})) << "isa " << isa;
    EXPECT_EQ(r.count, std::vector<int32_t>{3});
    EXPECT_EQ(r.features[0], (std::vector<float>{3, 0, 5}));
    EXPECT_EQ(r.scores, (std::vector<float>{0.95f, 0.9f, 0.3f}));
    EXPECT_EQ(r.classes, (std::vector<int32_t>{0, 0, 0}));
    EXPECT_EQ(std::vector<float>(r.boxes.begin(), r.boxes.begin() + 4), (std::vector<float>{0, 10, 1, 11}));
  }
}

TEST(MultiClassNmsCpu, IdenticalBoxesKeepTheFirstPerClassAndBatchItemsArePadded) {
  // Batch item 0: four identical boxes; class 0 scores all 0.9 (box 0 wins
  // the tie), class 1 scores 0.5, 0.8, 0.8, 0.1 (box 1 wins). Batch item 1:
  // nothing above the score threshold 0.2 -> padded (boxes 0, classes -1).
  const HostTensor boxes = f32({2, 4, 4}, {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1,
                                           0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7});
  const HostTensor scores = f32({2, 4, 2}, {0.9f, 0.5f, 0.9f, 0.8f, 0.9f, 0.8f, 0.9f, 0.1f,
                                            0.1f, 0.2f, 0.0f, -1.0f, 0.15f, 0.05f, 0.2f, 0.2f});
  const HostTensor index = f32({2, 4}, {0, 1, 2, 3, 0, 1, 2, 3});
  Params p;
  p.score = 0.2f;
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(2, isa);
    const Result r = nms(backend, boxes, scores, {index}, p);
    EXPECT_EQ(r.boxes_shape, (std::vector<int64_t>{2, 2, 4})) << "isa " << isa;
    EXPECT_EQ(r.count, (std::vector<int32_t>{2, 0}));
    EXPECT_EQ(r.classes, (std::vector<int32_t>{0, 1, -1, -1}));
    EXPECT_EQ(r.scores, (std::vector<float>{0.9f, 0.8f, 0, 0}));
    EXPECT_EQ(r.features[0], (std::vector<float>{0, 1, 0, 0}));
    EXPECT_EQ(std::vector<float>(r.boxes.begin() + 8, r.boxes.end()), std::vector<float>(8, 0.0f));
  }
}

TEST(MultiClassNmsCpu, AnIouExactlyAtTheThresholdDoesNotSuppress) {
  // [0, 0, 1, 1] and [0, 0, 1, 2] (both CORNERS): intersection 1, union 2, IoU 0.5 exactly.
  const HostTensor boxes = f32({1, 2, 4}, {0, 0, 1, 1, 0, 0, 1, 2});
  const HostTensor scores = f32({1, 2, 1}, {0.9f, 0.8f});
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(1, isa);
    Params p;
    EXPECT_EQ(nms(backend, boxes, scores, {}, p).count, std::vector<int32_t>{2}) << "isa " << isa;
    p.iou = std::nextafter(0.5f, 0.0f);
    EXPECT_EQ(nms(backend, boxes, scores, {}, p).count, std::vector<int32_t>{1}) << "isa " << isa;
  }
}

TEST(MultiClassNmsCpu, BoxesWithoutAreaNeverSuppressAndAreNeverSuppressed) {
  // Three copies of a line segment (zero height) and a real box over them.
  const HostTensor boxes = f32({1, 4, 4}, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, -1, -1, 1, 1});
  const HostTensor scores = f32({1, 4, 1}, {0.9f, 0.8f, 0.7f, 0.95f});
  for (oprig_cpu_isa isa : host_isas()) {
    CpuBackend backend(1, isa);
    Params p;
    p.iou = 0.0f;  // any overlap of real boxes would suppress
    EXPECT_EQ(nms(backend, boxes, scores, {}, p).count, std::vector<int32_t>{4}) << "isa " << isa;
  }
}

TEST(MultiClassNmsCpu, EveryIsaAndThreadCountKeepsWhatAPlainGreedyLoopKeeps) {
  const int64_t batch = 2, n = 700, classes = 5;
  std::vector<float> boxes(static_cast<size_t>(batch * n * 4)), scores(static_cast<size_t>(batch * n * classes)),
      index(static_cast<size_t>(batch * n));
  uint32_t x = 99;
  auto next = [&] { return static_cast<float>((x = x * 1664525u + 1013904223u) >> 8) * 0x1p-24f; };
  for (size_t i = 0; i < index.size(); ++i) {
    const float cy = next(), cx = next(), h = 0.02f + 0.3f * next(), w = 0.02f + 0.3f * next();
    boxes[i * 4 + 0] = cy - h / 2, boxes[i * 4 + 1] = cx - w / 2, boxes[i * 4 + 2] = cy + h / 2, boxes[i * 4 + 3] = cx + w / 2;
    if (i % 7 == 3) std::copy_n(&boxes[(i - 1) * 4], 4, &boxes[i * 4]);  // some identical boxes
    index[i] = static_cast<float>(i % static_cast<size_t>(n));
  }
  for (float& s : scores) s = std::round(next() * 64) / 64;  // ties
  const HostTensor tb = f32({batch, n, 4}, boxes), ts = f32({batch, n, classes}, scores), ti = f32({batch, n}, index);
  for (const Params& p : {Params{0.5f, 0.2f, 60, 0, false}, Params{0.3f, 0.0f, 1000, 25, false},
                          Params{0.7f, 0.5f, 9, 3, false}}) {
    const Oracle want = oracle(boxes, scores, batch, n, classes, p);
    for (oprig_cpu_isa isa : host_isas())
      for (unsigned threads : {1u, 2u}) {
        CpuBackend backend(threads, isa);
        const Result r = nms(backend, tb, ts, {ti}, p);
        const std::string where = "isa " + std::to_string(isa) + " threads " + std::to_string(threads) + " iou " +
                                  std::to_string(p.iou);
        EXPECT_EQ(r.boxes_shape, (std::vector<int64_t>{batch, want.depth, 4})) << where;
        EXPECT_EQ(r.count, want.count) << where;
        EXPECT_EQ(r.classes, want.classes) << where;
        EXPECT_EQ(r.scores, want.scores) << where;
        EXPECT_EQ(r.features.at(0), want.box_index) << where;
      }
  }
}

}  // namespace
}  // namespace oprig::harness
