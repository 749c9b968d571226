// RMSNorm on the cpu backend: FLOAT_32 (the type the spec gives the CPU core),
// slices along the last axis. The slice algorithm (rms_norm_math.inl) is
// written once over sixteen lanes and compiled three times, each inside its
// own namespace: AVX-512, AVX2 + FMA and portable C++, chosen by the
// backend's cpu_isa; the three agree bit for bit. Slices are split over the
// backend's threads with cpu_parallel_for.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>

#include "common/kernel.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_rms_norm__cpu;

namespace {

// Returning vector types from always-inline helpers; GCC's note that this
// would change the ABI without AVX does not apply to inlined calls.
#pragma GCC diagnostic ignored "-Wpsabi"

// rms_norm_math.inl is included once per lane set: the text is the same, the
// operations differ (see the header of each lanes_*.inl).
namespace scalar_path {
#include "rms_norm/lanes_scalar.inl"
#include "rms_norm/rms_norm_math.inl"
}  // namespace scalar_path

#if defined(__x86_64__)
#pragma GCC push_options
#pragma GCC target("avx2,fma")
namespace avx2_path {
#include "rms_norm/lanes_avx2.inl"
#include "rms_norm/rms_norm_math.inl"
}  // namespace avx2_path
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma")
namespace avx512_path {
#include "rms_norm/lanes_avx512.inl"
#include "rms_norm/rms_norm_math.inl"
}  // namespace avx512_path
#pragma GCC pop_options
#endif

struct RmsNormCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  double epsilon = 1e-6;
  size_t slices = 0, slice_size = 0;
};

struct Work {
  const RmsNormCpuKernel* k;
  const float* x;
  const float* weight;
  float* y;
  oprig_cpu_isa isa;
};

void run_chunk(void* arg, size_t begin, size_t end) {
  const Work& w = *static_cast<const Work*>(arg);
  const size_t n = w.k->slice_size;
  for (size_t s = begin; s < end; ++s) {
#if defined(__x86_64__)
    if (w.isa == OPRIG_CPU_ISA_AVX512) {
      avx512_path::rms_norm_slice(w.x + s * n, w.weight, w.y + s * n, n, w.k->epsilon);
      continue;
    }
    if (w.isa == OPRIG_CPU_ISA_AVX2) {
      avx2_path::rms_norm_slice(w.x + s * n, w.weight, w.y + s * n, n, w.k->epsilon);
      continue;
    }
#endif
    scalar_path::rms_norm_slice(w.x + s * n, w.weight, w.y + s * n, n, w.k->epsilon);
  }
}

// ---- the ABI --------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<double> epsilon = scalar_param(params, num_params, "epsilon");
  // Negative or non-finite epsilon has no meaning (sqrt of a negative mean square).
  if (epsilon && !(std::isfinite(*epsilon) && *epsilon >= 0)) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = new (std::nothrow) RmsNormCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_rms_norm__cpu;
  kernel->ctx = ctx;
  // The parameter arrives as FLOAT_32: its value is that float, exactly.
  kernel->epsilon = static_cast<double>(static_cast<float>(epsilon.value_or(1e-6)));
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 2 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32) return OPRIG_STATUS_UNSUPPORTED;
  if (inputs[1].dtype != in.dtype || outputs[0].dtype != in.dtype || in.rank == 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  // weight: 1-D, the length of the last axis.
  if (inputs[1].rank != 1 || inputs[1].dims[0] != in.dims[in.rank - 1]) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = from_handle<RmsNormCpuKernel>(handle);
  kernel->slice_size = static_cast<size_t>(in.dims[in.rank - 1]);
  kernel->slices = kernel->slice_size == 0 ? 0 : element_count(in) / kernel->slice_size;
  outputs[0].rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, outputs[0].dims);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 2 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = from_handle<RmsNormCpuKernel>(handle);
  if (kernel->slices == 0) return OPRIG_STATUS_OK;
  Work work{kernel, static_cast<const float*>(inputs[0].data), static_cast<const float*>(inputs[1].data),
            static_cast<float*>(outputs[0].data), static_cast<oprig_cpu_isa>(kernel->ctx->cpu_isa)};
  // 32 Ki elements a chunk at least: below that a thread hand-off costs more than it saves.
  const size_t grain = std::max<size_t>(1, (size_t{1} << 15) / kernel->slice_size);
  kernel->ctx->cpu_parallel_for(kernel->ctx->cpu_pool, kernel->slices, grain, run_chunk, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<RmsNormCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const RmsNormCpuKernel>(handle);
  const uint64_t n = k->slices * k->slice_size;
  out->flops = 4 * n;  // square and add, two products
  out->bytes_read = 4 * (n + k->slice_size);
  out->bytes_written = 4 * n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_rms_norm__cpu = {"RMSNorm", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
