// Layout of the inline SVG bar chart: a label column, bars scaled to the
// largest value, the value printed after each bar.
#include "reports/html/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reports/text.hpp"

namespace oprig::reports {
namespace {

constexpr int kWidth = 760;
constexpr int kLabelWidth = 230;
constexpr int kValueWidth = 150;
constexpr int kBarArea = kWidth - kLabelWidth - kValueWidth - 20;
constexpr int kRowHeight = 22;
constexpr int kBarHeight = 14;
constexpr int kTitleHeight = 30;

std::string px(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

}  // namespace

std::string svg_bar_chart(std::string_view title, const std::vector<ChartBar>& bars) {
  double max_value = 0;
  for (const ChartBar& b : bars)
    if (std::isfinite(b.value)) max_value = std::max(max_value, b.value);

  std::string body;
  double y = kTitleHeight;
  const std::string* current_group = nullptr;
  for (const ChartBar& b : bars) {
    if (!current_group || *current_group != b.group) {
      current_group = &b.group;
      y += 6;
      body += "<text class=\"group\" x=\"8\" y=\"" + px(y + 12) + "\">" + html_escape(b.group) + "</text>\n";
      y += kRowHeight;
    }
    const double value = std::isfinite(b.value) && b.value > 0 ? b.value : 0;
    const double length = max_value > 0 ? std::max(1.0, kBarArea * value / max_value) : 1.0;
    const double bar_y = y + (kRowHeight - kBarHeight) / 2.0;
    body += "<text x=\"" + px(kLabelWidth - 8) + "\" y=\"" + px(y + 15) + "\" text-anchor=\"end\">" +
            html_escape(b.label) + "</text>\n";
    body += "<rect class=\"" + html_escape(b.css_class) + "\" x=\"" + px(kLabelWidth) + "\" y=\"" +
            px(bar_y) + "\" width=\"" + px(length) + "\" height=\"" + px(kBarHeight) +
            "\" rx=\"2\"><title>" + html_escape(b.label + ": " + b.value_text) + "</title></rect>\n";
    body += "<text x=\"" + px(kLabelWidth + length + 6) + "\" y=\"" + px(y + 15) + "\">" +
            html_escape(b.value_text) + "</text>\n";
    y += kRowHeight;
  }
  const double height = y + 12;

  std::string svg = "<svg class=\"chart\" role=\"img\" width=\"" + std::to_string(kWidth) +
                    "\" height=\"" + px(height) + "\" viewBox=\"0 0 " + std::to_string(kWidth) + " " +
                    px(height) + "\" aria-label=\"" + html_escape(title) + "\">\n";
  svg += "<text class=\"title\" x=\"8\" y=\"20\">" + html_escape(title) + "</text>\n";
  svg += "<line class=\"axis\" x1=\"" + px(kLabelWidth) + "\" y1=\"" + px(kTitleHeight) + "\" x2=\"" +
         px(kLabelWidth) + "\" y2=\"" + px(height - 8) + "\"/>\n";
  svg += body;
  svg += "</svg>\n";
  return svg;
}

}  // namespace oprig::reports
