// A bench row that is mostly launch cost says so. On a GPU a small kernel's
// device time can be a few microseconds while every execute costs the
// host tens (PoCL: about 40 us to launch and wait; lavapipe about 75 us):
// such a figure says how fast the driver launches, not how fast the kernel
// is (Meta's BackendBench found 14 % of its performance tests dominated by
// launch overhead). A row whose median is under kLaunchBoundFactor times
// the backend's calibrated launch-plus-readback overhead (`oprig calibrate`:
// a 64-byte Copy's host wall time through Backend::execute) is labelled
// launch-bound in results.json, benchmark.json and report.html.
#pragma once

#include <filesystem>
#include <set>
#include <string>

#include "perf/calibration.hpp"

namespace oprig::harness {

inline constexpr double kLaunchBoundFactor = 1.5;

// The calibrated launch-plus-readback overhead of a backend in ns, 0 when
// the calibration has not measured it (dsp: simulated; an old file).
double launch_overhead_ns(const perf::BackendPeaks& peaks);

// Whether a row with this median is launch-bound against that overhead
// (never when the overhead is unknown).
bool is_launch_bound(double median_ns, double overhead_ns);

// Adds "oprig_launch_bound": true to every entry of libbenchmark's JSON at
// `benchmark_json` (repetitions and aggregates) whose name belongs to one of
// `case_ids`; rewrites the file atomically. Throws std::runtime_error when it
// cannot be read.
void mark_launch_bound(const std::filesystem::path& benchmark_json, const std::set<std::string>& case_ids);

}  // namespace oprig::harness
