// What `oprig compare` makes of the machine controls that `oprig bench`
// times beside every repetition (counters control_copy_ns and
// control_compute_ns: harness/bench/machine_probe.hpp says why).
//
// The controls are code that never changes, so a control that is REGRESSED
// between BASE and NEW by the regression rule (at alpha 0.05 or the gate's
// if larger, per benchmark, no family correction: being quick to see that
// the machine changed only costs alarms) says the machine was that much slower while this benchmark
// ran. A benchmark is then REGRESSED only when its own ratio exceeds the
// machine's by more than the minimum effect: ratio > shift x (1 + min_effect).
// The larger of the two controls' shifts counts (a memory-bound kernel
// follows the copy, a compute-bound one the chain; compare does not know
// which the kernel is, so it allows for the worse). IMPROVED symmetrically
// when the machine was faster. Files without the counters (any other Google
// Benchmark binary, older oprig) are compared as before.
#pragma once

#include <string>

#include "perf/gbench_json.hpp"
#include "perf/regression_rule.hpp"

namespace oprig::perf {

struct MachineShift {
  bool measured = false;  // both runs carry the controls with enough repetitions
  double slower = 1;      // >= 1: how much slower the machine was in NEW (1: not significantly)
  double faster = 1;      // <= 1: how much faster
  std::string control;    // the control that set `slower` or `faster`
};

MachineShift machine_shift(const BenchmarkSamples& base, const BenchmarkSamples& next, const RegressionRule& rule);

// Re-judges a REGRESSED or IMPROVED comparison against the machine's shift;
// one that the shift explains becomes SAME, with a note saying so.
void allow_for_machine(SampleComparison& c, const MachineShift& shift, const RegressionRule& rule);

}  // namespace oprig::perf
