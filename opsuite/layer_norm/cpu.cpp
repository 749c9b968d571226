// LayerNorm on the cpu backend: FLOAT_32 and FLOAT_16 (widened exactly,
// computed in fp64, rounded once), any first normalised axis (the slices over
// axis..N-1 are contiguous rows of the input), beta optional. The slice
// algorithm (layer_norm_math.inl) is written once over sixteen lanes and
// compiled three times, each inside its own namespace: AVX-512, AVX2 + FMA
// and portable C++, chosen by the backend's cpu_isa; the three agree bit for
// bit. Slices are split over the backend's threads with cpu_parallel_for.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>

#include "common/kernel.hpp"
#include "core/half.hpp"
#include "layer_norm/layer_norm_rows.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_layer_norm__cpu;

namespace {

// Returning vector types from always-inline helpers; GCC's note that this
// would change the ABI without AVX does not apply to inlined calls.
#pragma GCC diagnostic ignored "-Wpsabi"

// layer_norm_math.inl is included once per lane set: the text is the same,
// the operations differ (see the header of each lanes_*.inl).
namespace scalar_path {
#include "layer_norm/lanes_scalar.inl"
#include "layer_norm/layer_norm_math.inl"
}  // namespace scalar_path

#if defined(__x86_64__)
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
namespace avx2_path {
#include "layer_norm/lanes_avx2.inl"
#include "layer_norm/layer_norm_math.inl"
}  // namespace avx2_path
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma,f16c")
namespace avx512_path {
#include "layer_norm/lanes_avx512.inl"
#include "layer_norm/layer_norm_math.inl"
}  // namespace avx512_path
#pragma GCC pop_options
#endif

struct LayerNormCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  int64_t axis = -1;
  double epsilon = 1e-5;
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  bool has_beta = false;
  size_t slices = 0, slice_size = 0;
};

struct Work {
  const LayerNormCpuKernel* k;
  const void* x;
  const void* gamma;
  const void* beta;
  void* y;
  oprig_cpu_isa isa;
};

template <class T, bool kHasBeta>
void slices(const Work& w, size_t begin, size_t end) {
  const size_t n = w.k->slice_size;
  const T* x = static_cast<const T*>(w.x);
  const T* gamma = static_cast<const T*>(w.gamma);
  const T* beta = static_cast<const T*>(w.beta);
  T* y = static_cast<T*>(w.y);
  for (size_t s = begin; s < end; ++s) {
#if defined(__x86_64__)
    if (w.isa == OPRIG_CPU_ISA_AVX512) {
      avx512_path::layer_norm_slice<T, kHasBeta>(x + s * n, gamma, beta, y + s * n, n, w.k->epsilon);
      continue;
    }
    if (w.isa == OPRIG_CPU_ISA_AVX2) {
      avx2_path::layer_norm_slice<T, kHasBeta>(x + s * n, gamma, beta, y + s * n, n, w.k->epsilon);
      continue;
    }
#endif
    scalar_path::layer_norm_slice<T, kHasBeta>(x + s * n, gamma, beta, y + s * n, n, w.k->epsilon);
  }
}

void run_chunk(void* arg, size_t begin, size_t end) {
  const Work& w = *static_cast<const Work*>(arg);
  const bool f32 = w.k->dtype == OPRIG_DTYPE_FLOAT_32;
  if (f32 && w.k->has_beta) return slices<float, true>(w, begin, end);
  if (f32) return slices<float, false>(w, begin, end);
  if (w.k->has_beta) return slices<uint16_t, true>(w, begin, end);
  slices<uint16_t, false>(w, begin, end);
}

// ---- the ABI --------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<double> epsilon = scalar_param(params, num_params, "epsilon");
  if (epsilon && !(std::isfinite(*epsilon) && *epsilon > 0)) return OPRIG_STATUS_INVALID_ARGUMENT;  // the spec: > 0
  auto* kernel = new (std::nothrow) LayerNormCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_layer_norm__cpu;
  kernel->ctx = ctx;
  kernel->axis = static_cast<int64_t>(scalar_param(params, num_params, "axis").value_or(-1.0));
  // The parameter arrives as FLOAT_32: its value is that float, exactly.
  kernel->epsilon = static_cast<double>(static_cast<float>(epsilon.value_or(1e-5)));
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs < 2 || num_inputs > 3 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  auto* kernel = from_handle<LayerNormCpuKernel>(handle);
  LayerNormRows shape;
  const oprig_status st = layer_norm_rows(inputs, num_inputs, outputs[0], kernel->axis, &shape);
  if (st != OPRIG_STATUS_OK) return st;
  kernel->has_beta = shape.has_beta;
  kernel->slice_size = static_cast<size_t>(shape.row_size);
  kernel->slices = static_cast<size_t>(shape.rows);
  kernel->dtype = static_cast<oprig_dtype>(in.dtype);
  outputs[0].rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, outputs[0].dims);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs < 2 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = from_handle<LayerNormCpuKernel>(handle);
  if (kernel->slices == 0) return OPRIG_STATUS_OK;
  Work work{kernel, inputs[0].data, inputs[1].data, kernel->has_beta ? inputs[2].data : nullptr, outputs[0].data,
            static_cast<oprig_cpu_isa>(kernel->ctx->cpu_isa)};
  // 32 Ki elements a chunk at least: below that a thread hand-off costs more than it saves.
  const size_t grain = std::max<size_t>(1, (size_t{1} << 15) / kernel->slice_size);
  kernel->ctx->cpu_parallel_for(kernel->ctx->cpu_pool, kernel->slices, grain, run_chunk, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<LayerNormCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const LayerNormCpuKernel>(handle);
  const uint64_t n = k->slices * k->slice_size;
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  // A sum, a squared deviation (2), then subtract, scale, FMA (4): 7 per element.
  out->flops = 7 * n;
  out->bytes_read = width * (n + (k->has_beta ? 2 : 1) * k->slice_size);
  out->bytes_written = width * n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_layer_norm__cpu = {"LayerNorm", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
