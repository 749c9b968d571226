// A vendor-style package of three complex ops, Softmax, TopK and Conv2D
// (acme_conv.cpp), in its own
// namespace (com.acme.trial) with its own fp64 reference: the trial of
// issue 18. oprig judges it from its spec alone (acme.xml, no plan.json),
// and each realistic bug of a vendor's kernel is planted one at a time:
// $ACME_BUG names it (none: the correct kernel). $ACME_VARIANT picks a
// correct kernel that differs where the spec allows (reverse: other
// summation order and, for sorted = false, another order of the winners;
// nan_payload: NaNs of another payload and sign). The ops share the bundled
// opsuite's names on purpose: the package's reference must judge them.
// scripts/trial/vendor_trial.sh runs the trial.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "acme_conv.hpp"
#include "acme_support.hpp"

namespace {

using namespace acme;

// A slice geometry: outer x size x inner, the axis in the middle.
struct Slices {
  size_t outer = 1, size = 1, inner = 1;
  int axis = 0;
};
// nullopt-like: false when axis is out of range or the rank is 0.
bool slices_of(const oprig_tensor& t, int64_t axis, Slices& s) {
  s = Slices{};
  const int64_t rank = t.rank;
  if (rank < 1 || axis < -rank || axis >= rank) return false;
  s.axis = static_cast<int>(axis < 0 ? axis + rank : axis);
  for (int d = 0; d < rank; ++d) {
    const size_t n = static_cast<size_t>(t.dims[d]);
    if (d < s.axis) s.outer *= n;
    else if (d == s.axis) s.size = n;
    else s.inner *= n;
  }
  return true;
}

// ---- Softmax ---------------------------------------------------------------

// The reference: the spec's definition in fp64. A slice holding NaN or +inf,
// or only -inf, is NaN throughout.
void softmax_ref(const double* x, double* y, const Slices& s, double beta) {
  for (size_t o = 0; o < s.outer; ++o)
    for (size_t i = 0; i < s.inner; ++i) {
      auto at = [&](size_t j) { return (o * s.size + j) * s.inner + i; };
      double m = -std::numeric_limits<double>::infinity();
      bool poisoned = false;
      for (size_t j = 0; j < s.size; ++j) {
        const double v = x[at(j)];
        poisoned |= std::isnan(v) || v == std::numeric_limits<double>::infinity();
        m = std::max(m, v);
      }
      poisoned |= std::isinf(m) && m < 0;
      double sum = 0;
      for (size_t j = 0; j < s.size; ++j) sum += poisoned ? 0 : std::exp(beta * (x[at(j)] - m));
      for (size_t j = 0; j < s.size; ++j)
        y[at(j)] = poisoned ? std::numeric_limits<double>::quiet_NaN() : std::exp(beta * (x[at(j)] - m)) / sum;
    }
}

void softmax_kernel(const oprig_tensor& in, const oprig_tensor& out, Slices s, double beta_d) {
  const float beta = bug("beta_ignored") ? 1.0f : static_cast<float>(beta_d);
  const float nan = variant("nan_payload") ? -std::numeric_limits<float>::quiet_NaN()
                                           : std::numeric_limits<float>::quiet_NaN();
  // A "threaded" path over outer slices above 2^18 elements whose chunking drops the remainder.
  size_t outer = s.outer;
  if (bug("threaded_remainder") && s.outer * s.size * s.inner >= (size_t{1} << 18) && s.outer > 4)
    outer = (s.outer / 4) * 4 - (s.outer % 4 == 0 ? 1 : 0);
  std::vector<float> e(s.size);
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < s.inner; ++i) {
      auto at = [&](size_t j) { return (o * s.size + j) * s.inner + i; };
      float m = bug("max_from_zero") ? 0.0f : -std::numeric_limits<float>::infinity();
      bool poisoned = false;
      for (size_t j = 0; j < s.size; ++j) {
        const float v = load(in, at(j));
        poisoned |= std::isnan(v) || v == std::numeric_limits<float>::infinity();
        if (v > m) m = v;
      }
      if (!bug("max_from_zero")) poisoned |= std::isinf(m) && m < 0;
      if (bug("no_max_subtract")) m = 0;
      if (poisoned) {
        for (size_t j = 0; j < s.size; ++j) store(out, at(j), nan);
        continue;
      }
      size_t terms = s.size;
      if (bug("long_reduction_truncated")) terms = std::min<size_t>(terms, 1024);
      float sum = 0;
      for (size_t j = 0; j < s.size; ++j) {
        float arg = beta * (load(in, at(j)) - m);
        // An exponent clamped to keep exp() out of denormals: a masked (-inf) position is no longer 0.
        if (bug("exp_arg_clamped")) arg = std::max(arg, -87.0f);
        e[j] = std::exp(arg);
      }
      if (variant("reverse")) {
        for (size_t j = terms; j-- > 0;) sum += e[j];
      } else if (bug("fp16_accumulator")) {
        for (size_t j = 0; j < terms; ++j) sum = round_half(sum + e[j]);
      } else {
        for (size_t j = 0; j < terms; ++j) sum += e[j];
      }
      // A vector loop of 8 whose scalar tail forgets the division.
      const size_t vector_end = bug("tail_unnormalised") ? s.size / 8 * 8 : s.size;
      for (size_t j = 0; j < s.size; ++j) store(out, at(j), j < vector_end ? e[j] / sum : e[j]);
    }
}

// ---- TopK ------------------------------------------------------------------

// The spec's Default of k: a parameter the host does not pass takes it.
constexpr int64_t kDefaultK = 6;

// The order of the winners: NaN above every number, ties by the lower index.
template <typename T>
bool before(T a, size_t ia, T b, size_t ib, bool largest) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) {
    if (na && nb) return ia < ib;
    return largest ? na : nb;  // NaN is the largest value
  }
  if (a != b) return largest ? a > b : a < b;
  return ia < ib;
}

template <typename T, typename Load, typename Put>
void topk_slices(const Slices& s, size_t k, bool largest, bool sorted, Load load_at, Put put, bool is_kernel) {
  std::vector<size_t> order(s.size);
  for (size_t o = 0; o < s.outer; ++o)
    for (size_t i = 0; i < s.inner; ++i) {
      auto at = [&](size_t j) { return (o * s.size + j) * s.inner + i; };
      auto out_at = [&](size_t j) { return (o * k + j) * s.inner + i; };
      size_t n = s.size;
      if (is_kernel && bug("tail_ignored") && n > 8) n = n / 8 * 8;  // a vector scan without its tail
      order.resize(n);
      for (size_t j = 0; j < n; ++j) order[j] = j;
      bool want_largest = largest;
      if (is_kernel && bug("largest_ignored")) want_largest = true;
      auto cmp = [&](size_t a, size_t b) {
        if (is_kernel && bug("nan_unordered")) {  // a plain comparison: NaN is neither above nor below
          const T va = load_at(at(a)), vb = load_at(at(b));
          if (va != vb) return want_largest ? va > vb : va < vb;
          return a < b;
        }
        if (is_kernel && bug("unstable_ties")) return before<T>(load_at(at(a)), b, load_at(at(b)), a, want_largest);
        return before<T>(load_at(at(a)), a, load_at(at(b)), b, want_largest);
      };
      std::stable_sort(order.begin(), order.end(), cmp);
      size_t kk = std::min(k, n);
      if (is_kernel && bug("k_capped_256")) kk = std::min<size_t>(kk, 256);
      for (size_t j = 0; j < k; ++j) {
        size_t src = j;
        if (is_kernel && !sorted && variant("reverse")) src = kk - 1 - j;  // any order is allowed
        if (src >= kk) {
          put(out_at(j), T(0), 0);
          continue;
        }
        put(out_at(j), load_at(at(order[src])), order[src]);
      }
    }
}

oprig_status topk_shapes(const oprig_param* params, size_t np, const oprig_tensor* in, oprig_tensor* out) {
  const int64_t k = int_param(params, np, "k", kDefaultK);
  Slices s;
  if (!slices_of(in[0], int_param(params, np, "axis", -1), s)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k < 1 || static_cast<size_t>(k) > s.size) return OPRIG_STATUS_INVALID_ARGUMENT;
  for (int o = 0; o < 2; ++o) {
    out[o].rank = in[0].rank;
    for (uint32_t d = 0; d < in[0].rank; ++d) out[o].dims[d] = in[0].dims[d];
    out[o].dims[s.axis] = k;
  }
  return OPRIG_STATUS_OK;
}

oprig_status softmax_shapes(const oprig_param* params, size_t np, const oprig_tensor* in, oprig_tensor* out) {
  Slices s;
  if (!slices_of(in[0], int_param(params, np, "axis", -1), s)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const double beta = float_param(params, np, "beta", 1.0);
  if (!(beta > 0) || !std::isfinite(beta)) return OPRIG_STATUS_INVALID_ARGUMENT;
  out[0].rank = in[0].rank;
  for (uint32_t d = 0; d < in[0].rank; ++d) out[0].dims[d] = in[0].dims[d];
  return OPRIG_STATUS_OK;
}

// ---- the reference ---------------------------------------------------------

oprig_status ref_shapes(const char* op, const oprig_param* params, size_t np, const oprig_tensor* in, size_t ni,
                        oprig_tensor* out, size_t no) {
  if (ni < 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (std::strcmp(op, "Softmax") == 0 && no == 1) return softmax_shapes(params, np, in, out);
  if (std::strcmp(op, "TopK") == 0 && no == 2) return topk_shapes(params, np, in, out);
  if (std::strcmp(op, "Conv2D") == 0) {
    ConvGeometry g;
    if (!conv_params(params, np, g)) return OPRIG_STATUS_INVALID_ARGUMENT;
    return conv_shapes(g, in, ni, out, no, false);
  }
  return OPRIG_STATUS_UNSUPPORTED;
}

oprig_status ref_compute(const char* op, const oprig_param* params, size_t np, const oprig_tensor* in, size_t ni,
                         const oprig_tensor* out, size_t no) {
  if (std::strcmp(op, "Conv2D") == 0) {
    ConvGeometry g;
    oprig_tensor shape = out[0];
    if (!conv_params(params, np, g)) return OPRIG_STATUS_INVALID_ARGUMENT;
    const oprig_status st = conv_shapes(g, in, ni, &shape, no, false);
    if (st != OPRIG_STATUS_OK) return st;
    conv_reference(g, static_cast<const double*>(in[0].data), static_cast<const double*>(in[1].data),
                   g.has_bias ? static_cast<const double*>(in[2].data) : nullptr, static_cast<double*>(out[0].data));
    return OPRIG_STATUS_OK;
  }
  Slices s;
  if (!slices_of(in[0], int_param(params, np, "axis", -1), s)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* x = static_cast<const double*>(in[0].data);
  if (std::strcmp(op, "Softmax") == 0) {
    softmax_ref(x, static_cast<double*>(out[0].data), s, float_param(params, np, "beta", 1.0));
    return OPRIG_STATUS_OK;
  }
  const size_t k = static_cast<size_t>(int_param(params, np, "k", kDefaultK));
  auto* values = static_cast<double*>(out[0].data);
  auto* indices = static_cast<double*>(out[1].data);
  topk_slices<double>(
      s, k, bool_param(params, np, "largest", true), bool_param(params, np, "sorted", true),
      [&](size_t i) { return x[i]; },
      [&](size_t i, double v, size_t idx) {
        values[i] = v;
        indices[i] = static_cast<double>(idx);
      },
      false);
  return OPRIG_STATUS_OK;
}

// ---- the cpu kernels -------------------------------------------------------

struct Kernel {
  bool topk = false, conv = false;
  ConvGeometry geometry;
  int64_t axis = -1, k = 1;
  bool largest = true, sorted = true;
  double beta = 1.0;
  Slices slices;
};

oprig_status create(const oprig_backend_context*, const char* op, const oprig_param* params, size_t np,
                    oprig_kernel** out) {
  auto* kernel = new Kernel;
  kernel->topk = std::strcmp(op, "TopK") == 0;
  kernel->conv = std::strcmp(op, "Conv2D") == 0;
  if (!kernel->topk && !kernel->conv && std::strcmp(op, "Softmax") != 0) {
    delete kernel;
    return OPRIG_STATUS_UNSUPPORTED;
  }
  if (kernel->conv && !conv_params(params, np, kernel->geometry)) {
    delete kernel;
    return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  kernel->axis = int_param(params, np, "axis", -1);
  // A negative axis counted from the front, as a port from a framework without them does.
  if (bug("negative_axis_from_front") && kernel->axis < -1) kernel->axis = -kernel->axis - 1;
  if (bug("axis_ignored")) kernel->axis = -1;
  kernel->k = int_param(params, np, "k", kDefaultK);
  kernel->largest = bool_param(params, np, "largest", true);
  kernel->sorted = bool_param(params, np, "sorted", true);
  kernel->beta = float_param(params, np, "beta", 1.0);
  *out = reinterpret_cast<oprig_kernel*>(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* in, size_t ni, oprig_tensor* out, size_t no) {
  auto* kernel = reinterpret_cast<Kernel*>(handle);
  if (ni < 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (kernel->conv) return conv_shapes(kernel->geometry, in, ni, out, no, true);
  oprig_param p[2] = {};
  const int32_t axis = static_cast<int32_t>(kernel->axis), k = static_cast<int32_t>(kernel->k);
  p[0] = {"axis", OPRIG_DTYPE_INT_32, 1, &axis};
  p[1] = {"k", OPRIG_DTYPE_INT_32, 1, &k};
  const oprig_status st = kernel->topk ? (no == 2 ? topk_shapes(p, 2, in, out) : OPRIG_STATUS_INVALID_ARGUMENT)
                                       : (no == 1 ? softmax_shapes(p, 1, in, out) : OPRIG_STATUS_INVALID_ARGUMENT);
  if (st != OPRIG_STATUS_OK) return st;
  slices_of(in[0], kernel->axis, kernel->slices);
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* in, size_t, const oprig_tensor* out, size_t,
                     oprig_execute_info*) {
  auto* kernel = reinterpret_cast<Kernel*>(handle);
  const Slices& s = kernel->slices;
  if (kernel->conv) {
    conv_kernel(kernel->geometry, in, out[0]);
    return OPRIG_STATUS_OK;
  }
  if (!kernel->topk) {
    softmax_kernel(in[0], out[0], s, kernel->beta);
    return OPRIG_STATUS_OK;
  }
  auto* indices = static_cast<int32_t*>(out[1].data);
  const int32_t base = bug("one_based_indices") ? 1 : 0;
  topk_slices<float>(
      s, static_cast<size_t>(kernel->k), kernel->largest, kernel->sorted, [&](size_t i) { return load(in[0], i); },
      [&](size_t i, float v, size_t idx) {
        // A value read back through an arithmetic path loses the sign of zero.
        store(out[0], i, bug("zero_sign_lost") ? v + 0.0f : v);
        indices[i] = static_cast<int32_t>(idx) + base;
      },
      true);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete reinterpret_cast<Kernel*>(handle); }

const oprig_implementation_v1 kImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_CPU, create, prepare, execute, destroy,
    nullptr, nullptr, {}};

constexpr const char* const kSoftmaxParams[] = {"axis", "beta", nullptr};
constexpr const char* const kTopKParams[] = {"k", "axis", "largest", "sorted", nullptr};
constexpr const char* const kConvParams[] = {"stride", "pad_amount", "dilation", "group", "activation", nullptr};
const oprig_op_registration_v1 kOps[] = {
    {"Softmax", OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU), 1, 1, kSoftmaxParams, {}},
    {"TopK", OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU), 1, 2, kTopKParams, {}},
    {"Conv2D", OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU), 3, 1, kConvParams, {}}};
const oprig_implementation_location_v1 kImplementations[] = {{OPRIG_BACKEND_CPU, nullptr}};
const oprig_reference_v1 kReference = {sizeof(oprig_reference_v1), OPRIG_REFERENCE_FLOAT_64, ref_shapes, ref_compute,
                                       {}};
const oprig_package_v1 kPackage = {OPRIG_ABI_VERSION,
                                   sizeof(oprig_package_v1),
                                   "com.acme.trial",
                                   "1.0.0",
                                   "A vendor-style package with planted bugs (issue 18's trial)",
                                   0,
                                   sizeof(kOps) / sizeof(kOps[0]),
                                   kOps,
                                   sizeof(kImplementations) / sizeof(kImplementations[0]),
                                   kImplementations,
                                   nullptr,
                                   &kReference,
                                   nullptr,
                                   {}};

}  // namespace

extern "C" OPRIG_EXPORT const oprig_package_v1* oprig_package_query(uint32_t) { return &kPackage; }

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                  uint32_t max_version) {
  if (max_version < OPRIG_ABI_VERSION || backend_kind != OPRIG_BACKEND_CPU) return nullptr;
  return &kImplementation;
}
