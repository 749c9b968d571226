// A nightly trend as inline SVG (no script, no network): one point per night
// with the band between its fastest and slowest repetition, the fitted levels
// between change points, a marker at each change point, and optionally a
// straight trend line. Styling comes from the page's CSS (trend-* classes).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace oprig::reports {

struct TrendPoint {
  std::string label;    // under the x axis (a date); thinned out when crowded
  std::string tooltip;  // <title> of the point
  double value = 0;     // the median of the night
  double low = 0, high = 0;  // the band
};

struct TrendLevel {
  size_t begin = 0, end = 0;  // points [begin, end)
  double value = 0;
};

struct TrendMarker {
  size_t index = 0;       // drawn just before this point
  std::string text;       // e.g. "+5.1 %"
  std::string css_class;  // "trend-up" (slower) or "trend-down" (faster)
};

struct TrendChart {
  std::string title;
  std::vector<TrendPoint> points;
  std::vector<TrendLevel> levels;
  std::vector<TrendMarker> markers;
  std::optional<std::pair<double, double>> line;  // values at the first and last point
  std::function<std::string(double)> format_value;  // y-axis labels
};

// Returns an <svg> element; every text escaped. An empty chart says so.
std::string svg_trend_chart(const TrendChart& chart);

}  // namespace oprig::reports
