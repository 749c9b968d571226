// Runs one case on one backend through an op package, end to end: inputs from
// the seed, fp64 reference, kernel create/prepare/execute through the C ABI
// on real device memory, and every safety check of DESIGN.md §5:
//  - outputs are pre-poisoned, twice with different patterns: an element the
//    kernel does not write differs between the two runs and fails the case;
//  - the two runs must be bitwise identical where the backend claims
//    determinism (the same comparison);
//  - guard bands around every buffer must be intact (out-of-bounds writes);
//  - inputs read back from the device must be unchanged.
#pragma once

#include <map>
#include <string>

#include "backend.hpp"
#include "cases/case.hpp"
#include "common/reference.hpp"
#include "compare/tolerance.hpp"
#include "package/loader.hpp"
#include "reports/results.hpp"

namespace oprig::harness {

struct OpContext {
  const TestPlan* plan = nullptr;
  const OpCaseSpace* space = nullptr;
  const opsuite::ReferenceOp* reference = nullptr;
  std::map<oprig_dtype, compare::Tolerance> tolerances;
  size_t num_inputs = 1;
  size_t num_outputs = 1;
  std::string repro_prefix;  // "oprig run --spec opsuite/atan/atan.xml" (+ --package ...)
};

struct BackendContext {
  Backend* backend = nullptr;  // nullptr: unavailable, cases are SKIPPED
  std::string unavailable_reason;
  Package* package = nullptr;
  const oprig_implementation_v1* implementation = nullptr;  // nullptr: UNIMPLEMENTED
  std::string no_implementation_reason;
};

// Never throws for a kernel's misbehaviour: every outcome is a verdict.
reports::CaseResult execute_case(const Case& c, const OpContext& op, const BackendContext& be);

// The fp64 expected output of a case (quantised outputs as codes), with its shape.
struct Expected {
  std::vector<int64_t> shape;
  std::vector<double> values;
};
Expected reference_output(const Case& c, const OpContext& op,
                          const std::vector<struct TensorData>& inputs);

std::string repro_command(const Case& c, const OpContext& op);

// The result record of a case before it runs: ids, params, seed, repro line
// (when `op` is given). Verdict and message are the caller's.
reports::CaseResult case_record(const Case& c, const OpContext* op);

// The ABI description of a host tensor (data pointer left NULL).
oprig_tensor describe_tensor(const struct TensorData& t);

}  // namespace oprig::harness
