// Runs one case on one backend through an op package, end to end: inputs from
// the seed, expected outputs from the oracle, kernel create/prepare/execute
// through the C ABI on real device memory, and every safety check of
// DESIGN.md §5:
//  - outputs are pre-poisoned, twice with different patterns: an element the
//    kernel does not write differs between the two runs and fails the case;
//  - the two runs must be bitwise identical where the backend claims
//    determinism (the same comparison);
//  - guard bands around every buffer must be intact (out-of-bounds writes);
//  - inputs read back from the device must be unchanged;
//  - on an anchor case, the lifecycle passes (lifecycle_checks.hpp).
// Every output is compared on its own; the case's verdict is the worst.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "backend.hpp"
#include "cases/case.hpp"
#include "common/reference.hpp"
#include "compare/tolerance.hpp"
#include "package/loader.hpp"
#include "reports/results.hpp"
#include "runner/keep_policy.hpp"
#include "runner/oracle.hpp"
#include "runner/tolerance_table.hpp"

namespace oprig::harness {

struct TensorData;

struct OpContext {
  const TestPlan* plan = nullptr;
  const OpCaseSpace* space = nullptr;
  // oprig's bundled fp64 reference: set for the bundled package's ops, and
  // for another package's op only on request (--bundled-reference); nullptr otherwise.
  const opsuite::ReferenceOp* reference = nullptr;
  bool reference_requested = false;                            // set by --bundled-reference
  const oprig_reference_v1* package_reference = nullptr;       // the package's own; nullptr when it has none
  std::string package_name;                                    // the package implementing the op
  std::string reference_backend;                               // --reference-backend: judge other backends against it
  ToleranceTable tolerances;
  std::map<std::string, ToleranceTable> fill_tolerances;  // by fill name: a fill's own, tried first
  std::set<std::string> signed_zero_outputs;  // plan.json "signed_zero": outputs where -0 != +0
  std::string repro_prefix;  // "oprig run --spec opsuite/atan/atan.xml" (+ --package ...)
};

struct BackendContext {
  Backend* backend = nullptr;  // nullptr: unavailable, cases are SKIPPED
  std::string unavailable_reason;
  Package* package = nullptr;
  const oprig_implementation_v1* implementation = nullptr;  // nullptr: UNIMPLEMENTED, or INVALID_SPEC when claimed
  std::string no_implementation_reason;
  bool implementation_claimed = false;  // the registration claims this backend: a missing implementation is a defect
  bool strict = false;  // Selection::strict: a claimed kernel refusing a declared data type is FAILED
  // --reference-backend: that backend and the package's kernel on it.
  Backend* reference_backend = nullptr;
  const oprig_implementation_v1* reference_implementation = nullptr;
  std::string reference_unavailable;
  // --keep-outputs (nullptr: off): cases whose verdict it names keep their
  // inputs, expected and computed outputs (runner/kept_outputs.hpp).
  const KeepPolicy* keep = nullptr;
  // Told what runs next ("create()", "the package's reference: compute()", ...),
  // so a crash or hang is charged to the right party. May be empty.
  std::function<void(const char*)> phase;
};

// The tolerance for one output of a case: the case's fill's own table first,
// then the plan's; nullptr when neither has one.
const compare::Tolerance* find_tolerance(const OpContext& op, const std::string& fill, const std::string& output_name,
                                         oprig_dtype dtype);

// Never throws for a kernel's misbehaviour: every outcome is a verdict.
// `lifecycle_companions` non-null: this case is its group's anchor
// (lifecycle_plan.hpp) and, once it passes, also gets the lifecycle passes
// with these companions (cases of other input shapes).
reports::CaseResult execute_case(const Case& c, const OpContext& op, const BackendContext& be,
                                 const std::vector<const Case*>* lifecycle_companions = nullptr);

std::string repro_command(const Case& c, const OpContext& op);

// The result record of a case before it runs: ids, tensors, params, seed,
// repro line (when `op` is given). Verdict and message are the caller's.
reports::CaseResult case_record(const Case& c, const OpContext* op);

// The ABI description of a host tensor (data pointer left NULL). An absent
// optional input is dtype INVALID, rank 0.
oprig_tensor describe_tensor(const TensorData& t);

// prepare() left this output dimension to the input values (-1).
bool has_unknown_dim(const oprig_tensor& t);

// resolve_shapes() as the ABI asks: `in_desc` with each data pointer on the
// host copy of that input in `inputs` (NULL for an absent or empty one); the
// kernel writes the final dims into `out_desc`.
oprig_status resolve_shapes_on_host(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                                    std::vector<oprig_tensor> in_desc, const std::vector<TensorData>& inputs,
                                    std::vector<oprig_tensor>& out_desc);

}  // namespace oprig::harness
