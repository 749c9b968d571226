#include "support.hpp"

#include <dlfcn.h>

#include <cmath>
#include <limits>

#include "core/half.hpp"

namespace oprig::vulkan::testing {

std::unique_ptr<Backend> make_backend(std::string* why, bool force_staging) {
  VulkanOptions options;
  options.force_staging = force_staging;
  return create_backend(options, why);
}

const oprig_implementation_v1* opsuite_vulkan(std::string* why) {
  static std::string load_error;
  static const oprig_implementation_v1* implementation = [] {
    void* library = dlopen(OPRIG_OPSUITE_VULKAN_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      load_error = dlerror();
      return static_cast<const oprig_implementation_v1*>(nullptr);
    }
    auto query = reinterpret_cast<oprig_implementation_query_fn>(
        dlsym(library, OPRIG_IMPLEMENTATION_QUERY_SYMBOL));
    if (query == nullptr) {
      load_error = "no " OPRIG_IMPLEMENTATION_QUERY_SYMBOL " in " OPRIG_OPSUITE_VULKAN_LIBRARY;
      return static_cast<const oprig_implementation_v1*>(nullptr);
    }
    const oprig_implementation_v1* found = query(OPRIG_BACKEND_VULKAN, OPRIG_ABI_VERSION);
    if (found == nullptr) load_error = "the library has no vulkan implementation";
    return found;
  }();
  if (implementation == nullptr && why != nullptr) *why = load_error;
  return implementation;
}

AtanRun run_atan(Backend& backend, oprig_dtype dtype, const std::vector<std::byte>& input,
                 size_t count, float offset) {
  AtanRun run;
  const oprig_implementation_v1* impl = opsuite_vulkan(nullptr);
  if (impl == nullptr) return run;
  const oprig_param param{"offset", OPRIG_DTYPE_FLOAT_32, 1, &offset};
  oprig_kernel* kernel = nullptr;
  run.status = impl->create(&backend.context(), "Atan", &param, 1, &kernel);
  if (run.status != OPRIG_STATUS_OK) return run;

  oprig_tensor in{};
  in.dtype = dtype;
  in.rank = 1;
  in.dims[0] = static_cast<int64_t>(count);
  oprig_tensor out{};
  out.dtype = dtype;
  run.status = impl->prepare(kernel, &in, 1, &out, 1);
  if (run.status == OPRIG_STATUS_OK && (out.rank != 1 || out.dims[0] != in.dims[0]))
    run.status = OPRIG_STATUS_INTERNAL;  // wrong shape inference
  if (run.status != OPRIG_STATUS_OK) {
    impl->destroy(kernel);
    return run;
  }
  impl->cost(kernel, &run.cost);

  auto src = backend.allocate(input.size());
  auto dst = backend.allocate(input.size());
  backend.write(*src, input);
  // Poison the output so an element the kernel never writes cannot pass.
  backend.write(*dst, std::vector<std::byte>(input.size(), std::byte{0x7f}));
  src->bind(in);
  dst->bind(out);
  ExecTiming timing;
  run.status = backend.execute(*impl, kernel, {&in, 1}, {&out, 1}, timing);
  run.compute_ns = timing.compute_ns;
  impl->destroy(kernel);
  if (run.status != OPRIG_STATUS_OK) return run;

  run.output.resize(input.size());
  backend.read(*dst, run.output);
  std::vector<std::byte> input_after(input.size());
  backend.read(*src, input_after);
  run.input_unchanged = input_after == input;
  run.guards_intact = src->guards_intact() && dst->guards_intact();
  return run;
}

double ulp_error_f32(float got, double expected) {
  if (std::isnan(expected)) return std::isnan(got) ? 0.0 : std::numeric_limits<double>::infinity();
  if (std::isnan(got)) return std::numeric_limits<double>::infinity();
  if (std::isinf(expected) || std::isinf(got))
    return static_cast<double>(got) == expected ? 0.0 : std::numeric_limits<double>::infinity();
  const double magnitude = std::fabs(expected);
  // ulp of fp32 at |expected|: 2^(e - 23) for |expected| in [2^e, 2^(e+1)),
  // with e clamped to -126 (the denormal spacing 2^-149 below that).
  int exponent = std::ilogb(magnitude);
  if (magnitude == 0.0 || exponent < -126) exponent = -126;
  const double ulp = std::ldexp(1.0, exponent - 23);
  return std::fabs(static_cast<double>(got) - expected) / ulp;
}

int half_steps(uint16_t a, uint16_t b) {
  auto ordered = [](uint16_t h) {
    const int magnitude = h & 0x7fff;
    return (h & 0x8000) ? -magnitude : magnitude;
  };
  return std::abs(ordered(a) - ordered(b));
}

uint16_t round_to_half(double x) {
  if (std::isnan(x)) return 0x7e00;
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double magnitude = std::fabs(x);
  if (magnitude >= 65520.0) return sign | 0x7c00;  // rounds to infinity (max half 65504)
  int exponent = magnitude == 0.0 ? -15 : std::ilogb(magnitude);
  if (exponent < -14) exponent = -14;  // subnormal: the spacing stays 2^-24
  // Spacing 2^(exponent-10); scaling by a power of two is exact in fp64, and
  // nearbyint rounds ties to even in the default rounding mode.
  const double mantissa = std::nearbyint(std::ldexp(magnitude, 10 - exponent));
  // mantissa in [0, 2048]; 2048 carries into the next binade, which the
  // encoding below handles because the fields are added, not or-ed.
  const int biased = exponent + 15;
  const int encoded = mantissa < 1024.0 ? static_cast<int>(mantissa)  // subnormal (exponent -14)
                                        : ((biased << 10) + static_cast<int>(mantissa) - 1024);
  return static_cast<uint16_t>(sign | encoded);
}

}  // namespace oprig::vulkan::testing
