// ScaledDotProductAttention on the cpu backend, FLOAT_32 and FLOAT_16
// (widened to fp32, computed, rounded once):
//   out = softmax(scale * Q K^T + mask, with j > i masked when causal) V
// per batch and head. Two paths, each written once over a `Lanes` type and
// compiled for AVX-512, AVX2 and the baseline (lanes_*.inc), chosen by the
// backend's cpu_isa: query tiles (attention_tile.inc: queries in the vector
// lanes, online softmax over blocks of keys) and, for a handful of queries
// such as one decoding step, rows (attention_rows.inc: one query at a time,
// its depth in the lanes). Neither exponentiates a logit before the maximum
// is subtracted. On the tile path AVX-512 and AVX2 do the same fused
// operations lane by lane and agree bit for bit; the baseline has no FMA and
// agrees within the tolerance, as the row path does across ISAs. Tasks
// (batch, head, tile or query) are split over the backend's threads. No peer
// library inside: OpenBLAS and oneDNN would pick their own ISA (ignoring
// cpu_isa) and keep global thread state, and the fused tile reads K and V
// once per tile instead of writing Sq x Sk logits to memory.
#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <vector>

#include "common/kernel.hpp"
#include "core/half.hpp"
#include "scaled_dot_product_attention/attention_problem.hpp"
#include "scaled_dot_product_attention/attention_shapes.hpp"

// __m512 / __m256 values pass between inlined helpers of the target regions.
#pragma GCC diagnostic ignored "-Wpsabi"
// GCC contracts a vector multiply and add into an FMA where it likes (C++ has
// no ISO-mode default of off), differently for AVX2 and AVX-512: the tile
// code says where it fuses (Lanes::fmadd), and nothing else is fused.
#pragma GCC optimize("fp-contract=off")

namespace oprig::opsuite {

extern const KernelOps oprig_scaled_dot_product_attention__cpu;

namespace sdpa {

namespace scalar {
#include "scaled_dot_product_attention/lanes_scalar.inc"
#include "scaled_dot_product_attention/attention_tile.inc"
#include "scaled_dot_product_attention/attention_rows.inc"
#include "scaled_dot_product_attention/attention_paths.inc"
}  // namespace scalar

#if defined(__x86_64__)
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
namespace avx2 {
#include "scaled_dot_product_attention/lanes_avx2.inc"
#include "scaled_dot_product_attention/attention_tile.inc"
#include "scaled_dot_product_attention/attention_rows.inc"
#include "scaled_dot_product_attention/attention_paths.inc"
}  // namespace avx2
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c,prefer-vector-width=512")
namespace avx512 {
#include "scaled_dot_product_attention/lanes_avx512.inc"
#include "scaled_dot_product_attention/attention_tile.inc"
#include "scaled_dot_product_attention/attention_rows.inc"
#include "scaled_dot_product_attention/attention_paths.inc"
}  // namespace avx512
#pragma GCC pop_options
#endif

}  // namespace sdpa

namespace {

using sdpa::AttentionProblem;

struct AttentionCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  sdpa::AttentionParams params;
  AttentionProblem shape;      // shapes, scale, mask strides; tensors set per execute
  bool has_mask = false;
};

// The ISA's task count and work per task, and the runner of a range of tasks.
struct IsaPath {
  size_t (*task_count)(const AttentionProblem&);
  int64_t (*task_work)(const AttentionProblem&);
  void (*run)(const AttentionProblem&, size_t, size_t);
};

struct Work {
  AttentionProblem problem;
  IsaPath path;
};

IsaPath path_for(oprig_cpu_isa isa) {
#if defined(__x86_64__)
  if (isa == OPRIG_CPU_ISA_AVX512) return {sdpa::avx512::task_count, sdpa::avx512::task_work, sdpa::avx512::run};
  if (isa == OPRIG_CPU_ISA_AVX2) return {sdpa::avx2::task_count, sdpa::avx2::task_work, sdpa::avx2::run};
#endif
  (void)isa;
  return {sdpa::scalar::task_count, sdpa::scalar::task_work, sdpa::scalar::run};
}

void run_range(void* arg, size_t begin, size_t end) {
  const Work& w = *static_cast<const Work*>(arg);
  w.path.run(w.problem, begin, end);
}

// ---- the ABI --------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<sdpa::AttentionParams> attention = sdpa::read_params(params, num_params);
  if (!attention) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = new (std::nothrow) AttentionCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_scaled_dot_product_attention__cpu;
  kernel->ctx = ctx;
  kernel->params = *attention;
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* kernel = from_handle<AttentionCpuKernel>(handle);
  return sdpa::plan_attention(inputs, num_inputs, outputs, num_outputs, kernel->params, kernel->shape,
                              kernel->has_mask);
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs < 3 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = from_handle<AttentionCpuKernel>(handle);
  const IsaPath path = path_for(static_cast<oprig_cpu_isa>(kernel->ctx->cpu_isa));
  Work work{kernel->shape, path};
  AttentionProblem& p = work.problem;
  p.query = inputs[0].data;
  p.key = inputs[1].data;
  p.value = inputs[2].data;
  p.mask = kernel->has_mask ? inputs[3].data : nullptr;
  p.out = outputs[0].data;
  const size_t tasks = path.task_count(p);
  if (tasks == 0 || p.value_depth == 0) return OPRIG_STATUS_OK;
  // About 2^18 multiply-adds a chunk at least: below that a thread hand-off costs more than it saves.
  const auto grain = static_cast<size_t>(std::max<int64_t>(1, (int64_t{1} << 18) / path.task_work(p)));
  kernel->ctx->cpu_parallel_for(kernel->ctx->cpu_pool, tasks, grain, run_range, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<AttentionCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = sdpa::attention_cost(from_handle<const AttentionCpuKernel>(handle)->shape);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_scaled_dot_product_attention__cpu = {"ScaledDotProductAttention", create, prepare, execute,
                                                           destroy, cost};

}  // namespace oprig::opsuite
