// Shared by the vulkan backend tests: getting a backend (or skipping), the
// opsuite's vulkan implementation through the package ABI, running Atan once,
// and ULP distances written here, independent of the code under test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "vulkan/vulkan_backend.hpp"

namespace oprig::vulkan::testing {

// nullptr (with *why) when this machine has no Vulkan device.
std::unique_ptr<Backend> make_backend(std::string* why, bool force_staging = false);

// Skips the current test when there is no Vulkan device.
#define OPRIG_VULKAN_BACKEND_OR_SKIP(var, ...)                          \
  std::string var##_why;                                                \
  auto var = ::oprig::vulkan::testing::make_backend(&var##_why __VA_OPT__(, ) __VA_ARGS__); \
  if (!var) GTEST_SKIP() << "no Vulkan backend: " << var##_why

// liboprig_opsuite_vulkan.so's implementation, loaded once through dlopen and
// oprig_implementation_query; nullptr with *why on failure.
const oprig_implementation_v1* opsuite_vulkan(std::string* why);

struct AtanRun {
  oprig_status status = OPRIG_STATUS_INTERNAL;
  std::vector<std::byte> output;
  bool input_unchanged = false;
  bool guards_intact = false;
  oprig_cost cost{};
  double compute_ns = 0;
};

// Creates an Atan kernel with `offset`, prepares it for `count` elements of
// `dtype`, runs it once on `input` through backend.execute and reads back.
AtanRun run_atan(Backend& backend, oprig_dtype dtype, const std::vector<std::byte>& input,
                 size_t count, float offset);

// Distance of an fp32 result from an exact value in units of the fp32 ulp at
// that value (denormal spacing below 2^-126). NaN expected: 0 if got is NaN,
// else infinity; infinite values must match exactly.
double ulp_error_f32(float got, double expected);

// Steps between two fp16 values on the ordered line of finite halves
// (+0 and -0 are the same point).
int half_steps(uint16_t a, uint16_t b);

// The binary16 value nearest to x (ties to even mantissa), from fp64, written
// without going through fp32.
uint16_t round_to_half(double x);

template <typename T>
std::vector<std::byte> as_bytes(const std::vector<T>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

}  // namespace oprig::vulkan::testing
