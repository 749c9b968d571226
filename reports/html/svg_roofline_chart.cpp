// Layout: axes span whole decades around the dots, the ridge points and the peak.
#include "reports/html/svg_roofline_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reports/text.hpp"

namespace oprig::reports {
namespace {

constexpr double kWidth = 760, kHeight = 360;
constexpr double kLeft = 70, kRight = 20, kTop = 44, kBottom = 48;

std::string px(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

std::string decade_label(double exponent) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", std::pow(10.0, exponent));
  return text;
}

}  // namespace

std::string svg_roofline_chart(const RooflineChart& chart) {
  std::vector<const RooflineDot*> drawn;
  for (const RooflineDot& d : chart.dots)
    if (d.intensity > 0 && d.gflops > 0 && std::isfinite(d.intensity) && std::isfinite(d.gflops)) drawn.push_back(&d);
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
  auto take = [&](double x, double y) {
    if (x > 0 && std::isfinite(x)) { x_lo = std::min(x_lo, x); x_hi = std::max(x_hi, x); }
    if (y > 0 && std::isfinite(y)) { y_lo = std::min(y_lo, y); y_hi = std::max(y_hi, y); }
  };
  for (const RooflineDot* d : drawn) take(d->intensity, d->gflops);
  if (chart.peak_gflops > 0) {
    take(0, chart.peak_gflops);
    for (const RooflineCeiling& c : chart.ceilings)
      if (c.gbps > 0) take(chart.peak_gflops / c.gbps, 0);
  }
  std::string svg = "<svg class=\"chart roofline\" role=\"img\" width=\"" + px(kWidth) + "\" height=\"" + px(kHeight) +
                    "\" viewBox=\"0 0 " + px(kWidth) + " " + px(kHeight) + "\" aria-label=\"" + html_escape(chart.title) +
                    "\">\n<text class=\"title\" x=\"8\" y=\"18\">" + html_escape(chart.title) + "</text>\n";
  if (!std::isfinite(x_lo) || !std::isfinite(y_lo)) return svg + "<text x=\"8\" y=\"50\">no roofline data</text>\n</svg>\n";
  // Whole decades, at least one wide, with room below the lowest dot.
  const double ex_lo = std::floor(std::log10(x_lo)) - 1, ex_hi = std::ceil(std::log10(x_hi)) + 1;
  const double ey_lo = std::floor(std::log10(y_lo)) - 1, ey_hi = std::ceil(std::log10(y_hi) + 0.05);
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto x_of = [&](double x) { return kLeft + plot_w * (std::log10(x) - ex_lo) / (ex_hi - ex_lo); };
  auto y_of = [&](double y) { return kTop + plot_h * (1 - (std::log10(y) - ey_lo) / (ey_hi - ey_lo)); };
  const double x_min = std::pow(10.0, ex_lo), x_max = std::pow(10.0, ex_hi);
  const double y_min = std::pow(10.0, ey_lo);

  svg += "<line class=\"axis\" x1=\"" + px(kLeft) + "\" y1=\"" + px(kTop) + "\" x2=\"" + px(kLeft) + "\" y2=\"" +
         px(kTop + plot_h) + "\"/>\n<line class=\"axis\" x1=\"" + px(kLeft) + "\" y1=\"" + px(kTop + plot_h) +
         "\" x2=\"" + px(kLeft + plot_w) + "\" y2=\"" + px(kTop + plot_h) + "\"/>\n";
  for (double e = ex_lo; e <= ex_hi; ++e)
    svg += "<text class=\"tick\" x=\"" + px(x_of(std::pow(10.0, e))) + "\" y=\"" + px(kTop + plot_h + 15) +
           "\" text-anchor=\"middle\">" + decade_label(e) + "</text>\n";
  for (double e = ey_lo; e <= ey_hi; ++e)
    svg += "<text class=\"tick\" x=\"" + px(kLeft - 6) + "\" y=\"" + px(y_of(std::pow(10.0, e)) + 4) +
           "\" text-anchor=\"end\">" + decade_label(e) + "</text>\n";
  svg += "<text class=\"tick\" x=\"" + px(kLeft + plot_w / 2) + "\" y=\"" + px(kHeight - 8) +
         "\" text-anchor=\"middle\">FLOP per byte</text>\n<text class=\"tick\" x=\"12\" y=\"" + px(kTop - 8) +
         "\">GFLOP/s</text>\n";

  if (chart.peak_gflops > 0) {
    for (const RooflineCeiling& c : chart.ceilings) {
      if (c.gbps <= 0) continue;
      // From where the slope enters the plot (y = y_min) to the ridge, then flat.
      const double x_start = std::max(x_min, y_min / c.gbps);
      const double ridge = chart.peak_gflops / c.gbps;
      svg += "<polyline class=\"roof-line\" points=\"" + px(x_of(x_start)) + "," + px(y_of(c.gbps * x_start)) + " " +
             px(x_of(ridge)) + "," + px(y_of(chart.peak_gflops)) + " " + px(x_of(x_max)) + "," +
             px(y_of(chart.peak_gflops)) + "\"><title>" + html_escape(c.label) + "</title></polyline>\n";
      svg += "<text class=\"tick\" x=\"" + px(x_of(x_start) + 4) + "\" y=\"" + px(y_of(c.gbps * x_start) - 4) + "\">" +
             html_escape(c.label) + "</text>\n";
    }
    svg += "<text class=\"tick\" x=\"" + px(kLeft + plot_w - 4) + "\" y=\"" + px(y_of(chart.peak_gflops) - 5) +
           "\" text-anchor=\"end\">peak " + html_escape(format_number(chart.peak_gflops, 4)) + " GFLOP/s</text>\n";
  }
  for (const RooflineDot* d : drawn)
    svg += "<circle class=\"roof-point" + std::string(d->mistrusted ? " mistrusted" : "") + "\" cx=\"" +
           px(x_of(d->intensity)) + "\" cy=\"" + px(y_of(d->gflops)) + "\" r=\"4\"><title>" + html_escape(d->label) +
           "</title></circle>\n";
  const size_t left_out = chart.dots.size() - drawn.size();
  if (left_out > 0)
    svg += "<text class=\"tick\" x=\"" + px(kLeft + 6) + "\" y=\"" + px(kTop + 12) + "\">" + std::to_string(left_out) +
           " rows without FLOPs not drawn</text>\n";
  return svg + "</svg>\n";
}

}  // namespace oprig::reports
