// MultiClassNms on the cpu backend, FLOAT_32.
//
// The number of detections depends on the values, so prepare() leaves the
// detection dimension at -1 and resolve_shapes() runs the selection to find
// it; execute() runs it again (same inputs, same result) and writes the
// outputs. One run:
//  1. each batch item's boxes become corners and areas in double precision
//     (structure of arrays), once for all classes;
//  2. one task per (batch item, class), spread over the threads: the scores
//     above score_threshold become unique 64-bit ranks (score key, then the
//     inverted box index, so equal scores go by lower index) in a max-heap,
//     popped only as far as needed; each candidate is compared with the boxes
//     kept so far, 8 (AVX-512) or 4 (AVX2) at a time; at most
//     min(max_detections_per_class, max_detections) are kept, since no class
//     can place more in the merged output;
//  3. per batch item, the classes' kept boxes are ordered by (score, class,
//     box) and cut to max_detections.
// Intersection over union is computed exactly as the spec and the reference
// write it, operation for operation in IEEE double (this file is compiled
// without contraction into fused multiply-adds, see CMakeLists.txt), so every
// path makes the same decisions as the reference, even next to the
// threshold.
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "common/kernel.hpp"
#include "multi_class_nms/selection.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_multi_class_nms__cpu;

namespace {

constexpr size_t kLanes = 8;  // kept boxes are stored padded to a multiple of this

struct Kept {
  float score;
  int32_t box;
};

struct Detection {
  float score;
  int32_t cls, box;
};

// Corners and areas of one batch item's boxes, structure of arrays.
struct Corners {
  const double *ymin, *xmin, *ymax, *xmax, *area;
};

struct NmsCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  multi_class_nms::Params p;
  multi_class_nms::Geometry g;

  size_t batch = 0, n = 0, classes = 0, limit = 0;  // g's, as the loops use them

  // Workspace of one run.
  std::vector<double> corners;           // batch x 5 x n
  std::vector<Kept> kept;                // (batch, class) x limit
  std::vector<uint32_t> kept_count;      // (batch, class)
  std::vector<Detection> detections;     // batch x max_detections
  std::vector<uint32_t> count;           // batch
  size_t depth = 0;                      // the largest count
};

Corners corners_of(const NmsCpuKernel& k, size_t b) {
  const double* base = k.corners.data() + b * 5 * k.n;
  return {base, base + k.n, base + 2 * k.n, base + 3 * k.n, base + 4 * k.n};
}

// ---- 1. corners ------------------------------------------------------------------------

void decode(NmsCpuKernel& k, const float* boxes, size_t b) {
  double* out = k.corners.data() + b * 5 * k.n;
  for (size_t i = 0; i < k.n; ++i) {
    const float* box = boxes + (b * k.n + i) * 4;
    const multi_class_nms::Corners c = multi_class_nms::corners_of(box[0], box[1], box[2], box[3], k.p.center_size);
    out[i] = c.ymin;
    out[k.n + i] = c.xmin;
    out[2 * k.n + i] = c.ymax;
    out[3 * k.n + i] = c.xmax;
    out[4 * k.n + i] = c.area;
  }
}

// ---- 2. one class: does any kept box suppress the candidate? -------------------------------
// Kept boxes as structure of arrays, `count` of them, padded to kLanes.

struct KeptBoxes {
  double *ymin, *xmin, *ymax, *xmax, *area;
  size_t count = 0;
};

struct Candidate {
  double ymin, xmin, ymax, xmax, area;
};

bool suppressed_scalar(const KeptBoxes& kb, const Candidate& c, double t) {
  for (size_t j = 0; j < kb.count; ++j) {
    if (kb.area[j] <= 0) continue;
    const double h = std::min(kb.ymax[j], c.ymax) - std::max(kb.ymin[j], c.ymin);
    const double w = std::min(kb.xmax[j], c.xmax) - std::max(kb.xmin[j], c.xmin);
    if (h <= 0 || w <= 0) continue;
    const double intersection = h * w;
    if (intersection / (kb.area[j] + c.area - intersection) > t) return true;
  }
  return false;
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) bool suppressed_avx2(const KeptBoxes& kb, const Candidate& c, double t) {
  const __m256d cy0 = _mm256_set1_pd(c.ymin), cx0 = _mm256_set1_pd(c.xmin), cy1 = _mm256_set1_pd(c.ymax),
                cx1 = _mm256_set1_pd(c.xmax), ca = _mm256_set1_pd(c.area), tt = _mm256_set1_pd(t),
                zero = _mm256_setzero_pd();
  for (size_t j = 0; j < kb.count; j += 4) {
    const __m256d a = _mm256_loadu_pd(kb.area + j);
    const __m256d h = _mm256_sub_pd(_mm256_min_pd(_mm256_loadu_pd(kb.ymax + j), cy1),
                                    _mm256_max_pd(_mm256_loadu_pd(kb.ymin + j), cy0));
    const __m256d w = _mm256_sub_pd(_mm256_min_pd(_mm256_loadu_pd(kb.xmax + j), cx1),
                                    _mm256_max_pd(_mm256_loadu_pd(kb.xmin + j), cx0));
    const __m256d inter = _mm256_mul_pd(h, w);
    const __m256d iou = _mm256_div_pd(inter, _mm256_sub_pd(_mm256_add_pd(a, ca), inter));
    __m256d hit = _mm256_and_pd(_mm256_cmp_pd(a, zero, _CMP_GT_OQ), _mm256_cmp_pd(iou, tt, _CMP_GT_OQ));
    hit = _mm256_and_pd(hit, _mm256_and_pd(_mm256_cmp_pd(h, zero, _CMP_GT_OQ), _mm256_cmp_pd(w, zero, _CMP_GT_OQ)));
    int bits = _mm256_movemask_pd(hit);
    if (j + 4 > kb.count) bits &= (1 << (kb.count - j)) - 1;  // lanes past the kept boxes
    if (bits != 0) return true;
  }
  return false;
}

// The maskz forms of min/max with every lane set: the plain ones start from an
// "undefined" register that GCC 12 reports as maybe-uninitialized.
constexpr __mmask8 kAll8 = 0xFF;

__attribute__((target("avx512f,avx512dq"))) bool suppressed_avx512(const KeptBoxes& kb, const Candidate& c, double t) {
  const __m512d cy0 = _mm512_set1_pd(c.ymin), cx0 = _mm512_set1_pd(c.xmin), cy1 = _mm512_set1_pd(c.ymax),
                cx1 = _mm512_set1_pd(c.xmax), ca = _mm512_set1_pd(c.area), tt = _mm512_set1_pd(t),
                zero = _mm512_setzero_pd();
  for (size_t j = 0; j < kb.count; j += 8) {
    const auto valid = static_cast<__mmask8>(kb.count - j >= 8 ? 0xFF : (1u << (kb.count - j)) - 1);
    const __m512d a = _mm512_loadu_pd(kb.area + j);
    const __m512d h = _mm512_sub_pd(_mm512_maskz_min_pd(kAll8, _mm512_loadu_pd(kb.ymax + j), cy1),
                                    _mm512_maskz_max_pd(kAll8, _mm512_loadu_pd(kb.ymin + j), cy0));
    const __m512d w = _mm512_sub_pd(_mm512_maskz_min_pd(kAll8, _mm512_loadu_pd(kb.xmax + j), cx1),
                                    _mm512_maskz_max_pd(kAll8, _mm512_loadu_pd(kb.xmin + j), cx0));
    const __m512d inter = _mm512_mul_pd(h, w);
    const __m512d iou = _mm512_div_pd(inter, _mm512_sub_pd(_mm512_add_pd(a, ca), inter));
    __mmask8 hit = _mm512_mask_cmp_pd_mask(valid, a, zero, _CMP_GT_OQ);
    hit = _mm512_mask_cmp_pd_mask(hit, h, zero, _CMP_GT_OQ);
    hit = _mm512_mask_cmp_pd_mask(hit, w, zero, _CMP_GT_OQ);
    hit = _mm512_mask_cmp_pd_mask(hit, iou, tt, _CMP_GT_OQ);
    if (hit != 0) return true;
  }
  return false;
}
#endif

bool suppressed(oprig_cpu_isa isa, const KeptBoxes& kb, const Candidate& c, double t) {
#if defined(__x86_64__)
  if (isa == OPRIG_CPU_ISA_AVX512) return suppressed_avx512(kb, c, t);
  if (isa == OPRIG_CPU_ISA_AVX2) return suppressed_avx2(kb, c, t);
#endif
  (void)isa;
  return suppressed_scalar(kb, c, t);
}

// Buffers of one task, from new (std::nothrow): an exception must not escape
// a pool thread.
struct ClassBuffers {
  std::unique_ptr<uint64_t[]> ranks;
  std::unique_ptr<double[]> kept;
  bool allocate(size_t n, size_t limit) {
    const size_t padded = (limit + kLanes - 1) / kLanes * kLanes + kLanes;
    ranks.reset(new (std::nothrow) uint64_t[std::max<size_t>(n, 1)]);
    kept.reset(new (std::nothrow) double[5 * padded]());
    return ranks && kept;
  }
};

struct Run {
  NmsCpuKernel* k;
  const float* scores;
  oprig_cpu_isa isa;
  std::atomic<bool> out_of_memory{false};
};

void select_class(const NmsCpuKernel& k, ClassBuffers& buf, const float* scores, size_t b, size_t cls,
                  oprig_cpu_isa isa, Kept* out, uint32_t* out_count) {
  // Candidates: (score key, inverted box index), the best rank first out of the heap.
  uint64_t* ranks = buf.ranks.get();
  size_t m = 0;
  const float* s = scores + b * k.n * k.classes + cls;
  for (size_t i = 0; i < k.n; ++i) {  // branch-free: whether a score passes is a coin toss
    const float v = s[i * k.classes];
    ranks[m] = (static_cast<uint64_t>(multi_class_nms::score_key(v)) << 32) | static_cast<uint32_t>(~static_cast<uint32_t>(i));
    m += v > k.p.score_threshold;
  }
  std::make_heap(ranks, ranks + m);
  const size_t padded = (k.limit + kLanes - 1) / kLanes * kLanes + kLanes;
  double* base = buf.kept.get();
  KeptBoxes kb{base, base + padded, base + 2 * padded, base + 3 * padded, base + 4 * padded, 0};
  const Corners corners = corners_of(k, b);
  const double t = k.p.iou_threshold;
  size_t kept = 0;
  while (m > 0 && kept < k.limit) {
    std::pop_heap(ranks, ranks + m);
    const uint64_t r = ranks[--m];
    const size_t i = static_cast<uint32_t>(~static_cast<uint32_t>(r));
    const Candidate c{corners.ymin[i], corners.xmin[i], corners.ymax[i], corners.xmax[i], corners.area[i]};
    // A box without area is never suppressed (and never suppresses: see the checks on kept areas).
    if (c.area > 0 && suppressed(isa, kb, c, t)) continue;
    kb.ymin[kept] = c.ymin;
    kb.xmin[kept] = c.xmin;
    kb.ymax[kept] = c.ymax;
    kb.xmax[kept] = c.xmax;
    kb.area[kept] = c.area;
    kb.count = ++kept;
    out[kept - 1] = {s[i * k.classes], static_cast<int32_t>(i)};
  }
  *out_count = static_cast<uint32_t>(kept);
}

void class_tasks(void* arg, size_t begin, size_t end) {
  Run& run = *static_cast<Run*>(arg);
  NmsCpuKernel& k = *run.k;
  ClassBuffers buf;
  if (!buf.allocate(k.n, k.limit)) {
    run.out_of_memory = true;
    return;
  }
  for (size_t t = begin; t < end; ++t) {
    const size_t b = t / k.classes, cls = t % k.classes;
    select_class(k, buf, run.scores, b, cls, run.isa, k.kept.data() + t * k.limit, k.kept_count.data() + t);
  }
}

// ---- 3. merge ----------------------------------------------------------------------------------

void merge(NmsCpuKernel& k, size_t b) {
  Detection* out = k.detections.data() + b * static_cast<size_t>(k.p.max_detections);
  std::vector<Detection> all;
  for (size_t cls = 0; cls < k.classes; ++cls) {
    const size_t t = b * k.classes + cls;
    for (uint32_t j = 0; j < k.kept_count[t]; ++j) {
      const Kept& e = k.kept[t * k.limit + j];
      all.push_back({e.score, static_cast<int32_t>(cls), e.box});
    }
  }
  const size_t keep = std::min(all.size(), static_cast<size_t>(k.p.max_detections));
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(),
                    [](const Detection& x, const Detection& y) {
                      if (x.score != y.score) return x.score > y.score;
                      if (x.cls != y.cls) return x.cls < y.cls;
                      return x.box < y.box;
                    });
  std::copy_n(all.begin(), keep, out);
  k.count[b] = static_cast<uint32_t>(keep);
}

// Steps 1-3 on the given inputs; sets k.depth.
oprig_status run_selection(NmsCpuKernel& k, const oprig_tensor* inputs) {
  k.depth = 0;
  if (k.batch == 0) return OPRIG_STATUS_OK;
  const auto* boxes = static_cast<const float*>(inputs[0].data);
  for (size_t b = 0; b < k.batch; ++b) decode(k, boxes, b);
  std::fill(k.kept_count.begin(), k.kept_count.end(), 0u);
  if (k.n > 0 && k.classes > 0 && k.limit > 0) {
    Run run{&k, static_cast<const float*>(inputs[1].data), static_cast<oprig_cpu_isa>(k.ctx->cpu_isa), {}};
    // A class task reads n scores and may compare against up to `limit` kept boxes per candidate.
    const size_t grain = std::max<size_t>(1, (size_t{1} << 14) / std::max<size_t>(1, k.n));
    k.ctx->cpu_parallel_for(k.ctx->cpu_pool, k.batch * k.classes, grain, class_tasks, &run);
    if (run.out_of_memory) return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  try {
    for (size_t b = 0; b < k.batch; ++b) {
      merge(k, b);
      k.depth = std::max<size_t>(k.depth, k.count[b]);
    }
  } catch (const std::bad_alloc&) {
    return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  return OPRIG_STATUS_OK;
}

// ---- the ABI ---------------------------------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<multi_class_nms::Params> p = multi_class_nms::read_params(params, num_params);
  if (!p) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) NmsCpuKernel();
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_multi_class_nms__cpu;
  k->ctx = ctx;
  k->p = *p;
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<NmsCpuKernel>(handle);
  k->g.features.clear();
  // The detection dimension depends on the values: resolve_shapes() sets it.
  const oprig_status st = multi_class_nms::plan(k->p, inputs, num_inputs, outputs, num_outputs, false, &k->g);
  if (st != OPRIG_STATUS_OK) return st;
  k->batch = k->g.batch;
  k->n = k->g.n;
  k->classes = k->g.classes;
  k->limit = k->g.limit;
  try {
    k->corners.assign(k->batch * 5 * k->n, 0.0);
    k->kept.assign(k->batch * k->classes * k->limit, Kept{});
    k->kept_count.assign(k->batch * k->classes, 0);
    k->detections.assign(k->batch * static_cast<size_t>(k->p.max_detections), Detection{});
    k->count.assign(k->batch, 0);
  } catch (const std::bad_alloc&) {
    return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  return OPRIG_STATUS_OK;
}

oprig_status resolve_shapes(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                            size_t num_outputs) {
  auto* k = from_handle<NmsCpuKernel>(handle);
  if (num_inputs != k->g.features.size() + 2 || num_outputs != num_inputs + 2) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_status s = run_selection(*k, inputs);
  if (s != OPRIG_STATUS_OK) return s;
  multi_class_nms::set_depth(outputs, num_outputs, static_cast<int64_t>(k->depth));
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  auto* k = from_handle<NmsCpuKernel>(handle);
  if (num_inputs != k->g.features.size() + 2 || num_outputs != num_inputs + 2) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_status s = run_selection(*k, inputs);
  if (s != OPRIG_STATUS_OK) return s;
  // The outputs were sized by resolve_shapes(): the same values give the same depth.
  const auto depth = static_cast<size_t>(k->depth);
  if (outputs[0].dims[1] != static_cast<int64_t>(depth)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* boxes = static_cast<const float*>(inputs[0].data);
  auto* out_boxes = static_cast<float*>(outputs[0].data);
  auto* out_scores = static_cast<float*>(outputs[1].data);
  auto* out_classes = static_cast<int32_t*>(outputs[2].data);
  auto* out_count = static_cast<int32_t*>(outputs[3].data);
  for (size_t b = 0; b < k->batch; ++b) {
    const Detection* d = k->detections.data() + b * static_cast<size_t>(k->p.max_detections);
    const size_t found = k->count[b];
    out_count[b] = static_cast<int32_t>(found);
    for (size_t j = 0; j < depth; ++j) {
      const size_t at = b * depth + j;
      if (j < found) {
        std::memcpy(out_boxes + at * 4, boxes + (b * k->n + static_cast<size_t>(d[j].box)) * 4, 4 * sizeof(float));
        out_scores[at] = d[j].score;
        out_classes[at] = d[j].cls;
      } else {
        std::fill_n(out_boxes + at * 4, 4, 0.0f);
        out_scores[at] = 0.0f;
        out_classes[at] = -1;
      }
      for (size_t f = 0; f < k->g.features.size(); ++f) {
        const size_t row = k->g.features[f].row;
        float* dst = static_cast<float*>(outputs[4 + f].data) + at * row;
        if (j < found)
          std::memcpy(dst, static_cast<const float*>(inputs[2 + f].data) + (b * k->n + static_cast<size_t>(d[j].box)) * row,
                      row * sizeof(float));
        else
          std::fill_n(dst, row, 0.0f);
      }
    }
  }
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<NmsCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const NmsCpuKernel>(handle);
  *out = multi_class_nms::cost(k->g, k->depth);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_multi_class_nms__cpu = {"MultiClassNms", create, prepare, execute, destroy, cost, resolve_shapes};

}  // namespace oprig::opsuite
