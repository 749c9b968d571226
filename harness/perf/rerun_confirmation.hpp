// A regression must survive a rerun before the gate fails:
// `oprig compare BASE NEW --confirm RERUN [--confirm RERUN2 ...]`.
//
// Why: on a shared machine the memory system and the cores go through spells
// of minutes in which some kernels run up to 2x slower (measured here: in one
// of 20 runs of an unchanged build LayerNorm was 1.98x, Pool2D 1.50x and
// Quantize 1.28x slower for the whole 2.5-minute run, every repetition).
// No test over the repetitions of two runs can tell such a spell from a
// regression: both are "every repetition of NEW slower". What tells them
// apart is time: a regression is in the build and comes back when the
// flagged benchmarks are timed again in a new process; a spell is gone, or
// weaker, minutes later. So a REGRESSED benchmark stands only when every
// rerun that re-timed it finds it REGRESSED against BASE too.
//
// The rerun's test is the same rule, its p-value multiplied by the number of
// benchmarks the first comparison tested (Bonferroni over that family: the
// rerun looks again at the same family, not at a family of the few flagged).
// A benchmark a rerun did not re-time, or re-timed with too few repetitions,
// keeps its verdict: a rerun that measured nothing clears nothing.
// `rerun_filter()` names the flagged benchmarks as a regex for
// `oprig bench --filter`, and scripts/perf/nightly_gate.sh runs the whole
// procedure (bench, compare, re-time the flagged ones, compare --confirm).
#pragma once

#include <span>
#include <string>

#include "perf/compare.hpp"
#include "perf/gbench_json.hpp"

namespace oprig::perf {

// Re-judges every REGRESSED row of `report` (made by compare_runs with
// `base`) against each rerun, and records what each rerun said in the row.
void confirm_regressions(CompareReport& report, const BenchmarkFile& base, std::span<const BenchmarkFile> reruns);

// An extended regex matching exactly the REGRESSED benchmarks' libbenchmark
// names (the part before the first '/', anchored, metacharacters escaped),
// for `oprig bench --filter`; empty when none regressed.
std::string rerun_filter(const CompareReport& report);

}  // namespace oprig::perf
