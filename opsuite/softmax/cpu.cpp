// Softmax on the cpu backend: FLOAT_32 and FLOAT_16 (widened exactly,
// computed in fp32, rounded once), any axis. The algorithm (softmax_math.inl)
// is written once over sixteen lanes and compiled three times, each inside its
// own namespace: AVX-512, AVX2 + FMA (two registers) and portable C++, chosen
// by the backend's cpu_isa; the three agree bit for bit. Along the last axis
// each slice is a contiguous row (max, exponentials with an fp64 sum, scale);
// along another axis up to 64 neighbouring slices are done side by side, one
// per lane, sweeping rows of the inner dimension. Slices are split over the
// backend's threads with cpu_parallel_for.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <type_traits>
#include <vector>

#include "common/kernel.hpp"
#include "core/half.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_softmax__cpu;

namespace {

// Returning vector types from always-inline helpers; GCC's note that this
// would change the ABI without AVX does not apply to inlined calls.
#pragma GCC diagnostic ignored "-Wpsabi"

// softmax_math.inl is included once per lane set: the text is the same, the
// operations differ (see the header of each lanes_*.inl).
namespace scalar_path {
#include "softmax/lanes_scalar.inl"
#include "softmax/softmax_math.inl"
}  // namespace scalar_path

#if defined(__x86_64__)
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
namespace avx2_path {
#include "softmax/lanes_avx2.inl"
#include "softmax/softmax_math.inl"
}  // namespace avx2_path
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma,f16c")
namespace avx512_path {
#include "softmax/lanes_avx512.inl"
#include "softmax/softmax_math.inl"
}  // namespace avx512_path
#pragma GCC pop_options
#endif

struct SoftmaxCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  std::optional<int64_t> axis;  // absent: the spec's default N-1, the last axis
  float beta = 1.0f;
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  size_t outer = 0, length = 0, inner = 0;  // the input as [outer, length, inner]
};

struct Work {
  const SoftmaxCpuKernel* k;
  const void* src;
  void* dst;
  oprig_cpu_isa isa;
};

template <class T>
void row(oprig_cpu_isa isa, const T* x, T* y, float* e, size_t n, float beta) {
#if defined(__x86_64__)
  if (isa == OPRIG_CPU_ISA_AVX512) return avx512_path::softmax_row(x, y, e, n, beta);
  if (isa == OPRIG_CPU_ISA_AVX2) return avx2_path::softmax_row(x, y, e, n, beta);
#endif
  scalar_path::softmax_row(x, y, e, n, beta);
}

template <class T>
void columns(oprig_cpu_isa isa, const T* x, T* y, size_t length, size_t stride, size_t width, float beta) {
#if defined(__x86_64__)
  if (isa == OPRIG_CPU_ISA_AVX512) return avx512_path::softmax_columns(x, y, length, stride, width, beta);
  if (isa == OPRIG_CPU_ISA_AVX2) return avx2_path::softmax_columns(x, y, length, stride, width, beta);
#endif
  scalar_path::softmax_columns(x, y, length, stride, width, beta);
}

// Slices side by side when the axis is not the last (softmax_math.inl).
constexpr size_t kBlock = 16 * scalar_path::kColumnVectors;

// Items [begin, end): rows when the axis is the last, else (outer, block of
// kBlock inner positions) pairs.
template <class T>
void run_items(const Work& w, size_t begin, size_t end) {
  const SoftmaxCpuKernel& k = *w.k;
  const T* x = static_cast<const T*>(w.src);
  T* y = static_cast<T*>(w.dst);
  if (k.inner == 1) {
    // fp32 keeps the exponentials in the output row; fp16 needs an fp32 row.
    std::vector<float> scratch(std::is_same_v<T, float> ? 0 : k.length);
    for (size_t r = begin; r < end; ++r) {
      float* e = std::is_same_v<T, float> ? reinterpret_cast<float*>(y + r * k.length) : scratch.data();
      row(w.isa, x + r * k.length, y + r * k.length, e, k.length, k.beta);
    }
    return;
  }
  const size_t blocks = (k.inner + kBlock - 1) / kBlock;
  for (size_t item = begin; item < end; ++item) {
    const size_t o = item / blocks, j = (item % blocks) * kBlock;
    const size_t offset = o * k.length * k.inner + j;
    columns(w.isa, x + offset, y + offset, k.length, k.inner, std::min(kBlock, k.inner - j), k.beta);
  }
}

void run_chunk(void* arg, size_t begin, size_t end) {
  const Work& w = *static_cast<const Work*>(arg);
  if (w.k->dtype == OPRIG_DTYPE_FLOAT_32) run_items<float>(w, begin, end);
  else run_items<uint16_t>(w, begin, end);
}

// ---- the ABI --------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<double> beta = scalar_param(params, num_params, "beta");
  if (beta && !(std::isfinite(*beta) && *beta > 0)) return OPRIG_STATUS_INVALID_ARGUMENT;  // the spec: beta > 0
  auto* kernel = new (std::nothrow) SoftmaxCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_softmax__cpu;
  kernel->ctx = ctx;
  if (const auto axis = scalar_param(params, num_params, "axis")) kernel->axis = static_cast<int64_t>(*axis);
  kernel->beta = static_cast<float>(beta.value_or(1.0));
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != in.dtype || in.rank == 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = from_handle<SoftmaxCpuKernel>(handle);
  const int64_t rank = in.rank;
  const int64_t axis = kernel->axis.value_or(rank - 1);
  if (axis < -rank || axis >= rank) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto a = static_cast<uint32_t>(axis < 0 ? axis + rank : axis);
  kernel->outer = kernel->inner = 1;
  for (uint32_t d = 0; d < a; ++d) kernel->outer *= static_cast<size_t>(in.dims[d]);
  for (uint32_t d = a + 1; d < in.rank; ++d) kernel->inner *= static_cast<size_t>(in.dims[d]);
  kernel->length = static_cast<size_t>(in.dims[a]);
  kernel->dtype = static_cast<oprig_dtype>(in.dtype);
  outputs[0].rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, outputs[0].dims);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = from_handle<SoftmaxCpuKernel>(handle);
  if (kernel->outer * kernel->length * kernel->inner == 0) return OPRIG_STATUS_OK;
  Work work{kernel, inputs[0].data, outputs[0].data, static_cast<oprig_cpu_isa>(kernel->ctx->cpu_isa)};
  const size_t items = kernel->inner == 1 ? kernel->outer : kernel->outer * ((kernel->inner + kBlock - 1) / kBlock);
  const size_t elements_per_item = kernel->length * (kernel->inner == 1 ? 1 : kBlock);
  // 32 Ki elements a chunk at least: below that a thread hand-off costs more than it saves.
  const size_t grain = std::max<size_t>(1, (size_t{1} << 15) / elements_per_item);
  kernel->ctx->cpu_parallel_for(kernel->ctx->cpu_pool, items, grain, run_chunk, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<SoftmaxCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const SoftmaxCpuKernel>(handle);
  const uint64_t n = k->outer * k->length * k->inner;
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  // max, TwoSum and product (9), exp (10), fp64 sum (1), scale (1).
  out->flops = 21 * n;
  out->bytes_read = width * n;
  out->bytes_written = width * n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_softmax__cpu = {"Softmax", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
