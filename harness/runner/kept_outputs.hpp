// --keep-outputs: what a kernel computed, kept so a user can look at it.
// Each kept case is a folder OUT/kept/<case id>/ in the golden layout
// (golden/golden_files.hpp): manifest.json, the inputs in0.npy..., the
// expected outputs out0.npy..., plus the kernel's own outputs got0.npy...
// (listed under "kernel_outputs", which the golden reader leaves alone), so
// NumPy reads it and `oprig run --golden OUT/kept/<case id>` runs it again.
// Every worker of a run shares one size cap, tallied in OUT/kept/.kept_bytes
// under flock; a case past the cap is not kept and says so.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cases/case.hpp"
#include "cases/tensor_data.hpp"
#include "oprig/verdict.hpp"
#include "reports/results.hpp"
#include "runner/keep_policy.hpp"
#include "runner/oracle.hpp"

namespace oprig::harness {

struct OpContext;

// What one case's run had in hand when it ended (each part only once reached).
struct CaseArtifacts {
  std::vector<TensorData> inputs;
  std::vector<Expected> expected;           // empty until the oracle answered
  std::vector<std::vector<std::byte>> got;  // the kernel's outputs (first run); empty until it executed
};

// failed: every verdict someone must look at that a worker can still record
// (FAILED, QUALITY_WARNING, MISTRUSTED, INVALID_SPEC); all: also PASSED.
// Never SKIPPED or UNIMPLEMENTED (nothing ran), nor CRASH and TIMEOUT (the
// worker died: the repro line reproduces those).
bool keeps(KeepMode mode, Verdict verdict);

// Writes the case's folder and sets r.kept_dir, or r.kept_note when the case
// has no expected outputs (its oracle could not answer), the cap is reached,
// or the files cannot be written (a run never fails for it). A case that
// ended before the kernel executed keeps its inputs and expected outputs
// without got*.npy, and its manifest's "note" says why.
void keep_case(const KeepPolicy& policy, const Case& c, const CaseArtifacts& artifacts, reports::CaseResult& r);

// The end-of-run lines: how many cases were kept where, and how many the cap
// left out (with the option that raises it). Empty without --keep-outputs.
std::string kept_outputs_summary(const KeepPolicy& policy, const reports::RunResults& results);

}  // namespace oprig::harness
