// `oprig bench`: each op × backend × dtype × bench shape of the plans runs
// under Google Benchmark; harness/README.md "oprig bench" states the rules.
//  - Time is REAL time on every backend: the device clock where the backend
//    has one (opencl profiling events, vulkan timestamps), host wall time
//    around execute on cpu and dsp. The dsp backend's simulated cycles are a
//    counter beside the host time, never the time (--min-time counted
//    simulated time before, so dsp benchmarks never ended).
//  - Warm-up until stable (bench/warmup.hpp), then at least 9 repetitions of
//    at least --min-time each; every repetition is kept in benchmark.json
//    (libbenchmark's per-repetition entries plus its aggregates). Each
//    repetition runs on newly allocated inputs and outputs: where memory
//    lands moves a memory-bound kernel's time by up to 20 % between
//    processes, and repetitions on one placement would understate that
//    spread to compare's test.
//  - Timings no kernel can fake: timed iterations alternate between two input
//    sets with different contents (where the op's outputs keep their shape);
//    after the timed loop the output is re-checked against the reference on
//    the timed inputs and on fresh ones; a throughput above the calibrated
//    roofline is a MISTRUSTED timing.
//  - Wall-clock caps per benchmark and for the whole bench; what was skipped
//    is said in the row, in the JSON (error_message) and on the console.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/roofline_page.hpp"
#include "bench/warmup.hpp"
#include "farm/shard.hpp"
#include "perf/calibration.hpp"
#include "reports/results.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {

struct BenchOptions {
  std::filesystem::path out_dir;
  int repetitions = 0;  // 0: the plan's; never fewer than kMinRepetitions
  double min_time_s = 0.2;
  std::string filter;   // --benchmark_filter
  double max_seconds = 270;                // the whole bench, correctness runs included
  double max_seconds_per_benchmark = 20;   // warm-up and timed repetitions of one benchmark
  // Repetitions of all benchmarks in one random order (libbenchmark's random
  // interleaving): every fixture stays set up until the end.
  bool interleave = false;
  // Time bench/machine_probe.hpp's two workloads before every repetition
  // (counters for `oprig compare --machine-controls`); about 10 ms a call.
  bool machine_controls = false;
  WarmupRule warmup;
  // This machine's calibrated peaks by backend name ("cpu", ...); a backend
  // without an entry gets no roofline check.
  std::map<std::string, perf::BackendPeaks> peaks;
  // --shard: time only this shard's benchmarks (harness/farm/shard_plan.hpp,
  // cut by expected seconds rather than by elements).
  std::optional<farm::ShardSpec> shard;
};

inline constexpr int kMinRepetitions = 9;

// Empty when the options are usable, else what is wrong (for exit 2):
// --min-time, --max-seconds and --max-seconds-per-benchmark must be finite
// and positive, --repetitions 0 or at least kMinRepetitions.
std::string check_bench_options(const BenchOptions& options);

struct BenchRun {
  std::vector<reports::CaseResult> cases;  // perf filled, with the correctness verdict of one run
  std::vector<RooflineRow> roofline;       // the timed rows of backends with calibrated peaks
  size_t timed = 0;                        // benchmarks with repetitions; 0: the bench tested nothing
  // With a base suite: its twins of `cases` (bench/base_side.hpp), and how
  // many of them were timed and kept in out_dir/base/benchmark.json.
  std::vector<reports::CaseResult> base_cases;
  size_t base_timed = 0;
  // Every benchmark of the selection (all shards'), in order, with its seed: run.json's selection.
  std::vector<std::pair<std::string, uint64_t>> selected;
  double shard_cost_share = 1;  // --shard: this shard's share of the expected time
};

// Writes Google Benchmark's JSON to out_dir/benchmark.json. With `base` (the
// same ops loaded from the baseline build's packages: `--base-package`),
// every benchmark gets a twin running the base package's kernel on the same
// case, timed in the same process and interleaved with it; the twins'
// entries go to out_dir/base/benchmark.json, so `oprig compare out/base out`
// judges two builds measured in one window of the machine's time.
BenchRun run_benchmarks(const Suite& suite, const Selection& selection, const BenchOptions& options,
                        const Suite* base = nullptr);

}  // namespace oprig::harness
