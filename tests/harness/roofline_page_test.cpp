// bench's roofline page (harness/bench/roofline_page.hpp): one chart per
// calibrated backend with every row on it, a row per kernel with its rates,
// fraction and whether the timing is trusted, and nothing loaded from outside.
#include <gtest/gtest.h>

#include "bench/roofline_page.hpp"

namespace oprig::harness {
namespace {

size_t count_of(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(RooflinePage, DrawsEachKernelAndMarksTheMistrusted) {
  perf::BackendPeaks cpu;
  cpu.backend = "cpu";
  cpu.device = "test cpu";
  cpu.fma_gflops = perf::Figure::of({100, 100, 100});
  perf::BandwidthPoint dram;
  dram.working_set_bytes = 64u << 20;
  dram.copy_gbps = perf::Figure::of({20, 20, 20});
  dram.triad_gbps = perf::Figure::of({22, 22, 22});
  cpu.bandwidth = {dram};
  RooflineRow honest{"matmul__f32__256x256__uniform__p0__cpu", "cpu", {}};
  honest.roof.gbps = 10;
  honest.roof.gflops = 50;
  honest.roof.intensity = 5;
  honest.roof.fraction = 0.5;
  RooflineRow cheat{"atan__f32__262144__uniform__p0__cpu", "cpu", {}};
  cheat.roof.gbps = 900;
  cheat.roof.gflops = 90;
  cheat.roof.intensity = 0.1;
  cheat.roof.fraction = 40;
  cheat.roof.above_roofline = true;
  const std::string page = render_roofline_page({{"cpu", cpu}}, {honest, cheat});
  EXPECT_EQ(count_of(page, "<svg"), 1u);
  EXPECT_NE(page.find("working set 64 MiB: 22 GB/s"), std::string::npos) << page;
  EXPECT_NE(page.find("<td class=\"mono\">matmul__f32__256x256__uniform__p0__cpu</td><td>cpu</td>"), std::string::npos);
  EXPECT_EQ(count_of(page, "<span class=\"v-mistrusted\">MISTRUSTED</span>"), 1u);
  EXPECT_EQ(count_of(page, "<td>trusted</td>"), 1u);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
}

}  // namespace
}  // namespace oprig::harness
