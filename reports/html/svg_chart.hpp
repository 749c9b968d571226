// A horizontal bar chart as inline SVG, generated here so report.html needs
// no script and no network. Styling comes from the page's CSS classes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace oprig::reports {

struct ChartBar {
  std::string group;      // bars sharing a group are drawn under one heading
  std::string label;      // left of the bar
  std::string css_class;  // fill, e.g. "bar-cpu"
  double value = 0;       // non-negative; the longest bar is the largest value
  std::string value_text; // right of the bar
};

// Returns an <svg> element (no xmlns needed inline in HTML5); all text escaped.
std::string svg_bar_chart(std::string_view title, const std::vector<ChartBar>& bars);

}  // namespace oprig::reports
