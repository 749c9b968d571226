#include "perf/roofline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace oprig::perf {

double bandwidth_ceiling_gbps(const BackendPeaks& peaks, double working_set_bytes, bool best) {
  double ceiling = 0;
  const BandwidthPoint* largest = nullptr;
  for (const BandwidthPoint& p : peaks.bandwidth) {
    if (!p.skipped.empty() || !(p.copy_gbps.measured() || p.triad_gbps.measured())) continue;
    if (largest == nullptr || p.working_set_bytes > largest->working_set_bytes) largest = &p;
    if (static_cast<double>(p.working_set_bytes) >= working_set_bytes / 4)
      ceiling = std::max(ceiling, best ? p.best_max() : p.best_median());
  }
  // Larger than every calibrated size: the largest (DRAM) point is the ceiling.
  if (ceiling == 0 && largest != nullptr) ceiling = best ? largest->best_max() : largest->best_median();
  return ceiling;
}

RooflineResult evaluate_roofline(const BackendPeaks& peaks, const RooflineInput& row, double margin) {
  RooflineResult r;
  r.simulated = peaks.simulated;
  if (row.seconds > 0) {
    r.gbps = row.bytes / row.seconds * 1e-9;
    r.gflops = row.flops / row.seconds * 1e-9;
  }
  r.intensity = row.bytes > 0 ? row.flops / row.bytes : 0;
  const double working_set = row.working_set_bytes > 0 ? row.working_set_bytes : row.bytes;
  r.bandwidth_gbps = bandwidth_ceiling_gbps(peaks, working_set, false);
  r.peak_gflops = peaks.fma_gflops.median;
  const double bw_best = bandwidth_ceiling_gbps(peaks, working_set, true);
  const double peak_best = peaks.fma_gflops.max;

  // Each term needs its ceiling; a row with bytes but no known bandwidth (or
  // flops but no known peak) has no roofline.
  const bool memory_known = row.bytes <= 0 || r.bandwidth_gbps > 0;
  const bool compute_known = row.flops <= 0 || r.peak_gflops > 0;
  if (!memory_known || !compute_known || (row.bytes <= 0 && row.flops <= 0)) {
    r.fraction = std::numeric_limits<double>::quiet_NaN();
    return r;
  }
  const double t_memory = row.bytes > 0 ? row.bytes / (r.bandwidth_gbps * 1e9) : 0;
  const double t_compute = row.flops > 0 ? row.flops / (r.peak_gflops * 1e9) : 0;
  r.limit_seconds = std::max(t_memory, t_compute);
  r.memory_bound = t_memory >= t_compute;
  const double t_memory_best = row.bytes > 0 ? row.bytes / (bw_best * 1e9) : 0;
  const double t_compute_best = row.flops > 0 ? row.flops / (peak_best * 1e9) : 0;
  r.limit_seconds_best = std::max(t_memory_best, t_compute_best);
  r.bound_gbps = row.bytes / r.limit_seconds * 1e-9;
  r.bound_gflops = row.flops / r.limit_seconds * 1e-9;
  r.fraction = row.seconds > 0 ? r.limit_seconds / row.seconds : std::numeric_limits<double>::infinity();
  r.above_roofline = row.seconds * (1 + margin) < r.limit_seconds_best;
  return r;
}

}  // namespace oprig::perf
