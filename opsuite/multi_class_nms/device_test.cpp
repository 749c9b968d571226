// The opencl and vulkan MultiClassNms kernels through the package ABI, where
// the plan's small cases do not reach: the same detections as a plain greedy
// loop (test_oracle.hpp) whatever the work-group size (OPRIG_NMS_GROUP: 32,
// 64 and the device's choice), in FLOAT_32 and FLOAT_16, with ties and
// identical boxes; thousands of boxes, so that the sort takes its steps
// between local blocks and the suppression many chunks, its kept-box test
// included; and the decisions next to the IoU threshold that only exact
// arithmetic makes as the reference does: boxes found by an exact rational
// search (integer coordinates, so areas are exact) whose IoU lies within
// half a double ulp above the threshold (rounds to it: not suppressed),
// just below it, and just past the half ulp (rounds above: suppressed).
// Skipped where the backend is absent.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/test_device.hpp"
#include "multi_class_nms/test_oracle.hpp"

namespace oprig::harness {
namespace {

using nms_test::Data;
using nms_test::Oracle;
using nms_test::Params;
using nms_test::Result;

// OPRIG_NMS_GROUP while a kernel is made (0: the device's choice).
class ForcedGroup {
 public:
  explicit ForcedGroup(int group) {
    if (group != 0) setenv("OPRIG_NMS_GROUP", std::to_string(group).c_str(), 1);
  }
  ~ForcedGroup() { unsetenv("OPRIG_NMS_GROUP"); }
  ForcedGroup(const ForcedGroup&) = delete;
  ForcedGroup& operator=(const ForcedGroup&) = delete;
};

class MultiClassNmsDevice : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!test_device(GetParam()).present()) GTEST_SKIP() << GetParam() << " is absent: " << test_device(GetParam()).why;
  }

  Result run(oprig_dtype dtype, int64_t batch, int64_t n, int64_t classes, const Data& d, const Params& p,
             int group = 0) {
    ForcedGroup forced(group);
    TestDevice& device = test_device(GetParam());
    return nms_test::run_nms(*device.backend, *device.impl, dtype, {batch, n, 4}, d.boxes, {batch, n, classes}, d.scores,
                             {{{batch, n}, d.index}}, p);
  }

  // Every output against the oracle's detections on the same (stored) inputs.
  void expect_oracle(const Result& r, const Data& d, int64_t batch, int64_t n, int64_t classes, const Params& p,
                     const std::string& where) {
    const Oracle want = nms_test::oracle(d.boxes, d.scores, batch, n, classes, p);
    ASSERT_EQ(r.boxes_shape, (std::vector<int64_t>{batch, want.depth, 4})) << where;
    EXPECT_EQ(r.count, want.count) << where;
    EXPECT_EQ(r.classes, want.classes) << where;
    EXPECT_EQ(r.scores, want.scores) << where;
    EXPECT_EQ(r.features.at(0), want.box_index) << where;
    std::vector<float> boxes;
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t j = 0; j < want.depth; ++j) {
        const size_t at = static_cast<size_t>(b * want.depth + j);
        for (size_t e = 0; e < 4; ++e)
          boxes.push_back(j < want.count[static_cast<size_t>(b)]
                              ? d.boxes[(static_cast<size_t>(b * n) + static_cast<size_t>(want.box_index[at])) * 4 + e]
                              : 0.0f);
      }
    EXPECT_EQ(r.boxes, boxes) << where;
  }
};

std::string name_of(oprig_dtype dtype, const Params& p, int group) {
  return std::string(dtype == OPRIG_DTYPE_FLOAT_16 ? "f16" : "f32") + " iou " + std::to_string(p.iou) + " score " +
         std::to_string(p.score) + " max " + std::to_string(p.max_detections) + " per class " +
         std::to_string(p.per_class) + (p.center_size ? " CENTER_SIZE" : " CORNERS") + " group " +
         std::to_string(group);
}

Data stored(oprig_dtype dtype, Data d) {
  d.boxes = nms_test::as_stored(dtype, d.boxes);
  d.scores = nms_test::as_stored(dtype, d.scores);
  return d;
}

TEST_P(MultiClassNmsDevice, EveryGroupSizeKeepsWhatAPlainGreedyLoopKeeps) {
  const int64_t batch = 2, n = 700, classes = 5;
  const Params cases[] = {{0.5f, 0.2f, 60, 0, false},
                          {0.3f, 0.0f, 1000, 25, false},
                          {0.7f, 0.5f, 9, 3, false},
                          {0.45f, 0.1f, 200, 0, true}};
  for (const Params& p : cases)
    for (oprig_dtype dtype : {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16}) {
      const Data d = stored(dtype, nms_test::random_data(batch, n, classes, 0.02f, 0.3f, p.center_size, 99));
      for (int group : {32, 64, 0}) {
        const Result r = run(dtype, batch, n, classes, d, p, group);
        expect_oracle(r, d, batch, n, classes, p, GetParam() + " " + name_of(dtype, p, group));
      }
    }
}

TEST_P(MultiClassNmsDevice, ThousandsOfBoxesCrossSortBlocksAndChunks) {
  // Large boxes (most candidates suppressed: chunk after chunk tested
  // against the kept boxes) and small ones (most kept: kept lists longer
  // than a group); 5000 candidates sort in blocks of at most 2048 keys, and
  // of 64 with groups of 32.
  const int64_t batch = 1, n = 5000, classes = 2;
  struct Case {
    float min_size, max_size;
    Params p;
  };
  const Case cases[] = {{0.2f, 0.6f, {0.5f, 0.0f, 1000, 0, false}}, {0.005f, 0.05f, {0.5f, 0.1f, 3000, 700, false}}};
  for (const Case& c : cases) {
    const Data d = nms_test::random_data(batch, n, classes, c.min_size, c.max_size, false, 7);
    for (int group : {32, 0}) {
      const Result r = run(OPRIG_DTYPE_FLOAT_32, batch, n, classes, d, c.p, group);
      expect_oracle(r, d, batch, n, classes, c.p, GetParam() + " " + name_of(OPRIG_DTYPE_FLOAT_32, c.p, group));
    }
  }
}

TEST_P(MultiClassNmsDevice, DecisionsNextToTheThresholdAreTheReferences) {
  // Box A = [0, 0, H, W] (score 0.9) holds box B = [0, 0, h, w] (0.8):
  // intersection h*w, union H*W, both exact in double; the threshold t =
  // T * 2^-25, a float. Found by an exact search over integers for
  // 2^25 h w - T H W = d:
  //  - d = 1: IoU - t = 2^-25 / (H W), under half the gap between doubles
  //    above t, so the IoU rounds to t: not above it, B stays (a kernel that
  //    compared the exact quotient would suppress B); with the float below t
  //    as the threshold B goes;
  //  - d = -1: just below t, rounds to t: B stays;
  //  - d = 54783: IoU - t = 3.9e-17, past half that gap: rounds above t, B goes.
  struct Case {
    float T, H, W, h, w;
    int32_t count;
  };
  const Case cases[] = {{14694649, 11156165, 14332747, 4979583, 14062441, 2},
                        {11195981, 9991181, 11100761, 3474529, 10650890, 2},
                        {14210391, 4735945, 8767151, 2041331, 8614059, 1}};
  for (const Case& c : cases) {
    Data d;
    d.boxes = {0, 0, c.H, c.W, 0, 0, c.h, c.w};
    d.scores = {0.9f, 0.8f};
    d.index = {0, 1};
    Params p;
    p.iou = std::ldexp(c.T, -25);
    const Result r = run(OPRIG_DTYPE_FLOAT_32, 1, 2, 1, d, p);
    EXPECT_EQ(r.count, std::vector<int32_t>{c.count}) << GetParam() << " T " << c.T;
    if (c.count == 2) {
      p.iou = std::nextafter(p.iou, 0.0f);
      EXPECT_EQ(run(OPRIG_DTYPE_FLOAT_32, 1, 2, 1, d, p).count, std::vector<int32_t>{1}) << GetParam() << " T " << c.T;
    }
  }
  // [0, 0, 1, 1] and [0, 0, 1, 2]: IoU 0.5 exactly, not above 0.5.
  Data d;
  d.boxes = {0, 0, 1, 1, 0, 0, 1, 2};
  d.scores = {0.9f, 0.8f};
  d.index = {0, 1};
  Params p;
  EXPECT_EQ(run(OPRIG_DTYPE_FLOAT_32, 1, 2, 1, d, p).count, std::vector<int32_t>{2}) << GetParam();
  p.iou = std::nextafter(0.5f, 0.0f);
  EXPECT_EQ(run(OPRIG_DTYPE_FLOAT_32, 1, 2, 1, d, p).count, std::vector<int32_t>{1}) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Backends, MultiClassNmsDevice, ::testing::Values("opencl", "vulkan"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace oprig::harness
