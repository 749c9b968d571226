// A benchmark row against this machine's roofline (perf/calibration.hpp).
//
// The least time the roofline allows for one execute is
//     t_min = max(bytes / bandwidth(working set), flops / peak_flops)
// (the time form of min(peak, intensity x bandwidth), which also covers a
// kernel with no flops). fraction = t_min / t_measured; GB/s and GFLOP/s are
// the achieved rates. bandwidth(W) is the cache-aware ceiling: the highest
// copy/triad bandwidth calibrated at a working set of at least W / 4, i.e.
// the ladder point at W's size or one step (4x) below, so a row whose data
// fits a cache is held to that cache's bandwidth, not DRAM's.
//
// MISTRUSTED: a row is above the roofline when it finishes faster than the
// roofline built from the BEST repetition of each calibration figure allows,
// by more than `margin` (default 25 %: FACTS.md has absolute figures moving
// by +-30 % between runs on this shared machine, but the best of 9 moves
// much less). A kernel that caches its output across iterations or skips work
// shows up there; a bench rework marks such a timing MISTRUSTED, not a record.
#pragma once

#include <cstdint>
#include <string>

#include "perf/calibration.hpp"

namespace oprig::perf {

struct RooflineInput {
  double bytes = 0;    // moved per execute (read + written), from the package's cost function
  double flops = 0;    // per execute
  double seconds = 0;  // measured per execute
  double working_set_bytes = 0;  // distinct bytes touched; 0: use bytes
};

struct RooflineResult {
  double gbps = 0, gflops = 0;     // achieved
  double intensity = 0;            // flops per byte (0 without bytes)
  double bandwidth_gbps = 0;       // ceiling used for this working set (median); 0 unknown
  double peak_gflops = 0;          // median FMA peak; 0 unknown
  double limit_seconds = 0;        // t_min from the medians
  double limit_seconds_best = 0;   // t_min from the best repetitions
  double bound_gflops = 0, bound_gbps = 0;  // attainable rates: flops / t_min, bytes / t_min
  double fraction = 0;             // t_min / seconds (NaN when the roofline is unknown)
  bool memory_bound = true;        // which term of the max is larger
  bool above_roofline = false;     // seconds < limit_seconds_best / (1 + margin)
  bool simulated = false;          // the peaks are the dsp cost model's
};

RooflineResult evaluate_roofline(const BackendPeaks& peaks, const RooflineInput& row, double margin = 0.25);

// The bandwidth ceiling for a working set (median and best), 0 when unknown.
double bandwidth_ceiling_gbps(const BackendPeaks& peaks, double working_set_bytes, bool best);

}  // namespace oprig::perf
