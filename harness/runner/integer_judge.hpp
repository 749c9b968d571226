// The integer reference beside the fp64 one (opsuite/common/integer_reference.hpp):
// for a quantised case of an op whose plan.json names an "integer_reference"
// rule, the kernel's output codes must equal the integer reference's exactly
// (0 LSB), and the integer reference must stay within 1 LSB of the fp64
// reference's codes (more is a reference bug: INVALID_SPEC, never the
// kernel's failure). Applies where the fp64 reference is the oracle, and
// where another backend is (--reference-backend cpu: the kernel is then held
// to the integer rule at 0 LSB besides the plan's tolerance against that
// backend; no fp64 cross-check).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cases/case.hpp"
#include "oprig/verdict.hpp"
#include "runner/oracle.hpp"

namespace oprig::harness {

struct OpContext;
struct TensorData;

struct IntegerJudgement {
  Verdict verdict = Verdict::kPassed;
  std::string message;  // empty when passed
};

// nullopt: the case has no integer oracle (no rule in the plan, no integer
// reference for the op, another oracle, or a type the rule does not cover).
// `fp64` are the oracle's outputs (codes), `got` the kernel's bytes.
std::optional<IntegerJudgement> judge_integer_reference(const Case& c, const OpContext& op,
                                                        const std::vector<TensorData>& inputs,
                                                        const std::vector<Expected>& fp64,
                                                        const std::vector<std::vector<std::byte>>& got);

// " + integer reference (0 LSB)" where the case has one by the plan, else "".
std::string integer_oracle_suffix(const Case& c, const OpContext& op);

}  // namespace oprig::harness
