// OUT/roofline.html of `oprig bench --calibration`: per backend, this
// machine's calibrated roofline (one ceiling per bandwidth working set, the
// FMA peak) with each benchmarked kernel on it, and a table of every row's
// GB/s, GFLOP/s and fraction of the roofline. Self-contained (inline SVG and
// CSS, no script), like report.html.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "perf/calibration.hpp"
#include "perf/roofline.hpp"

namespace oprig::harness {

struct RooflineRow {
  std::string id;       // the case id
  std::string backend;
  perf::RooflineResult roof;
};

std::string render_roofline_page(const std::map<std::string, perf::BackendPeaks>& peaks,
                                 const std::vector<RooflineRow>& rows);

}  // namespace oprig::harness
