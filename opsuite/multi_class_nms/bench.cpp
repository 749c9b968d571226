// MultiClassNms on the cpu backend through the package ABI (create, prepare
// and resolve_shapes once; each iteration one execute, which runs the whole
// selection) against a plain reference-style loop in the same binary:
//   BM_MultiClassNmsCpu/case:C/threads:N
//   BM_MultiClassNmsPlainLoop/case:C      per class: candidates, std::sort by
//       score, greedy with a scalar double IoU against the kept boxes; merge
//       with std::sort (one thread)
// and the device kernels, device time per execute (device_kernel_bench.hpp:
// create, prepare and resolve_shapes once, as for the cpu rows; each
// iteration the whole selection on the device):
//   BM_MultiClassNmsOpenCL/case:C, BM_MultiClassNmsVulkan/case:C
// Cases: 0 — SSD-like: 1 x 1917 boxes x 91 classes, small boxes, score
// threshold 0.3, max_detections 100; 1 — dense: 1 x 6000 boxes x 4 classes,
// large overlapping boxes, max_detections 300 (most candidates suppressed).
// Items: boxes x classes (score entries read).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/micro/device_kernel_bench.hpp"
#include "cpu/cpu_backend.hpp"
#include "runner/kernel_session.hpp"

namespace {

using oprig::harness::HostTensor;
using oprig::harness::KernelSession;
using oprig::harness::ParamList;

struct BenchCase {
  int64_t n, classes;
  float min_size, max_size, score_threshold;
  int max_detections;
};
const BenchCase kCases[] = {{1917, 91, 0.02f, 0.2f, 0.3f, 100}, {6000, 4, 0.2f, 0.6f, 0.0f, 300}};

struct Data {
  std::vector<float> boxes, scores;
};

const Data& data(size_t c) {
  static Data cached[2];
  Data& d = cached[c];
  if (!d.boxes.empty()) return d;
  const BenchCase& bc = kCases[c];
  uint32_t x = 2024u + static_cast<uint32_t>(c);
  auto next = [&] { return static_cast<float>((x = x * 1664525u + 1013904223u) >> 8) * 0x1p-24f; };
  for (int64_t i = 0; i < bc.n; ++i) {
    const float cy = next(), cx = next();
    const float h = bc.min_size + (bc.max_size - bc.min_size) * next(), w = bc.min_size + (bc.max_size - bc.min_size) * next();
    d.boxes.insert(d.boxes.end(), {cy - h / 2, cx - w / 2, cy + h / 2, cx + w / 2});
  }
  d.scores.resize(static_cast<size_t>(bc.n * bc.classes));
  for (float& s : d.scores) s = next();
  return d;
}

ParamList params_of(const BenchCase& bc) {
  return ParamList().add_float("score_threshold", bc.score_threshold).add_int("max_detections", bc.max_detections);
}

std::vector<HostTensor> inputs_of(size_t c) {
  const BenchCase& bc = kCases[c];
  return {HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, bc.n, 4}, data(c).boxes),
          HostTensor::of(OPRIG_DTYPE_FLOAT_32, {1, bc.n, bc.classes}, data(c).scores)};
}

std::vector<oprig_tensor> outputs_of() {
  std::vector<oprig_tensor> outputs(4);
  outputs[0].dtype = outputs[1].dtype = OPRIG_DTYPE_FLOAT_32;
  outputs[2].dtype = outputs[3].dtype = OPRIG_DTYPE_INT_32;
  return outputs;
}

struct Session {
  std::unique_ptr<oprig::CpuBackend> backend;
  std::unique_ptr<KernelSession> kernel;
  std::string error;
};

std::unique_ptr<Session> make(unsigned threads, size_t c) {
  auto s = std::make_unique<Session>();
  s->backend = std::make_unique<oprig::CpuBackend>(threads);
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_CPU, &s->error);
  if (impl == nullptr) return s;
  s->kernel = std::make_unique<KernelSession>(*s->backend, *impl, "MultiClassNms", params_of(kCases[c]), inputs_of(c),
                                              outputs_of());
  if (!s->kernel->ok()) s->error = s->kernel->error();
  return s;
}

void BM_MultiClassNmsCpu(benchmark::State& state) {
  const auto c = static_cast<size_t>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  static std::unique_ptr<Session> sessions[2][3];
  auto& s = sessions[c][threads];
  if (!s) s = make(threads, c);
  if (!s->error.empty()) {
    state.SkipWithError(s->error.c_str());
    return;
  }
  for (auto _ : state)
    if (s->kernel->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kCases[c].n * kCases[c].classes);
  state.counters["detections"] = static_cast<double>(s->kernel->output(3).as<int32_t>().at(0));
}

struct Detection {
  float score;
  int32_t cls, box;
};

// What a straightforward implementation of the spec does.
std::vector<Detection> plain_nms(const BenchCase& bc, const Data& d) {
  const auto n = static_cast<size_t>(bc.n), classes = static_cast<size_t>(bc.classes);
  std::vector<double> corners(n * 5);
  for (size_t i = 0; i < n; ++i) {
    const float* b = &d.boxes[i * 4];
    const double y0 = std::min(b[0], b[2]), x0 = std::min(b[1], b[3]), y1 = std::max(b[0], b[2]), x1 = std::max(b[1], b[3]);
    double* c = &corners[i * 5];
    c[0] = y0, c[1] = x0, c[2] = y1, c[3] = x1, c[4] = (y1 - y0) * (x1 - x0);
  }
  std::vector<Detection> all;
  std::vector<int32_t> order, kept;
  for (size_t cls = 0; cls < classes; ++cls) {
    auto score = [&](int32_t i) { return d.scores[static_cast<size_t>(i) * classes + cls]; };
    order.clear();
    kept.clear();
    for (size_t i = 0; i < n; ++i)
      if (score(static_cast<int32_t>(i)) > bc.score_threshold) order.push_back(static_cast<int32_t>(i));
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return score(a) > score(b) || (score(a) == score(b) && a < b); });
    for (int32_t i : order) {
      if (static_cast<int>(kept.size()) == bc.max_detections) break;
      const double* a = &corners[static_cast<size_t>(i) * 5];
      bool hit = false;
      for (int32_t k : kept) {
        const double* q = &corners[static_cast<size_t>(k) * 5];
        if (a[4] <= 0 || q[4] <= 0) continue;
        const double h = std::min(a[2], q[2]) - std::max(a[0], q[0]), w = std::min(a[3], q[3]) - std::max(a[1], q[1]);
        if (h <= 0 || w <= 0) continue;
        const double inter = h * w;
        if (inter / (q[4] + a[4] - inter) > 0.5) {
          hit = true;
          break;
        }
      }
      if (!hit) kept.push_back(i);
    }
    for (int32_t i : kept) all.push_back({score(i), static_cast<int32_t>(cls), i});
  }
  std::sort(all.begin(), all.end(), [](const Detection& x, const Detection& y) {
    if (x.score != y.score) return x.score > y.score;
    return x.cls != y.cls ? x.cls < y.cls : x.box < y.box;
  });
  if (all.size() > static_cast<size_t>(bc.max_detections)) all.resize(static_cast<size_t>(bc.max_detections));
  return all;
}

void BM_MultiClassNmsPlainLoop(benchmark::State& state) {
  const auto c = static_cast<size_t>(state.range(0));
  const Data& d = data(c);
  size_t found = 0;
  for (auto _ : state) {
    const std::vector<Detection> out = plain_nms(kCases[c], d);
    found = out.size();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kCases[c].n * kCases[c].classes);
  state.counters["detections"] = static_cast<double>(found);
}

void device_nms(benchmark::State& state, const std::string& backend) {
  const auto c = static_cast<size_t>(state.range(0));
  auto& kernel = oprig::bench::device_kernel("multi_class_nms/" + std::to_string(c), backend, "MultiClassNms",
                                             params_of(kCases[c]), [c] { return inputs_of(c); }, outputs_of());
  oprig::bench::time_device_kernel(state, kernel, kCases[c].n * kCases[c].classes);
  if (kernel.session && kernel.session->ok()) state.counters["detections"] = static_cast<double>(kernel.session->output(3).as<int32_t>().at(0));
}

void BM_MultiClassNmsOpenCL(benchmark::State& state) { device_nms(state, "opencl"); }
void BM_MultiClassNmsVulkan(benchmark::State& state) { device_nms(state, "vulkan"); }

}  // namespace

BENCHMARK(BM_MultiClassNmsCpu)->ArgNames({"case", "threads"})
    ->ArgsProduct({{0, 1}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MultiClassNmsPlainLoop)->ArgName("case")->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MultiClassNmsOpenCL)->ArgName("case")->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MultiClassNmsVulkan)->ArgName("case")->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMicrosecond);
