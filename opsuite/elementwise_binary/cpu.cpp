// ElementwiseBinary on the cpu backend: FLOAT_32, FLOAT_16 and INT_32 with
// NumPy broadcasting (common/broadcast.hpp turns it into rows where each input
// steps 1 or 0). The row loops are written once as templates over the
// operation and the two steps, and compiled three times: for AVX-512, for
// AVX2 and for the baseline, chosen by the backend's cpu_isa; the compiler
// vectorises them (these ops are memory-bound: the loads and stores are the
// cost, not the arithmetic). FLOAT_16 is widened to fp32 a block at a time
// (F16C on the vector paths), computed and rounded back once. POW calls the
// double-precision pow per element (no vector pow is as accurate). A fused
// activation clamps each finished block in a second pass (FLOAT_16 in fp32,
// before the rounding). The work is split over the backend's threads with
// cpu_parallel_for.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>

#include "common/broadcast.hpp"
#include "common/half_convert.hpp"
#include "common/kernel.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_elementwise_binary__cpu;

namespace {

enum class Op { kAdd, kSub, kMul, kDiv, kMax, kMin, kPow, kFloorDiv };  // kFloorDiv: DIV, integer_division FLOOR
enum class Act { kNone, kRelu, kRelu1, kRelu6 };

struct BinaryCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  Op op = Op::kAdd;
  Act act = Act::kNone;
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  BroadcastPlan plan;
};

// ---- one element ----------------------------------------------------------

template <Op kOp>
inline float apply_f32(float a, float b) {
  if constexpr (kOp == Op::kAdd) return a + b;
  if constexpr (kOp == Op::kSub) return a - b;
  if constexpr (kOp == Op::kMul) return a * b;
  if constexpr (kOp == Op::kDiv || kOp == Op::kFloorDiv) return a / b;
  // NaN propagates (a + b is NaN when either is); as selects, so it vectorises.
  if constexpr (kOp == Op::kMax) return (a != a || b != b) ? a + b : (a > b ? a : b);
  if constexpr (kOp == Op::kMin) return (a != a || b != b) ? a + b : (a < b ? a : b);
  if constexpr (kOp == Op::kPow) return static_cast<float>(std::pow(static_cast<double>(a), static_cast<double>(b)));
}

inline int32_t int_pow(int32_t base, int32_t exponent) {
  if (exponent < 0) return base == 1 ? 1 : base == -1 ? (exponent % 2 == 0 ? 1 : -1) : 0;
  uint32_t result = 1;
  for (int32_t i = 0; i < exponent; ++i) result *= static_cast<uint32_t>(base);
  return static_cast<int32_t>(result);
}

template <Op kOp>
inline int32_t apply_i32(int32_t a, int32_t b) {
  const auto ua = static_cast<uint32_t>(a), ub = static_cast<uint32_t>(b);
  if constexpr (kOp == Op::kAdd) return static_cast<int32_t>(ua + ub);
  if constexpr (kOp == Op::kSub) return static_cast<int32_t>(ua - ub);
  if constexpr (kOp == Op::kMul) return static_cast<int32_t>(ua * ub);
  // Division by 0 is outside the spec; it must not trap. INT_MIN / -1 wraps.
  if constexpr (kOp == Op::kDiv)
    return b == 0 ? 0 : (b == -1 ? static_cast<int32_t>(0u - ua) : a / b);
  if constexpr (kOp == Op::kFloorDiv) {
    if (b == 0) return 0;
    if (b == -1) return static_cast<int32_t>(0u - ua);
    const int32_t q = a / b;
    return q * b != a && ((a < 0) != (b < 0)) ? q - 1 : q;
  }
  if constexpr (kOp == Op::kMax) return a > b ? a : b;
  if constexpr (kOp == Op::kMin) return a < b ? a : b;
  if constexpr (kOp == Op::kPow) return int_pow(a, b);
}

// The fused activation: min(max(r, lo), hi) as selects (max(r, lo) keeps r
// unless r < lo), so NaN and -0 pass; none for Act::kNone.
template <class T>
void activate(T* y, size_t n, Act act) {
  if (act == Act::kNone) return;
  const T lo = act == Act::kRelu1 ? T(-1) : T(0);
  const T hi = act == Act::kRelu6 ? T(6) : act == Act::kRelu1 ? T(1) : std::numeric_limits<T>::max();
  const bool has_hi = act != Act::kRelu;
  for (size_t i = 0; i < n; ++i) {
    const T low = y[i] < lo ? lo : y[i];
    y[i] = has_hi && hi < low ? hi : low;
  }
}

// ---- rows -------------------------------------------------------------------
// Steps are template parameters (0: the input repeats one value along the row),
// so each combination is a plain loop the compiler vectorises.

template <Op kOp, int kA, int kB, class T, class F>
__attribute__((always_inline)) inline void row(const T* a, const T* b, T* y, size_t n, F f) {
  for (size_t i = 0; i < n; ++i) y[i] = f(a[i * kA], b[i * kB]);
}

template <Op kOp, class T, class F>
__attribute__((always_inline)) inline void row_any(const T* a, int64_t as, const T* b, int64_t bs, T* y, size_t n, F f) {
  if (as == 1 && bs == 1) return row<kOp, 1, 1>(a, b, y, n, f);
  if (as == 1) return row<kOp, 1, 0>(a, b, y, n, f);
  if (bs == 1) return row<kOp, 0, 1>(a, b, y, n, f);
  row<kOp, 0, 0>(a, b, y, n, f);
}

// FLOAT_16 rows: widen a block of each input, compute in fp32, round back once.
// WidenFn, NarrowFn and the conversions: common/half_convert.hpp.

template <Op kOp>
__attribute__((always_inline)) inline void row_f16(const uint16_t* a, int64_t as, const uint16_t* b, int64_t bs,
                                                   uint16_t* y, size_t n, Act act, WidenFn widen, NarrowFn narrow) {
  constexpr size_t kBlock = 512;
  alignas(64) float fa[kBlock], fb[kBlock], fy[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    const size_t m = std::min(kBlock, n - start);
    if (as) widen(a + start, fa, m); else widen(a, fa, 1);
    if (bs) widen(b + start, fb, m); else widen(b, fb, 1);
    row_any<kOp>(fa, as ? 1 : 0, fb, bs ? 1 : 0, fy, m, apply_f32<kOp>);
    activate(fy, m, act);
    narrow(fy, y + start, m);
  }
}

// One contiguous range [begin, end) of output elements, row by row.
struct Work {
  const BinaryCpuKernel* k;
  const void* a;
  const void* b;
  void* y;
  oprig_cpu_isa isa;
};

template <Op kOp>
__attribute__((always_inline)) inline void range_body(const Work& w, size_t begin, size_t end, WidenFn widen,
                                                      NarrowFn narrow) {
  const BroadcastPlan& p = w.k->plan;
  const size_t inner = p.inner();
  const int64_t as = p.a_step(), bs = p.b_step();
  while (begin < end) {
    const size_t r = begin / inner, i0 = begin % inner;
    const size_t n = std::min(inner - i0, end - begin);
    size_t ao, bo;
    p.row_offsets(r, &ao, &bo);
    ao += i0 * static_cast<size_t>(as);
    bo += i0 * static_cast<size_t>(bs);
    switch (w.k->dtype) {
      case OPRIG_DTYPE_FLOAT_32:
        row_any<kOp>(static_cast<const float*>(w.a) + ao, as, static_cast<const float*>(w.b) + bo, bs,
                     static_cast<float*>(w.y) + begin, n, apply_f32<kOp>);
        activate(static_cast<float*>(w.y) + begin, n, w.k->act);
        break;
      case OPRIG_DTYPE_INT_32:
        row_any<kOp>(static_cast<const int32_t*>(w.a) + ao, as, static_cast<const int32_t*>(w.b) + bo, bs,
                     static_cast<int32_t*>(w.y) + begin, n, apply_i32<kOp>);
        activate(static_cast<int32_t*>(w.y) + begin, n, w.k->act);
        break;
      default:
        row_f16<kOp>(static_cast<const uint16_t*>(w.a) + ao, as, static_cast<const uint16_t*>(w.b) + bo, bs,
                     static_cast<uint16_t*>(w.y) + begin, n, w.k->act, widen, narrow);
        break;
    }
    begin += n;
  }
}

template <Op kOp>
void range_scalar(const Work& w, size_t begin, size_t end) {
  range_body<kOp>(w, begin, end, widen_half_scalar, narrow_half_scalar);
}
#if defined(__x86_64__)
template <Op kOp>
__attribute__((target("avx2,fma,f16c"))) void range_avx2(const Work& w, size_t begin, size_t end) {
  range_body<kOp>(w, begin, end, widen_half_f16c, narrow_half_f16c);
}
template <Op kOp>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c,prefer-vector-width=512")))
void range_avx512(const Work& w, size_t begin, size_t end) {
  range_body<kOp>(w, begin, end, widen_half_f16c, narrow_half_f16c);
}
#endif

template <Op kOp>
void range_for_isa(const Work& w, size_t begin, size_t end) {
#if defined(__x86_64__)
  if (w.isa == OPRIG_CPU_ISA_AVX512) return range_avx512<kOp>(w, begin, end);
  if (w.isa == OPRIG_CPU_ISA_AVX2) return range_avx2<kOp>(w, begin, end);
#endif
  range_scalar<kOp>(w, begin, end);
}

void run_range(void* arg, size_t begin, size_t end) {
  const Work& w = *static_cast<const Work*>(arg);
  switch (w.k->op) {
    case Op::kAdd: return range_for_isa<Op::kAdd>(w, begin, end);
    case Op::kSub: return range_for_isa<Op::kSub>(w, begin, end);
    case Op::kMul: return range_for_isa<Op::kMul>(w, begin, end);
    case Op::kDiv: return range_for_isa<Op::kDiv>(w, begin, end);
    case Op::kMax: return range_for_isa<Op::kMax>(w, begin, end);
    case Op::kMin: return range_for_isa<Op::kMin>(w, begin, end);
    case Op::kPow: return range_for_isa<Op::kPow>(w, begin, end);
    case Op::kFloorDiv: return range_for_isa<Op::kFloorDiv>(w, begin, end);
  }
}

// ---- the ABI --------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  const std::optional<int> op =
      enum_param(params, num_params, "operation", {"ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "POW"});
  if (!op || *op < 0) return OPRIG_STATUS_INVALID_ARGUMENT;  // mandatory, and one of the seven
  const std::optional<int> act = enum_param(params, num_params, "fused_activation", {"NONE", "RELU", "RELU1", "RELU6"});
  if (act && *act < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<int> division = enum_param(params, num_params, "integer_division", {"TRUNCATE", "FLOOR"});
  if (division && *division < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = new (std::nothrow) BinaryCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_elementwise_binary__cpu;
  kernel->ctx = ctx;
  kernel->op = static_cast<Op>(*op);
  if (kernel->op == Op::kDiv && division.value_or(0) == 1) kernel->op = Op::kFloorDiv;
  kernel->act = static_cast<Act>(act.value_or(0));
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (num_inputs != 2 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const uint32_t dtype = inputs[0].dtype;
  if (dtype != OPRIG_DTYPE_FLOAT_32 && dtype != OPRIG_DTYPE_FLOAT_16 && dtype != OPRIG_DTYPE_INT_32)
    return OPRIG_STATUS_UNSUPPORTED;
  if (inputs[1].dtype != dtype || outputs[0].dtype != dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (inputs[0].scale != 0 || inputs[1].scale != 0 || outputs[0].scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  auto* kernel = from_handle<BinaryCpuKernel>(handle);
  if (!plan_broadcast(inputs[0], inputs[1], &kernel->plan)) return OPRIG_STATUS_INVALID_ARGUMENT;
  kernel->dtype = static_cast<oprig_dtype>(dtype);
  outputs[0].rank = kernel->plan.rank;
  std::copy(kernel->plan.out_dims, kernel->plan.out_dims + OPRIG_MAX_RANK, outputs[0].dims);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 2 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = from_handle<BinaryCpuKernel>(handle);
  if (kernel->plan.count == 0) return OPRIG_STATUS_OK;
  Work work{kernel, inputs[0].data, inputs[1].data, outputs[0].data, static_cast<oprig_cpu_isa>(kernel->ctx->cpu_isa)};
  // 64 Ki elements a chunk at least: below that a thread hand-off costs more than it saves.
  kernel->ctx->cpu_parallel_for(kernel->ctx->cpu_pool, kernel->plan.count, size_t{1} << 16, run_range, &work);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<BinaryCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const BinaryCpuKernel>(handle);
  const uint64_t width = k->dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  const uint64_t n = k->plan.count;
  out->flops = n;  // one operation per element (POW counted as one)
  // Each output element reads one element of each input (repeats come from cache).
  out->bytes_read = 2 * width * n;
  out->bytes_written = width * n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_elementwise_binary__cpu = {"ElementwiseBinary", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
