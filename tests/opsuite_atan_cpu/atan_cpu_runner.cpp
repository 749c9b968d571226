#include "atan_cpu_runner.hpp"

#include <dlfcn.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/half.hpp"

namespace oprig::testing {
namespace {

struct LoadedImplementation {
  const oprig_implementation_v1* implementation = nullptr;
  std::string error;
};

LoadedImplementation load() {
  LoadedImplementation loaded;
  void* library = dlopen(OPRIG_OPSUITE_CPU_LIBRARY, RTLD_NOW | RTLD_LOCAL);  // kept open
  if (library == nullptr) {
    loaded.error = dlerror();
    return loaded;
  }
  auto query = reinterpret_cast<oprig_implementation_query_fn>(
      dlsym(library, OPRIG_IMPLEMENTATION_QUERY_SYMBOL));
  if (query == nullptr) {
    loaded.error = std::string(OPRIG_OPSUITE_CPU_LIBRARY) + " exports no " + OPRIG_IMPLEMENTATION_QUERY_SYMBOL;
    return loaded;
  }
  loaded.implementation = query(OPRIG_BACKEND_CPU, OPRIG_ABI_VERSION);
  if (loaded.implementation == nullptr) loaded.error = "the query returned no cpu implementation";
  return loaded;
}

AtanRun run_atan(Backend& backend, oprig_dtype dtype, const void* x, void* y, size_t count,
                 size_t element_bytes, float offset) {
  AtanRun run;
  std::string why;
  const oprig_implementation_v1* impl = cpu_atan_implementation(&why);
  if (impl == nullptr) {
    run.status = OPRIG_STATUS_INTERNAL;
    run.step = "load: " + why;
    return run;
  }
  const oprig_param param{"offset", OPRIG_DTYPE_FLOAT_32, 1, &offset};
  oprig_kernel* kernel = nullptr;
  run.status = impl->create(&backend.context(), "Atan", &param, 1, &kernel);
  if (run.status != OPRIG_STATUS_OK) {
    run.step = "create";
    return run;
  }
  oprig_tensor in{}, out{};
  in.dtype = out.dtype = dtype;
  in.rank = 1;
  in.dims[0] = static_cast<int64_t>(count);
  run.status = impl->prepare(kernel, &in, 1, &out, 1);
  if (run.status != OPRIG_STATUS_OK || out.rank != 1 || out.dims[0] != in.dims[0]) {
    run.step = "prepare";
    if (run.status == OPRIG_STATUS_OK) run.status = OPRIG_STATUS_INTERNAL;
    impl->destroy(kernel);
    return run;
  }
  const size_t bytes = count * element_bytes;
  auto src = backend.allocate(bytes);
  auto dst = backend.allocate(bytes);
  backend.write(*src, {static_cast<const std::byte*>(x), bytes});
  src->bind(in);
  dst->bind(out);
  ExecTiming timing;
  run.status = backend.execute(*impl, kernel, {&in, 1}, {&out, 1}, timing);
  if (run.status != OPRIG_STATUS_OK) run.step = "execute";
  backend.read(*dst, {static_cast<std::byte*>(y), bytes});
  run.guards_intact = src->guards_intact() && dst->guards_intact();
  impl->destroy(kernel);
  return run;
}

}  // namespace

const oprig_implementation_v1* cpu_atan_implementation(std::string* why) {
  static const LoadedImplementation loaded = load();
  if (loaded.implementation == nullptr && why != nullptr) *why = loaded.error;
  return loaded.implementation;
}

AtanRun run_atan_f32(Backend& backend, std::span<const float> x, float offset, std::vector<float>& y) {
  y.assign(x.size(), 0.0f);
  return run_atan(backend, OPRIG_DTYPE_FLOAT_32, x.data(), y.data(), x.size(), sizeof(float), offset);
}

AtanRun run_atan_f16(Backend& backend, std::span<const uint16_t> x, float offset,
                     std::vector<uint16_t>& y) {
  y.assign(x.size(), 0);
  return run_atan(backend, OPRIG_DTYPE_FLOAT_16, x.data(), y.data(), x.size(), sizeof(uint16_t), offset);
}

double ulp_error_f32(float got, double expected) {
  if (std::isnan(expected) || std::isnan(got))
    return std::isnan(expected) && std::isnan(got) ? 0.0 : std::numeric_limits<double>::infinity();
  const double magnitude = std::fabs(expected);
  // ilogb is floor(log2|e|) exactly; below the fp32 normal range the ulp is
  // the fixed denormal step 2^-149.
  const int exponent = magnitude == 0.0 ? -126 : std::max(std::ilogb(magnitude), -126);
  const double ulp = std::ldexp(1.0, exponent - 23);
  return std::fabs(static_cast<double>(got) - expected) / ulp;
}

uint16_t round_to_half(double value) {
  const double magnitude = std::fabs(value);
  // fp16 has 10 fraction bits; below 2^-14 the step is the denormal 2^-24.
  const int exponent = magnitude == 0.0 ? -14 : std::max(std::ilogb(magnitude), -14);
  const double step = std::ldexp(1.0, exponent - 10);
  const double rounded = std::nearbyint(value / step) * step;  // exact; ties to even
  // `rounded` is an fp16 value, so both conversions below are exact.
  const uint16_t bits = float_to_half(static_cast<float>(rounded));
  return std::signbit(value) ? static_cast<uint16_t>(bits | 0x8000u) : bits;
}

int half_steps_apart(uint16_t a, uint16_t b) {
  // Sign-magnitude to a monotone integer line on which ±0 coincide.
  const auto ordinal = [](uint16_t h) {
    const int magnitude = h & 0x7fff;
    return (h & 0x8000u) ? -magnitude : magnitude;
  };
  return std::abs(ordinal(a) - ordinal(b));
}

}  // namespace oprig::testing
