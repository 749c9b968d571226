// Layout of the trend chart: y axis from the lowest band value to the highest
// (padded 5 %), points evenly spaced by night, at most ~12 x labels.
#include "reports/html/svg_trend_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reports/text.hpp"

namespace oprig::reports {
namespace {

constexpr double kWidth = 760;
constexpr double kHeight = 240;
constexpr double kLeft = 78, kRight = 16, kTop = 30, kBottom = 44;
constexpr size_t kMaxLabels = 12;

std::string px(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

}  // namespace

std::string svg_trend_chart(const TrendChart& chart) {
  const std::string open = "<svg class=\"chart trend\" role=\"img\" width=\"" + px(kWidth) + "\" height=\"" +
                           px(kHeight) + "\" viewBox=\"0 0 " + px(kWidth) + " " + px(kHeight) +
                           "\" aria-label=\"" + html_escape(chart.title) + "\">\n<text class=\"title\" x=\"8\" y=\"18\">" +
                           html_escape(chart.title) + "</text>\n";
  if (chart.points.empty()) return open + "<text x=\"8\" y=\"50\">no data</text>\n</svg>\n";

  double lo = INFINITY, hi = -INFINITY;
  for (const TrendPoint& p : chart.points) {
    for (double v : {p.low, p.high, p.value})
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  }
  if (chart.line)
    for (double v : {chart.line->first, chart.line->second})
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  if (!std::isfinite(lo)) lo = hi = 0;
  const double pad = (hi - lo) > 0 ? 0.05 * (hi - lo) : std::max(1e-9, 0.05 * std::fabs(hi));
  lo -= pad;
  hi += pad;
  const size_t n = chart.points.size();
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto x_of = [&](double i) { return kLeft + (n == 1 ? plot_w / 2 : plot_w * i / static_cast<double>(n - 1)); };
  auto y_of = [&](double v) { return kTop + plot_h * (1 - (v - lo) / (hi - lo)); };
  auto format = [&](double v) { return chart.format_value ? chart.format_value(v) : format_number(v, 4); };

  std::string svg = open;
  // Axes and y labels (min, middle, max).
  svg += "<line class=\"axis\" x1=\"" + px(kLeft) + "\" y1=\"" + px(kTop) + "\" x2=\"" + px(kLeft) + "\" y2=\"" +
         px(kTop + plot_h) + "\"/>\n";
  svg += "<line class=\"axis\" x1=\"" + px(kLeft) + "\" y1=\"" + px(kTop + plot_h) + "\" x2=\"" + px(kLeft + plot_w) +
         "\" y2=\"" + px(kTop + plot_h) + "\"/>\n";
  for (double f : {0.0, 0.5, 1.0}) {
    const double v = lo + f * (hi - lo);
    svg += "<text class=\"tick\" x=\"" + px(kLeft - 6) + "\" y=\"" + px(y_of(v) + 4) + "\" text-anchor=\"end\">" +
           html_escape(format(v)) + "</text>\n";
  }
  // Band.
  std::string band;
  for (size_t i = 0; i < n; ++i) band += px(x_of(static_cast<double>(i))) + "," + px(y_of(chart.points[i].high)) + " ";
  for (size_t i = n; i-- > 0;) band += px(x_of(static_cast<double>(i))) + "," + px(y_of(chart.points[i].low)) + " ";
  svg += "<polygon class=\"trend-band\" points=\"" + band + "\"/>\n";
  // Fitted levels and the trend line.
  for (const TrendLevel& level : chart.levels) {
    if (level.begin >= level.end || level.end > n) continue;
    const double x1 = x_of(static_cast<double>(level.begin) - (level.begin ? 0.5 : 0.0));
    const double x2 = x_of(static_cast<double>(level.end - 1) + (level.end < n ? 0.5 : 0.0));
    svg += "<line class=\"trend-level\" x1=\"" + px(x1) + "\" y1=\"" + px(y_of(level.value)) + "\" x2=\"" + px(x2) +
           "\" y2=\"" + px(y_of(level.value)) + "\"/>\n";
  }
  if (chart.line)
    svg += "<line class=\"trend-drift\" x1=\"" + px(x_of(0)) + "\" y1=\"" + px(y_of(chart.line->first)) + "\" x2=\"" +
           px(x_of(static_cast<double>(n - 1))) + "\" y2=\"" + px(y_of(chart.line->second)) + "\"/>\n";
  // Change-point markers.
  for (const TrendMarker& m : chart.markers) {
    if (m.index == 0 || m.index >= n) continue;
    const double x = x_of(static_cast<double>(m.index) - 0.5);
    svg += "<line class=\"trend-marker " + html_escape(m.css_class) + "\" x1=\"" + px(x) + "\" y1=\"" + px(kTop) +
           "\" x2=\"" + px(x) + "\" y2=\"" + px(kTop + plot_h) + "\"/>\n";
    svg += "<text class=\"trend-marker-text " + html_escape(m.css_class) + "\" x=\"" + px(x + 3) + "\" y=\"" +
           px(kTop + 11) + "\">" + html_escape(m.text) + "</text>\n";
  }
  // Medians.
  std::string line;
  for (size_t i = 0; i < n; ++i)
    line += px(x_of(static_cast<double>(i))) + "," + px(y_of(chart.points[i].value)) + " ";
  svg += "<polyline class=\"trend-line\" points=\"" + line + "\"/>\n";
  for (size_t i = 0; i < n; ++i)
    svg += "<circle class=\"trend-point\" cx=\"" + px(x_of(static_cast<double>(i))) + "\" cy=\"" +
           px(y_of(chart.points[i].value)) + "\" r=\"3\"><title>" + html_escape(chart.points[i].tooltip) +
           "</title></circle>\n";
  // x labels, thinned.
  const size_t step = (n + kMaxLabels - 1) / kMaxLabels;
  for (size_t i = 0; i < n; i += step)
    svg += "<text class=\"tick\" x=\"" + px(x_of(static_cast<double>(i))) + "\" y=\"" + px(kTop + plot_h + 16) +
           "\" text-anchor=\"middle\">" + html_escape(chart.points[i].label) + "</text>\n";
  svg += "</svg>\n";
  return svg;
}

}  // namespace oprig::reports
