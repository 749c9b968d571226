// A roofline as inline SVG (no script, no network): log-log, arithmetic
// intensity (FLOP/byte) across, GFLOP/s up; one sloped line per bandwidth
// ceiling meeting the flat compute peak at its ridge point, and one dot per
// kernel. Styling from the page's CSS (roof-* classes).
#pragma once

#include <string>
#include <vector>

namespace oprig::reports {

struct RooflineCeiling {
  std::string label;      // e.g. "DRAM 43 GB/s", "16 MiB 95 GB/s"
  double gbps = 0;
};

struct RooflineDot {
  std::string label;      // the <title> of the dot
  double intensity = 0;   // FLOP per byte
  double gflops = 0;
  bool mistrusted = false;  // above the roofline: drawn in the MISTRUSTED colour
};

struct RooflineChart {
  std::string title;
  double peak_gflops = 0;
  std::vector<RooflineCeiling> ceilings;
  std::vector<RooflineDot> dots;
};

// Dots without a positive intensity and rate (a pure copy has no FLOPs) cannot
// sit on log axes; the chart says how many were left out.
std::string svg_roofline_chart(const RooflineChart& chart);

}  // namespace oprig::reports
