// Activation on the cpu backend: eight functions, FLOAT_32 and FLOAT_16
// (widened exactly, computed in fp32, rounded once). The functions are written
// once (activation_math.inl) over a small set of lane operations and compiled
// three times, each inside its own namespace: AVX-512 (two registers, 32
// lanes), AVX2 + FMA (two registers, 16 lanes) and scalar, chosen by the
// backend's cpu_isa (two registers: independent dependency chains side by
// side, which the core overlaps). The three do the same IEEE operations in
// the same order (the scalar path uses std::fma), so they agree bit for bit.
// Inputs the fast formulas do not cover (NaN, infinities, far negative tails)
// are recomputed per element in double (rare_value). The work is split over
// the backend's threads with cpu_parallel_for.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <numbers>

#include "activation/activation_coefficients.hpp"
#include "activation/activation_modes.hpp"
#include "common/kernel.hpp"
#include "core/half.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_activation__cpu;

namespace {

// In the order of the spec's Enumeration.
enum class Mode { kRelu, kRelu6, kSigmoid, kTanh, kGeluErf, kGeluTanh, kSilu, kHardSwish };

// The lanes the fast formulas leave out, in double and rounded once to fp32
// (a subnormal result included). Only modes with a "rare" mask come here.
[[gnu::noinline]] float rare_value(Mode mode, float value) {
  const double x = value;
  if (std::isnan(x)) return value;
  if (x == -std::numeric_limits<double>::infinity()) return mode == Mode::kSigmoid ? 0.0f : -0.0f;
  switch (mode) {
    case Mode::kSigmoid: return static_cast<float>(1.0 / (1.0 + std::exp(-x)));
    case Mode::kSilu: return static_cast<float>(x / (1.0 + std::exp(-x)));
    case Mode::kGeluErf: return static_cast<float>(0.5 * x * std::erfc(-x * std::numbers::sqrt2 / 2));
    case Mode::kGeluTanh: {
      const double two_u = 2 * std::sqrt(2 / std::numbers::pi) * (x + 0.044715 * x * x * x);
      return static_cast<float>(x / (1.0 + std::exp(-two_u)));
    }
    default: return value;  // not reached: the other modes have no rare lanes
  }
}

// Returning vector types from always-inline helpers; GCC's note that this
// would change the ABI without AVX does not apply to inlined calls.
#pragma GCC diagnostic ignored "-Wpsabi"

// activation_math.inl is included once per lane set: the text is the same,
// the operations differ (see the header of each lanes_*.inl).
namespace scalar_path {
#include "activation/lanes_scalar.inl"
#include "activation/activation_math.inl"
}  // namespace scalar_path

#if defined(__x86_64__)
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
namespace avx2_path {
#include "activation/lanes_avx2.inl"
#include "activation/activation_math.inl"
}  // namespace avx2_path
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma,f16c")



namespace avx512_path {
#include "activation/lanes_avx512.inl"
#include "activation/activation_math.inl"
}  // namespace avx512_path
#pragma GCC pop_options
#endif

struct ActivationCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  Mode mode = Mode::kRelu;
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  size_t count = 0;
};

struct Work {
  const void* src;
  void* dst;
  oprig_dtype dtype;
  oprig_cpu_isa isa;
};

template <Mode kMode>
void run_range(const Work& w, size_t begin, size_t end) {
  const size_t n = end - begin;
  if (w.dtype == OPRIG_DTYPE_FLOAT_32) {
    const float* x = static_cast<const float*>(w.src) + begin;
    float* y = static_cast<float*>(w.dst) + begin;
#if defined(__x86_64__)
    if (w.isa == OPRIG_CPU_ISA_AVX512) return avx512_path::activate_f32<kMode>(x, y, n);
    if (w.isa == OPRIG_CPU_ISA_AVX2) return avx2_path::activate_f32<kMode>(x, y, n);
#endif
    return scalar_path::activate_f32<kMode>(x, y, n);
  }
  const uint16_t* x = static_cast<const uint16_t*>(w.src) + begin;
  uint16_t* y = static_cast<uint16_t*>(w.dst) + begin;
#if defined(__x86_64__)
  if (w.isa == OPRIG_CPU_ISA_AVX512) return avx512_path::activate_f16<kMode>(x, y, n);
  if (w.isa == OPRIG_CPU_ISA_AVX2) return avx2_path::activate_f16<kMode>(x, y, n);
#endif
  scalar_path::activate_f16<kMode>(x, y, n);
}

template <Mode kMode>
void run_chunk(void* arg, size_t begin, size_t end) {
  run_range<kMode>(*static_cast<const Work*>(arg), begin, end);
}

using ChunkFn = void (*)(void*, size_t, size_t);

ChunkFn chunk_function(Mode mode) {
  switch (mode) {
    case Mode::kRelu: return run_chunk<Mode::kRelu>;
    case Mode::kRelu6: return run_chunk<Mode::kRelu6>;
    case Mode::kSigmoid: return run_chunk<Mode::kSigmoid>;
    case Mode::kTanh: return run_chunk<Mode::kTanh>;
    case Mode::kGeluErf: return run_chunk<Mode::kGeluErf>;
    case Mode::kGeluTanh: return run_chunk<Mode::kGeluTanh>;
    case Mode::kSilu: return run_chunk<Mode::kSilu>;
    case Mode::kHardSwish: return run_chunk<Mode::kHardSwish>;
  }
  return nullptr;
}

// ---- the ABI --------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<int> mode = activation_mode(params, num_params);
  if (!mode || *mode < 0) return OPRIG_STATUS_INVALID_ARGUMENT;  // mandatory, and one of the eight
  auto* kernel = new (std::nothrow) ActivationCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_activation__cpu;
  kernel->ctx = ctx;
  kernel->mode = static_cast<Mode>(*mode);
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  outputs[0].rank = in.rank;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, outputs[0].dims);
  auto* kernel = from_handle<ActivationCpuKernel>(handle);
  kernel->dtype = static_cast<oprig_dtype>(in.dtype);
  kernel->count = element_count(in);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = from_handle<ActivationCpuKernel>(handle);
  if (kernel->count == 0) return OPRIG_STATUS_OK;
  Work work{inputs[0].data, outputs[0].data, kernel->dtype, static_cast<oprig_cpu_isa>(kernel->ctx->cpu_isa)};
  // 64 Ki elements a chunk at least: below that a thread hand-off costs more than it saves.
  kernel->ctx->cpu_parallel_for(kernel->ctx->cpu_pool, kernel->count, size_t{1} << 16, chunk_function(kernel->mode),
                                &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<ActivationCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* kernel = from_handle<const ActivationCpuKernel>(handle);
  const uint64_t width = kernel->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  out->flops = kActivationFlopsPerElement[static_cast<int>(kernel->mode)] * kernel->count;
  out->bytes_read = width * kernel->count;
  out->bytes_written = width * kernel->count;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_activation__cpu = {"Activation", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
