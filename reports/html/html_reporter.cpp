// Assembles report.html section by section. Every value taken from the
// results passes through html_escape (or is a number formatted here).
#include "reports/html/html_reporter.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>
#include <tuple>
#include <utility>

#include "reports/atomic_file.hpp"
#include "reports/coverage.hpp"
#include "reports/html/badges.hpp"
#include "reports/html/farm_sections.hpp"
#include "reports/html/style_css.h"
#include "reports/html/svg_chart.hpp"
#include "reports/summary.hpp"
#include "reports/text.hpp"

namespace oprig::reports {
namespace {

// Caps that keep a pathological run's page openable; results.json has everything.
constexpr size_t kMaxDetailedCases = 200;
constexpr size_t kMaxSkippedRows = 500;
constexpr size_t kMaxPerfRows = 1000;
constexpr size_t kOpenDetails = 20;

std::string_view embedded_css() {
  return {reinterpret_cast<const char*>(oprig_report_style_css), oprig_report_style_css_size};
}

std::string text_or_dash(const std::string& s) { return s.empty() ? "&mdash;" : html_escape(s); }

std::string kv_row(std::string_view key, const std::string& escaped_value) {
  return "<tr><th>" + std::string(key) + "</th><td>" + escaped_value + "</td></tr>\n";
}

// Backends in the environment's order, then any others the cases name.
std::vector<std::string> backend_order(const RunResults& results) {
  std::vector<std::string> order;
  auto add = [&order](const std::string& name) {
    if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
  };
  for (const BackendRecord& b : results.environment.backends)
    if (std::any_of(results.cases.begin(), results.cases.end(),
                    [&](const CaseResult& c) { return c.backend == b.name; }))
      add(b.name);
  for (const CaseResult& c : results.cases) add(c.backend);
  return order;
}

// ---- sections ---------------------------------------------------------------

std::string head_section(const RunResults& results) {
  const Environment& env = results.environment;
  std::string title = "oprig report";
  if (!env.started_at.empty()) title += " \xE2\x80\x94 " + env.started_at;
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; img-src data:\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"oprig\">\n<title>" +
      html_escape(title) + "</title>\n<style>\n";
  out += embedded_css();
  out += "</style>\n</head>\n<body>\n<main>\n";
  return out;
}

// Shown per backend; the rest are in "Cases that did not pass" below.
constexpr size_t kBannerReasons = 6;

// Per backend: what passed, what did not, what was not tested and why.
std::string coverage_table(const RunResults& results) {
  const std::vector<BackendCoverage> backends = coverage_by_backend(results);
  if (backends.empty()) return {};
  std::string out = "<table id=\"coverage\"><thead><tr><th>backend</th><th class=\"num\">passed</th>"
                    "<th class=\"num\">warnings</th><th class=\"num\">failing</th><th class=\"num\">not tested</th>"
                    "<th>why not tested</th></tr></thead><tbody>\n";
  for (const BackendCoverage& b : backends) {
    out += "<tr><td><strong>" + html_escape(b.backend) + "</strong></td><td class=\"num\">" + std::to_string(b.passed) +
           "</td><td class=\"num\">" + std::to_string(b.noted) + "</td><td class=\"num\">" + std::to_string(b.failing) +
           "</td><td class=\"num\">" + std::to_string(b.not_tested) + "</td><td>";
    if (b.reasons.empty()) out += "&mdash;";
    out += "<ul class=\"reasons\">";
    for (size_t i = 0; i < b.reasons.size() && i < kBannerReasons; ++i) {
      const ReasonCount& r = b.reasons[i];
      // A reason that names no op ("prepare() does not support these data types") says which ops gave it.
      std::string ops;
      if (std::none_of(r.ops.begin(), r.ops.end(), [&](const std::string& op) { return r.reason.find(op) != std::string::npos; }))
        for (const std::string& op : r.ops) ops += (ops.empty() ? " <span class=\"muted\">(" : ", ") + html_escape(op);
      if (!ops.empty()) ops += ")</span>";
      out += "<li>" + std::to_string(r.count) + " " + badge(r.verdict) + " " +
             (r.reason.empty() ? std::string("(no reason given)") : html_escape(r.reason)) + ops + "</li>";
    }
    out += "</ul>";
    if (b.reasons.size() > kBannerReasons)
      out += "<div class=\"muted\">" + std::to_string(b.reasons.size() - kBannerReasons) +
             " more reasons: see <a href=\"#not-tested\">Not tested here</a> and results.json</div>";
    out += "</td></tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string banner(const RunResults& results) {
  const VerdictCounts counts = count_verdicts(results);
  std::string out = "<header>\n<h1>oprig report</h1>\n";
  // Before any verdict: a green banner over half a run would be a lie of omission.
  if (!results.complete)
    out += "<div class=\"banner v-failed\" id=\"incomplete\">INCOMPLETE: " + html_escape(results.incomplete_reason) +
           "</div>\n";
  const int code = exit_code_for(results);
  const char* tone = results.cases.empty() || code == kExitNothingTested ? "v-skipped"
                     : code == kExitOk                                   ? "v-passed"
                                                                         : "v-failed";
  out += "<div class=\"banner " + std::string(tone) + "\" id=\"verdict-banner\">" + html_escape(headline(results)) +
         "</div>\n";
  out += "<div class=\"chips\">";
  for (Verdict v : kAllVerdicts)
    if (counts[v] > 0)
      out += "<span class=\"badge " + verdict_class(v) + "\">" + std::to_string(counts[v]) + " " +
             std::string(verdict_name(v)) + "</span>";
  out += "</div>\n" + coverage_table(results) + "</header>\n";
  return out;
}

std::string environment_section(const RunResults& results) {
  const Environment& env = results.environment;
  std::string out = "<h2>Environment</h2>\n<div class=\"grid2\">\n<div class=\"card\"><table class=\"kv\">\n";
  out += kv_row("oprig version", text_or_dash(env.oprig_version));
  out += kv_row("git revision", "<code>" + text_or_dash(env.git_revision) + "</code>");
  out += kv_row("CPU", text_or_dash(env.cpu_model));
  out += kv_row("cores", env.cores ? std::to_string(env.cores) : "&mdash;");
  out += kv_row("OS", text_or_dash(env.os));
  out += kv_row("host", text_or_dash(env.hostname));
  out += kv_row("started", text_or_dash(env.started_at));
  out += kv_row("finished", text_or_dash(env.finished_at));
  out += kv_row("command", "<code>" + text_or_dash(env.command_line) + "</code>");
  out += "</table></div>\n<div class=\"card\">\n";
  if (env.backends.empty()) {
    out += "<p class=\"muted\">No backend records in these results.</p>\n";
  } else {
    out += "<table id=\"backends\">\n<thead><tr><th>backend</th><th>available</th><th>device</th>"
           "<th>driver</th><th>API</th></tr></thead>\n<tbody>\n";
    for (const BackendRecord& b : env.backends) {
      out += "<tr><td><strong>" + html_escape(b.name) + "</strong></td><td>";
      out += b.available ? "<span class=\"badge v-passed\">yes</span>"
                         : "<span class=\"badge v-skipped\">no</span>";
      if (!b.available && !b.reason.empty()) out += "<div class=\"muted\">" + html_escape(b.reason) + "</div>";
      out += "</td><td>" + text_or_dash(b.device);
      if (!b.vendor.empty()) out += "<div class=\"muted\">" + html_escape(b.vendor) + "</div>";
      out += "</td><td>" + text_or_dash(b.driver_version) + "</td><td>" + text_or_dash(b.api_version) +
             "</td></tr>\n";
    }
    out += "</tbody></table>\n";
  }
  out += "</div>\n</div>\n";
  return out;
}

std::string summary_matrix_section(const RunResults& results) {
  const std::vector<std::string> backends = backend_order(results);
  using RowKey = std::pair<std::string, std::string>;  // op, dtype
  std::vector<RowKey> rows;
  std::map<RowKey, std::map<std::string, VerdictCounts>> cells;
  for (const CaseResult& c : results.cases) {
    RowKey key{c.op, c.dtype};
    if (cells.find(key) == cells.end()) rows.push_back(key);
    ++cells[key][c.backend][c.verdict];
  }

  std::string out = "<h2>Summary: op &times; backend &times; data type</h2>\n";
  out += "<table id=\"summary-matrix\">\n<thead><tr><th>op</th><th>dtype</th>";
  for (const std::string& b : backends) out += "<th>" + html_escape(b) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const RowKey& key : rows) {
    out += "<tr class=\"matrix-row\"><th>" + html_escape(key.first) + "</th><td>" +
           html_escape(key.second) + "</td>";
    for (const std::string& backend : backends) {
      auto it = cells[key].find(backend);
      if (it == cells[key].end()) {
        out += "<td class=\"empty\">&mdash;</td>";
        continue;
      }
      const VerdictCounts& counts = it->second;
      std::vector<Verdict> present;
      for (Verdict v : kAllVerdicts)
        if (counts[v] > 0) present.push_back(v);
      std::sort(present.begin(), present.end(),
                [](Verdict a, Verdict b) { return verdict_severity(a) > verdict_severity(b); });
      const Verdict worst = present.front();
      out += "<td class=\"cell " + verdict_class(worst) + "\" title=\"" +
             html_escape(key.first + " " + key.second + " on " + backend + ": worst verdict " +
                         std::string(verdict_name(worst))) +
             "\">";
      for (Verdict v : present)
        out += "<span class=\"count\">" + std::to_string(counts[v]) + " " + std::string(verdict_name(v)) +
               "</span>";
      out += "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody></table>\n";
  if (rows.empty()) out += "<p class=\"muted\">No cases in this run.</p>\n";
  return out;
}

std::string legend_section() {
  std::string out = "<h2>Verdicts</h2>\n<table id=\"legend\">\n<thead><tr><th>verdict</th><th>meaning</th>"
                    "<th>fails the run</th></tr></thead>\n<tbody>\n";
  for (Verdict v : kAllVerdicts)
    out += "<tr><td>" + badge(v) + "</td><td>" + html_escape(verdict_meaning(v)) + "</td><td>" +
           (verdict_is_failure(v) ? "yes" : "no") + "</td></tr>\n";
  out += "</tbody></table>\n";
  return out;
}

std::string stats_block(const CompareStats& s) {
  std::string out = "<div class=\"stats\">" + std::to_string(s.mismatches) + " of " + std::to_string(s.count) +
                    " elements outside tolerance &middot; max abs " + format_number(s.max_abs) +
                    " &middot; max rel " + format_number(s.max_rel) + " &middot; max ulp " +
                    format_number(s.max_ulp) + " &middot; zero fraction " + format_number(s.zero_fraction, 3);
  if (!s.tolerance.empty()) out += " &middot; tolerance <code>" + html_escape(s.tolerance) + "</code>";
  if (!s.tolerance_source.empty()) out += " <span class=\"rule\">(" + html_escape(s.tolerance_source) + ")</span>";
  out += "</div>\n";
  if (s.first_mismatches.empty()) return out;
  out += "<table class=\"mismatches\"><thead><tr><th class=\"num\">index</th><th>coords</th>"
         "<th class=\"num\">got</th><th class=\"num\">expected</th><th class=\"num\">ulp</th></tr></thead><tbody>\n";
  for (const Mismatch& m : s.first_mismatches) {
    std::string coords;
    for (size_t i = 0; i < m.coords.size(); ++i) coords += (i ? ", " : "") + std::to_string(m.coords[i]);
    out += "<tr><td class=\"num\">" + std::to_string(m.index) + "</td><td class=\"mono\">(" + coords +
           ")</td><td class=\"num\">" + format_number(m.got, 9) + "</td><td class=\"num\">" +
           format_number(m.expected, 9) + "</td><td class=\"num\">" + format_number(m.ulp) + "</td></tr>\n";
  }
  out += "</tbody></table>\n";
  return out;
}

// The case's tensors: name, type, shape (quantisation, static, left out).
std::string tensors_block(const CaseResult& c) {
  std::string out = "<table class=\"tensors\"><thead><tr><th></th><th>name</th><th>dtype</th><th>shape</th>"
                    "<th>notes</th></tr></thead><tbody>\n";
  auto row = [&](const char* role, const TensorRecord& t) {
    std::string notes;
    if (!t.present) notes = "left out (optional)";
    if (t.is_static) notes += (notes.empty() ? "" : ", ") + std::string("static");
    if (t.scale != 0) notes += (notes.empty() ? "" : ", ") + std::string("scale ") + format_number(t.scale, 6) +
                               " zero point " + std::to_string(t.zero_point);
    out += std::string("<tr><td>") + role + "</td><td><code>" + html_escape(t.name) + "</code></td><td>" +
           html_escape(t.dtype) + "</td><td class=\"mono\">" + (t.present ? html_escape(format_shape(t.shape)) : "&mdash;") +
           "</td><td>" + html_escape(notes) + "</td></tr>\n";
  };
  for (const TensorRecord& t : c.inputs) row("in", t);
  for (const TensorRecord& t : c.outputs) row("out", t);
  return out + "</tbody></table>\n";
}

std::string repro_block(const CaseResult& c) {
  if (c.repro.empty()) return {};
  return "<div class=\"repro\"><div class=\"muted\">Re-run exactly this case:</div><code>" +
         html_escape(c.repro) + "</code></div>\n";
}

std::string case_card(const CaseResult& c, bool open) {
  std::string out = "<details class=\"case " + verdict_class(c.verdict) + "\"" + (open ? " open" : "") +
                    "><summary>" + badge(c.verdict) + outcome_badge(c) + " <code>" + html_escape(c.id) +
                    "</code>" + device_note(c) + "</summary>\n";
  out += "<div class=\"muted\">" + html_escape(c.op) + " &middot; " + html_escape(c.backend) + " &middot; " +
         html_escape(c.dtype) + " &middot; " + html_escape(format_shape(c.shape)) + " &middot; fill " +
         text_or_dash(c.fill) + " &middot; seed " + std::to_string(c.seed);
  if (c.params.is_object() && !c.params.empty())
    out += " &middot; params <code>" + html_escape(dump_json(c.params)) + "</code>";
  out += "</div>\n";
  if (!c.oracle.empty()) out += "<div class=\"muted\">judged by: " + html_escape(c.oracle) + "</div>\n";
  if (!c.inputs.empty() || c.outputs.size() > 1) out += tensors_block(c);
  if (!c.message.empty()) out += "<pre class=\"message\">" + html_escape(c.message) + "</pre>\n";
  // One output: its comparison; several: each under its name.
  if (c.outputs.size() > 1) {
    for (const TensorRecord& t : c.outputs)
      if (t.stats) out += "<div class=\"muted\">output <code>" + html_escape(t.name) + "</code></div>\n" + stats_block(*t.stats);
  } else if (c.stats) {
    out += stats_block(*c.stats);
  }
  if (!c.kept_dir.empty())
    out += "<div class=\"kept\">Inputs, the kernel's outputs (<code>got*.npy</code>) and the expected ones "
           "(<code>out*.npy</code>) are kept in <code>" + html_escape(c.kept_dir) +
           "</code>, a golden case: <code>--golden</code> with that folder runs it again.</div>\n";
  else if (!c.kept_note.empty())
    out += "<div class=\"kept muted\">Outputs " + html_escape(c.kept_note) + "</div>\n";
  out += repro_block(c);
  out += "</details>\n";
  return out;
}

std::string non_passing_section(const RunResults& results) {
  std::vector<const CaseResult*> detailed, skipped;
  for (const CaseResult& c : results.cases) {
    if (c.verdict == Verdict::kPassed) continue;
    (c.verdict == Verdict::kSkipped || c.verdict == Verdict::kUnimplemented ? skipped : detailed).push_back(&c);
  }
  std::stable_sort(detailed.begin(), detailed.end(), [](const CaseResult* a, const CaseResult* b) {
    return verdict_severity(a->verdict) > verdict_severity(b->verdict);
  });

  std::string out = "<h2 id=\"failures\">Cases that did not pass</h2>\n";
  if (detailed.empty() && skipped.empty()) return out + "<p>Every case passed.</p>\n";
  if (detailed.empty()) out += "<p>No failing, warning or mistrusted cases.</p>\n";
  for (size_t i = 0; i < detailed.size() && i < kMaxDetailedCases; ++i)
    out += case_card(*detailed[i], i < kOpenDetails);
  if (detailed.size() > kMaxDetailedCases)
    out += "<p class=\"muted\">" + std::to_string(detailed.size() - kMaxDetailedCases) +
           " more are listed in results.json.</p>\n";

  if (!skipped.empty()) {
    out += "<h3>Not tested here (" + std::to_string(skipped.size()) + ")</h3>\n";
    out += "<table id=\"not-tested\"><thead><tr><th>case</th><th>verdict</th><th>reason</th></tr></thead><tbody>\n";
    for (size_t i = 0; i < skipped.size() && i < kMaxSkippedRows; ++i) {
      const CaseResult& c = *skipped[i];
      out += "<tr><td><code>" + html_escape(c.id) + "</code></td><td>" + badge(c.verdict) + "</td><td>" +
             text_or_dash(c.message) + "</td></tr>\n";
    }
    out += "</tbody></table>\n";
    if (skipped.size() > kMaxSkippedRows)
      out += "<p class=\"muted\">" + std::to_string(skipped.size() - kMaxSkippedRows) +
             " more are listed in results.json.</p>\n";
  }
  return out;
}

// Which rule judged which cases: each distinct tolerance with where it comes
// from (plan, fill, golden manifest, default) and how many outputs it judged.
std::string tolerance_section(const RunResults& results) {
  using Key = std::tuple<std::string, std::string, std::string>;  // op, rule, source
  std::vector<Key> order;
  std::map<Key, std::pair<uint64_t, uint64_t>> judged;  // outputs, of which not passing
  for (const CaseResult& c : results.cases)
    for (const TensorRecord& t : c.outputs) {
      if (!t.stats) continue;
      const Key key{c.op, t.stats->tolerance, t.stats->tolerance_source};
      auto [it, fresh] = judged.try_emplace(key, 0, 0);
      if (fresh) order.push_back(key);
      ++it->second.first;
      if (c.verdict != Verdict::kPassed) ++it->second.second;
    }
  std::string out = "<h2 id=\"tolerances\">Tolerances that judged this run</h2>\n";
  if (order.empty()) return out + "<p class=\"muted\">No output was compared.</p>\n";
  out += "<table id=\"tolerance-rules\"><thead><tr><th>op</th><th>rule</th><th class=\"num\">outputs judged</th>"
         "<th class=\"num\">in cases not passing</th><th>from, and why</th></tr></thead><tbody>\n";
  for (const Key& key : order) {
    const auto& [count, not_passing] = judged[key];
    out += "<tr><td>" + html_escape(std::get<0>(key)) + "</td><td><code>" + text_or_dash(std::get<1>(key)) +
           "</code></td><td class=\"num\">" + std::to_string(count) + "</td><td class=\"num\">" +
           std::to_string(not_passing) + "</td><td>" + text_or_dash(std::get<2>(key)) + "</td></tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string bar_class(const std::string& backend) {
  static constexpr std::string_view kKnown[] = {"cpu", "opencl", "vulkan", "dsp"};
  for (std::string_view known : kKnown)
    if (backend == known) return "bar-" + backend;
  return "bar-other";
}

std::string throughput_chart(const RunResults& results, const std::vector<std::string>& backends) {
  // Per op x dtype x backend, the case at the largest measured size: the
  // figure least distorted by launch overhead.
  using Key = std::pair<std::string, std::string>;  // op, dtype
  std::vector<Key> groups;
  std::map<Key, std::map<std::string, const CaseResult*>> best;
  for (const CaseResult& c : results.cases) {
    // Model cases time a whole graph and count no elements: a throughput bar
    // of zero would say nothing, so they stay in the table only.
    if (!c.perf || c.perf->elements == 0) continue;
    // Simulated dsp time would sit on the real-time axis as if measured.
    if (c.backend == "dsp" && c.perf->device_timer) continue;
    Key key{c.op, c.dtype};
    if (best.find(key) == best.end()) groups.push_back(key);
    const CaseResult*& slot = best[key][c.backend];
    if (!slot || c.perf->elements > slot->perf->elements ||
        (c.perf->elements == slot->perf->elements && c.perf->gelem_per_s > slot->perf->gelem_per_s))
      slot = &c;
  }
  std::vector<ChartBar> bars;
  for (const Key& key : groups)
    for (const std::string& backend : backends) {
      auto it = best[key].find(backend);
      if (it == best[key].end()) continue;
      const CaseResult& c = *it->second;
      bars.push_back(ChartBar{key.first + " \xC2\xB7 " + key.second,
                              backend + " \xC2\xB7 " + format_shape(c.shape), bar_class(backend),
                              c.perf->gelem_per_s, format_number(c.perf->gelem_per_s, 3) + " Gelem/s"});
    }
  return svg_bar_chart("Throughput per backend at the largest measured shape (Gelem/s, higher is better)", bars);
}

// The dsp backend's own timings (a `run` on dsp) are the cost model's
// simulated time: never drawn or tabled as real time. (`oprig bench` times
// the simulator with the host clock: device_timer false.)
bool simulated_time(const CaseResult& c) { return c.backend == "dsp" && c.perf && c.perf->device_timer; }

// At least this many timed samples make a figure to compare; fewer (a `run`
// times its two executes) only indicate.
constexpr size_t kTimedSamples = 9;

// The baseline's cells for one row, and how rows are ordered against it:
// the worst regression first (largest new/base ratio), cases the baseline
// did not time last.
std::string baseline_cells(const PerfBaseline& baseline, const CaseResult& c) {
  const auto it = baseline.rows.find(c.id);
  if (it == baseline.rows.end()) return "<td class=\"num\">&mdash;</td><td class=\"muted\">not in baseline</td>";
  const BaselineRow& b = it->second;
  std::string verdict_cell = html_escape(b.verdict);
  if (b.verdict == "REGRESSED") verdict_cell = "<span class=\"badge v-failed\">REGRESSED</span>";
  if (b.verdict == "IMPROVED") verdict_cell = "<span class=\"badge v-passed\">IMPROVED</span>";
  if (!b.note.empty()) verdict_cell += " <span class=\"muted\">" + html_escape(b.note) + "</span>";
  if (b.verdict == "NOT_ENOUGH_SAMPLES") return "<td class=\"num\">&mdash;</td><td>" + verdict_cell + "</td>";
  return "<td class=\"num\">" + format_number(b.ratio, 3) + " [" + format_number(b.low, 3) + ", " +
         format_number(b.high, 3) + "]<br><span class=\"muted\">base " + format_duration_ns(b.base_median_ns) +
         "</span></td><td>" + verdict_cell + "</td>";
}

double baseline_sort_key(const PerfBaseline& baseline, const CaseResult& c) {
  const auto it = baseline.rows.find(c.id);
  if (it == baseline.rows.end()) return -2;
  if (it->second.verdict == "NOT_ENOUGH_SAMPLES") return -1;
  return it->second.ratio;
}

std::string baseline_summary(const PerfBaseline& baseline, size_t measured) {
  size_t compared = 0;
  for (const auto& [id, row] : baseline.rows) compared += row.verdict != "NOT_ENOUGH_SAMPLES";
  return "<p id=\"perf-baseline\">Against the baseline <code>" + html_escape(baseline.label) + "</code> (" +
         html_escape(baseline.rule) + "): " + std::to_string(baseline.count("REGRESSED")) + " regressed, " +
         std::to_string(baseline.count("IMPROVED")) + " improved, " + std::to_string(baseline.count("SAME")) +
         " unchanged, " + std::to_string(baseline.rows.size() - compared) + " with too few samples to judge, " +
         std::to_string(measured - std::min(measured, baseline.rows.size())) + " not in the baseline, " +
         std::to_string(baseline.only_in_baseline) +
         " timed only in the baseline. Rows are sorted by the worst regression first (new / base time, with its "
         "confidence interval).</p>\n";
}

std::string perf_section(const RunResults& results, const PerfBaseline* baseline) {
  std::vector<const CaseResult*> measured;
  for (const CaseResult& c : results.cases)
    if (c.perf) measured.push_back(&c);
  std::string out = "<h2 id=\"performance\">Performance</h2>\n";
  if (measured.empty()) return out + "<p class=\"muted\">No performance measurements in this run.</p>\n";

  out += throughput_chart(results, backend_order(results));
  std::stable_sort(measured.begin(), measured.end(), [](const CaseResult* a, const CaseResult* b) {
    return std::tie(a->op, a->dtype, a->perf->elements) < std::tie(b->op, b->dtype, b->perf->elements);
  });
  if (baseline) {
    std::stable_sort(measured.begin(), measured.end(), [baseline](const CaseResult* a, const CaseResult* b) {
      return baseline_sort_key(*baseline, *a) > baseline_sort_key(*baseline, *b);
    });
    out += baseline_summary(*baseline, measured.size());
  }
  out += "<p class=\"muted\">Samples: timed executes (a <code>run</code>) or repetitions (<code>bench</code>) behind "
         "each figure; under " + std::to_string(kTimedSamples) + " a figure is <em>indicative</em> only. Simulated dsp "
         "time is in its own column, never with the real times.</p>\n";
  out += "<table class=\"perf\" id=\"perf-table\"><thead><tr><th>case</th><th>op</th><th>backend</th><th>dtype</th>"
         "<th>shape</th><th>fill</th><th>variant</th><th class=\"num\">median compute</th><th class=\"num\">min</th>"
         "<th class=\"num\">samples</th>";
  if (baseline) out += "<th class=\"num\">new / base</th><th>change</th>";
  out += "<th class=\"num\">Gelem/s</th><th class=\"num\">GB/s</th><th>timer</th>"
         "<th class=\"num\">simulated</th><th class=\"num\">sim cycles</th><th class=\"num\">iterations</th>"
         "</tr></thead><tbody>\n";
  for (size_t i = 0; i < measured.size() && i < kMaxPerfRows; ++i) {
    const CaseResult& c = *measured[i];
    const PerfStats& p = *c.perf;
    const bool simulated = simulated_time(c);
    // Rates need elements (a model case or an empty tensor has none); a model
    // case shows how many WHILE iterations its time covers instead.
    const bool per_element = p.elements > 0 && !simulated;
    const std::string dash = "&mdash;";
    const size_t samples = p.compute_ns_samples.size();
    out += "<tr><td class=\"mono\">" + html_escape(c.id) + "</td><td>" + html_escape(c.op) + "</td><td>" +
           html_escape(c.backend) + "</td><td>" + html_escape(c.dtype) + "</td><td class=\"mono\">" +
           html_escape(format_shape(c.shape)) + "</td><td>" + html_escape(c.fill) + "</td><td>" +
           html_escape(c.variant) + "</td><td class=\"num\">" +
           (simulated ? dash : format_duration_ns(p.compute_ns_median)) + "</td><td class=\"num\">" +
           (simulated ? dash : format_duration_ns(p.compute_ns_min)) + "</td><td class=\"num\">" +
           std::to_string(samples) + (samples < kTimedSamples ? " (indicative)" : "") + "</td>" +
           (baseline ? baseline_cells(*baseline, c) : std::string()) + "<td class=\"num\">" +
           (per_element ? format_number(p.gelem_per_s, 3) : dash) + "</td><td class=\"num\">" +
           (per_element ? format_number(p.gbytes_per_s, 3) : dash) + "</td><td>" +
           (simulated ? "dsp cost model" : p.device_timer ? "device" : "host") +
           (p.launch_bound ? " <span class=\"launch-bound\" title=\"median under 1.5x the calibrated launch-plus-readback "
                             "overhead of " + format_duration_ns(p.launch_overhead_ns) +
                             ": mostly launch cost, not kernel speed\">launch-bound</span>"
                           : std::string()) +
           "</td><td class=\"num\">" +
           (simulated ? format_duration_ns(p.compute_ns_median) : dash) + "</td><td class=\"num\">" +
           (p.sim_cycles ? std::to_string(p.sim_cycles) : dash) + "</td><td class=\"num\">" +
           (p.loop_iterations ? std::to_string(p.loop_iterations) : dash) + "</td></tr>\n";
  }
  out += "</tbody></table>\n";
  if (measured.size() > kMaxPerfRows)
    out += "<p class=\"muted\">" + std::to_string(measured.size() - kMaxPerfRows) +
           " more rows are in results.json.</p>\n";
  return out;
}

std::string footer(const RunResults& results) {
  return "<footer>Rendered by oprig from results (schema " + std::to_string(results.schema_version) +
         "). This page is self-contained and opens offline; results.json holds every number.</footer>\n"
         "</main>\n</body>\n</html>\n";
}

}  // namespace

std::string render_html(const RunResults& results, const PerfBaseline* baseline) {
  std::string page = head_section(results);
  page += banner(results);
  page += environment_section(results);
  page += farm_sections(results);  // device matrix, expected results and flakes, merged inputs
  page += summary_matrix_section(results);
  page += legend_section();
  page += non_passing_section(results);
  page += tolerance_section(results);
  page += perf_section(results, baseline);
  page += footer(results);
  return page;
}

void HtmlReporter::finish(const RunResults& results) {
  write_file_atomically(path_, render_html(results, baseline_));
}

}  // namespace oprig::reports
