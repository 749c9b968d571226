// The SVG charts perf pages use (reports/html): escaping, the geometry that
// can be checked without a browser, and empty inputs.
#include <gtest/gtest.h>

#include <string>

#include "reports/html/svg_roofline_chart.hpp"
#include "reports/html/svg_trend_chart.hpp"

namespace oprig::reports {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(TrendChart, PointsBandLevelsMarkers) {
  TrendChart c;
  c.title = "atan <f32>";
  for (int i = 0; i < 6; ++i) c.points.push_back({"d" + std::to_string(i), "t&" + std::to_string(i), 5.0 + (i >= 3), 4.9, 6.2});
  c.levels = {{0, 3, 5.0}, {3, 6, 6.0}};
  c.markers = {{3, "+20 %", "trend-up"}};
  const std::string svg = svg_trend_chart(c);
  EXPECT_EQ(count(svg, "<circle class=\"trend-point\""), 6u);
  EXPECT_EQ(count(svg, "class=\"trend-level\""), 2u);
  EXPECT_EQ(count(svg, "<line class=\"trend-marker trend-up\""), 1u);
  EXPECT_NE(svg.find("+20 %"), std::string::npos);
  EXPECT_NE(svg.find("atan &lt;f32&gt;"), std::string::npos);
  EXPECT_NE(svg.find("t&amp;0"), std::string::npos);
  EXPECT_EQ(svg.find("<f32>"), std::string::npos);
}

TEST(TrendChart, EmptySaysSo) {
  EXPECT_NE(svg_trend_chart(TrendChart{"x", {}, {}, {}, std::nullopt, nullptr}).find("no data"), std::string::npos);
}

TEST(RooflineChart, CeilingsAndDots) {
  RooflineChart c;
  c.title = "cpu roofline";
  c.peak_gflops = 200;
  c.ceilings = {{"DRAM 20 GB/s", 20}, {"L2 100 GB/s", 100}};
  c.dots = {{"atan f32", 2.25, 30, false}, {"cheat", 2.25, 900, true}, {"copy", 0, 10, false}};
  const std::string svg = svg_roofline_chart(c);
  EXPECT_EQ(count(svg, "<polyline class=\"roof-line\""), 2u);
  EXPECT_EQ(count(svg, "<circle class=\"roof-point\""), 1u);
  EXPECT_EQ(count(svg, "<circle class=\"roof-point mistrusted\""), 1u);
  EXPECT_NE(svg.find("1 rows without FLOPs not drawn"), std::string::npos);
  EXPECT_NE(svg.find("peak 200 GFLOP/s"), std::string::npos);
}

TEST(RooflineChart, NothingToDraw) {
  EXPECT_NE(svg_roofline_chart(RooflineChart{}).find("no roofline data"), std::string::npos);
}

}  // namespace
}  // namespace oprig::reports
