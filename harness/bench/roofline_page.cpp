#include "bench/roofline_page.hpp"

#include <cmath>

#include "reports/html/page.hpp"
#include "reports/html/svg_roofline_chart.hpp"
#include "reports/text.hpp"

namespace oprig::harness {
namespace {

std::string working_set_text(uint64_t bytes) {
  if (bytes >= (1ull << 30)) return reports::format_number(static_cast<double>(bytes) / (1ull << 30), 3) + " GiB";
  if (bytes >= (1ull << 20)) return reports::format_number(static_cast<double>(bytes) / (1ull << 20), 3) + " MiB";
  return reports::format_number(static_cast<double>(bytes) / 1024, 3) + " KiB";
}

}  // namespace

std::string render_roofline_page(const std::map<std::string, perf::BackendPeaks>& peaks,
                                 const std::vector<RooflineRow>& rows) {
  std::string page = reports::html_page_begin("oprig bench: roofline");
  page += "<h1>Roofline</h1>\n<p class=\"muted\">This machine's calibrated peaks (<code>oprig calibrate</code>, "
          "medians) with each benchmarked kernel at its arithmetic intensity and achieved GFLOP/s. A kernel "
          "faster than the roofline of the best calibration repetitions allows (by more than 25 %) is a "
          "MISTRUSTED timing.</p>\n";
  for (const auto& [backend, p] : peaks) {
    reports::RooflineChart chart;
    chart.title = backend + ": " + p.device;
    chart.peak_gflops = p.fma_gflops.median;
    for (const perf::BandwidthPoint& b : p.bandwidth)
      if (b.best_median() > 0)
        chart.ceilings.push_back({"working set " + working_set_text(b.working_set_bytes) + ": " +
                                      reports::format_number(b.best_median(), 3) + " GB/s",
                                  b.best_median()});
    for (const RooflineRow& r : rows)
      if (r.backend == backend)
        chart.dots.push_back({r.id, r.roof.intensity, r.roof.gflops, r.roof.above_roofline});
    page += "<h2>" + reports::html_escape(backend) + "</h2>\n" + reports::svg_roofline_chart(chart);
  }
  page += "<table class=\"perf\" id=\"roofline-table\"><thead><tr><th>case</th><th>backend</th>"
          "<th class=\"num\">GB/s</th><th class=\"num\">GFLOP/s</th><th class=\"num\">FLOP/byte</th>"
          "<th class=\"num\">fraction of roofline</th><th>timing</th></tr></thead><tbody>\n";
  for (const RooflineRow& r : rows) {
    const bool known = std::isfinite(r.roof.fraction) && r.roof.fraction > 0;
    page += "<tr><td class=\"mono\">" + reports::html_escape(r.id) + "</td><td>" + reports::html_escape(r.backend) +
            "</td><td class=\"num\">" + reports::format_number(r.roof.gbps, 3) + "</td><td class=\"num\">" +
            reports::format_number(r.roof.gflops, 3) + "</td><td class=\"num\">" +
            reports::format_number(r.roof.intensity, 3) + "</td><td class=\"num\">" +
            (known ? reports::format_number(r.roof.fraction, 3) : std::string("&mdash;")) + "</td><td>" +
            (r.roof.above_roofline ? "<span class=\"v-mistrusted\">MISTRUSTED</span>" : "trusted") + "</td></tr>\n";
  }
  page += "</tbody></table>\n";
  return page + reports::html_page_end("Rendered by oprig bench from its calibration file and timings.");
}

}  // namespace oprig::harness
