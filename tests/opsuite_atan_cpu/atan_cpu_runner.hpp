// Runs the cpu Atan kernel of the built liboprig_opsuite_cpu.so the way the
// harness does: dlopen, the exported implementation query, then create /
// prepare / execute / destroy on a Backend, with device buffers that carry
// guard bands. Also the ULP measures the tests judge the results with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "registry.hpp"
#include "oprig/oprig_package.h"

namespace oprig::testing {

// The cpu implementation of the package, loaded once per process (the
// library stays open). nullptr when loading failed; *why then says why.
const oprig_implementation_v1* cpu_atan_implementation(std::string* why);

// One execution's outcome. `step` names the ABI call that failed, if any.
struct AtanRun {
  oprig_status status = OPRIG_STATUS_OK;
  std::string step;
  bool guards_intact = true;
  bool ok() const { return status == OPRIG_STATUS_OK && guards_intact; }
};

// y = atan(x + offset) for a rank-1 tensor of x.size() elements, executed
// through Backend::execute. y is resized to x.size().
AtanRun run_atan_f32(Backend& backend, std::span<const float> x, float offset, std::vector<float>& y);
AtanRun run_atan_f16(Backend& backend, std::span<const uint16_t> x, float offset,
                     std::vector<uint16_t>& y);

// |got - expected| in units of the fp32 ulp of the exact value `expected`:
// ulp(e) = 2^(max(floor(log2|e|), -126) - 23). NaN vs NaN is 0; NaN vs a
// number (either way) is +Inf.
double ulp_error_f32(float got, double expected);

// The fp16 value nearest to `value` (round to nearest even), as bits.
// Only for |value| well below the fp16 overflow threshold.
uint16_t round_to_half(double value);

// Distance between two finite fp16 values counted in representable steps
// (±0 are the same step).
int half_steps_apart(uint16_t a, uint16_t b);

}  // namespace oprig::testing
