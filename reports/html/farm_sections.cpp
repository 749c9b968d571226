#include "reports/html/farm_sections.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "reports/html/badges.hpp"
#include "reports/outcome.hpp"
#include "reports/summary.hpp"
#include "reports/text.hpp"

namespace oprig::reports {
namespace {

// Caps that keep a page of a large farm openable; results.json has everything.
constexpr size_t kMaxDifferenceRows = 500;
constexpr size_t kMaxOutcomeRows = 500;
constexpr size_t kMaxMissingRows = 500;
constexpr size_t kMessageChars = 240;

std::string dash() { return "&mdash;"; }

std::string short_message(const std::string& message) {
  const std::string first = message.substr(0, message.find('\n'));
  return html_escape(first.size() > kMessageChars ? first.substr(0, kMessageChars) + "..." : first);
}

// Verdict counts as in the summary matrix: the worst verdict colours the cell.
std::string counts_cell(const VerdictCounts& counts) {
  if (counts.total() == 0) return "<td class=\"empty\">" + dash() + "</td>";
  Verdict worst = Verdict::kPassed;
  for (Verdict v : kAllVerdicts)
    if (counts[v] > 0 && verdict_severity(v) >= verdict_severity(worst)) worst = v;
  std::string out = "<td class=\"cell " + verdict_class(worst) + "\">";
  for (Verdict v : kAllVerdicts)
    if (counts[v] > 0)
      out += "<span class=\"count\">" + std::to_string(counts[v]) + " " + std::string(verdict_name(v)) + "</span>";
  return out + "</td>";
}

struct CaseAcross {
  const CaseResult* first = nullptr;
  std::vector<const CaseResult*> on;  // by device column; null where that device has no result
  bool differs() const {
    std::set<Verdict> seen;
    for (const CaseResult* c : on)
      if (c) seen.insert(c->verdict);
    return seen.size() > 1;
  }
};

double geometric_mean(const std::vector<double>& values) {
  double log_sum = 0;
  for (double v : values) log_sum += std::log(v);
  return std::exp(log_sum / static_cast<double>(values.size()));
}

std::string device_matrix_section(const RunResults& results) {
  const std::vector<DeviceRecord>& devices = results.farm.devices;
  if (devices.size() < 2) return "";
  const size_t n = devices.size();
  std::map<std::string, size_t> column;
  for (size_t i = 0; i < n; ++i) column[devices[i].id] = i;

  using RowKey = std::pair<std::string, std::string>;  // op, backend
  std::vector<RowKey> rows;
  std::map<RowKey, std::vector<VerdictCounts>> counts;
  std::map<RowKey, std::vector<std::string>> row_cases;
  std::vector<std::string> case_order;
  std::map<std::string, CaseAcross> cases;
  bool timed = false;
  for (const CaseResult& c : results.cases) {
    const auto col = column.find(c.outcome.device);
    if (col == column.end()) continue;
    const RowKey key{c.op, c.backend};
    auto [row, fresh_row] = counts.try_emplace(key, std::vector<VerdictCounts>(n));
    if (fresh_row) rows.push_back(key);
    ++row->second[col->second][c.verdict];
    auto [across, fresh_case] = cases.try_emplace(c.id);
    if (fresh_case) {
      case_order.push_back(c.id);
      row_cases[key].push_back(c.id);
      across->second.first = &c;
      across->second.on.assign(n, nullptr);
    }
    across->second.on[col->second] = &c;
    timed |= c.perf.has_value() && c.perf->compute_ns_median > 0;
  }
  std::set<RowKey> differing_rows;
  std::vector<const CaseAcross*> differing;
  for (const std::string& id : case_order)
    if (const CaseAcross& a = cases.at(id); a.differs()) {
      differing.push_back(&a);
      differing_rows.insert({a.first->op, a.first->backend});
    }

  std::string out = "<h2 id=\"devices\">Device matrix: op &times; backend &times; device</h2>\n";
  out += "<table id=\"device-legend\"><thead><tr><th>device</th><th>what sets it apart</th><th>described by its "
         "runs' environment</th></tr></thead><tbody>\n";
  for (const DeviceRecord& d : devices) {
    std::string description;
    for (const std::string& line : d.description) description += "<div>" + html_escape(line) + "</div>";
    out += "<tr><td><strong>" + html_escape(d.id) + "</strong></td><td>" + html_escape(d.label) + "</td><td class=\"muted\">" +
           description + "</td></tr>\n";
  }
  out += "</tbody></table>\n";

  out += "<h3>Cases whose verdict differs between devices (" + std::to_string(differing.size()) + ")</h3>\n";
  if (differing.empty()) {
    out += "<p id=\"device-differences-none\">Every case run on several devices has one verdict on all of them.</p>\n";
  } else {
    out += "<table id=\"device-differences\"><thead><tr><th>case</th>";
    for (const DeviceRecord& d : devices) out += "<th>" + html_escape(d.id) + "</th>";
    out += "<th>why (the first device that did not pass)</th></tr></thead><tbody>\n";
    for (size_t i = 0; i < differing.size() && i < kMaxDifferenceRows; ++i) {
      const CaseAcross& a = *differing[i];
      out += "<tr class=\"differs\"><td><code>" + html_escape(a.first->id) + "</code></td>";
      std::string why;
      for (const CaseResult* c : a.on) {
        out += c ? "<td>" + badge(c->verdict) + outcome_badge(*c) + "</td>" : "<td class=\"empty\">" + dash() + "</td>";
        if (c && why.empty() && c->verdict != Verdict::kPassed)
          why = html_escape(c->outcome.device) + ": " + short_message(c->message);
      }
      out += "<td>" + (why.empty() ? dash() : why) + "</td></tr>\n";
    }
    out += "</tbody></table>\n";
    if (differing.size() > kMaxDifferenceRows)
      out += "<p class=\"muted\">" + std::to_string(differing.size() - kMaxDifferenceRows) +
             " more are in results.json (the same case id with another verdict on another device).</p>\n";
  }

  // Rows that differ first, the rest in the order the runs gave them.
  std::stable_partition(rows.begin(), rows.end(), [&](const RowKey& k) { return differing_rows.count(k) > 0; });
  out += "<table id=\"device-matrix\"><thead><tr><th>op</th><th>backend</th>";
  for (const DeviceRecord& d : devices)
    out += "<th title=\"" + html_escape(d.label) + "\">" + html_escape(d.id) + "<div class=\"muted\">" +
           html_escape(d.label) + "</div></th>";
  if (timed)
    for (const DeviceRecord& d : devices)
      out += "<th class=\"num\" title=\"geometric mean of the median compute times of the row's cases timed on every "
             "device that ran the row; the ratio is to the first such device\">" + html_escape(d.id) + " time</th>";
  out += "</tr></thead><tbody>\n";
  for (const RowKey& key : rows) {
    const bool differs = differing_rows.count(key) > 0;
    out += std::string("<tr class=\"matrix-row") + (differs ? " differs" : "") + "\"><th>" + html_escape(key.first) +
           (differs ? " <span class=\"badge v-failed\">differs</span>" : "") + "</th><td>" + html_escape(key.second) +
           "</td>";
    const std::vector<VerdictCounts>& per_device = counts.at(key);
    for (size_t d = 0; d < n; ++d) out += counts_cell(per_device[d]);
    if (timed) {
      // The cases timed on every device that ran this row: the same work on each.
      std::vector<std::string> common;
      for (const std::string& id : row_cases[key]) {
        bool everywhere = true;
        for (size_t d = 0; d < n; ++d) {
          if (per_device[d].total() == 0) continue;
          const CaseResult* c = cases.at(id).on[d];
          everywhere = everywhere && c && c->perf && c->perf->compute_ns_median > 0;
        }
        if (everywhere) common.push_back(id);
      }
      double first = 0;
      for (size_t d = 0; d < n; ++d) {
        if (per_device[d].total() == 0 || common.empty()) {
          out += "<td class=\"num empty\">" + dash() + "</td>";
          continue;
        }
        std::vector<double> medians;
        for (const std::string& id : common) medians.push_back(cases.at(id).on[d]->perf->compute_ns_median);
        const double mean = geometric_mean(medians);
        if (first == 0) first = mean;
        out += "<td class=\"num\" title=\"" + std::to_string(common.size()) + " case(s)\">" + format_duration_ns(mean) +
               " <span class=\"muted\">(" + format_number(mean / first, 3) + "&times;)</span></td>";
      }
    }
    out += "</tr>\n";
  }
  out += "</tbody></table>\n";
  return out;
}

std::string outcomes_section(const RunResults& results) {
  std::vector<const CaseResult*> listed;
  for (const char* status : {kUnexpectedPass, kFlaky, kExpectedFailure})
    for (const CaseResult& c : results.cases)
      if (c.outcome.status == status) listed.push_back(&c);
  if (listed.empty() && results.farm.expectations.empty()) return "";
  std::string out = "<h2 id=\"outcomes\">Expected results and flakes</h2>\n<p>";
  if (results.farm.expectations.empty()) {
    out += "No expectations file. ";
  } else {
    out += "Expectations: ";
    for (size_t i = 0; i < results.farm.expectations.size(); ++i)
      out += (i ? ", " : "") + std::string("<code>") + html_escape(results.farm.expectations[i]) + "</code>";
    out += ". ";
  }
  out += "Unexpected failures were re-run up to " + std::to_string(results.farm.flake_reruns) +
         " time(s) in fresh workers. An expected failure does not fail the run; an UNEXPECTED_PASS fails it " +
         std::string(results.farm.strict_expectations ? "(--strict-expectations)" : "only under --strict-expectations") +
         "; a FLAKY case " + (results.farm.fail_on_flakes ? "fails it (--fail-on-flakes)" : "only under --fail-on-flakes") +
         ".</p>\n";
  const std::string excused = excused_counts_text(results);
  out += "<p id=\"outcome-counts\">" + (listed.empty() ? std::string("Every result is as expected; nothing was flaky.")
                                                        : html_escape(excused.empty() ? "see below" : excused + " not failing the run")) +
         "</p>\n";
  if (listed.empty()) return out;
  out += "<table id=\"outcome-cases\"><thead><tr><th>case</th><th>verdict</th><th>outcome</th><th>expected</th>"
         "<th>attempts</th><th>reason</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < listed.size() && i < kMaxOutcomeRows; ++i) {
    const CaseResult& c = *listed[i];
    const std::string attempts = attempts_text(c.outcome);
    out += "<tr><td><code>" + html_escape(c.id) + "</code>" + device_note(c) + "</td><td>" + badge(c.verdict) +
           "</td><td>" + outcome_badge(c) + "</td><td>" +
           (c.outcome.expected.empty() ? dash()
                                       : html_escape(c.outcome.expected) + "<div class=\"muted\">" +
                                             html_escape(c.outcome.expected_from) + "</div>") +
           "</td><td>" + (attempts.empty() ? dash() : html_escape(attempts)) + "</td><td>" +
           (c.outcome.expected_reason.empty() ? short_message(c.message) : html_escape(c.outcome.expected_reason)) +
           "</td></tr>\n";
  }
  out += "</tbody></table>\n";
  if (listed.size() > kMaxOutcomeRows)
    out += "<p class=\"muted\">" + std::to_string(listed.size() - kMaxOutcomeRows) + " more are in results.json.</p>\n";
  return out;
}

std::string merge_section(const RunResults& results) {
  const FarmRecord& farm = results.farm;
  std::string out;
  if (farm.shard)
    out += "<p id=\"shard\">This run is shard " + std::to_string(farm.shard->index) + "/" + std::to_string(farm.shard->count) +
           " of a selection of " + std::to_string(farm.shard->selected_cases) + " cases (from <code>" +
           html_escape(farm.shard->source) + "</code>); <code>oprig merge</code> joins the shards.</p>\n";
  if (farm.inputs.empty()) return out;
  out += "<h2 id=\"merged\">Merged from " + std::to_string(farm.inputs.size()) + " output folder(s)</h2>\n";
  out += "<table id=\"merge-inputs\"><thead><tr><th>folder</th><th>device</th><th>shard</th><th>host</th><th>started</th>"
         "<th class=\"num\">planned</th><th class=\"num\">results</th><th>finished</th></tr></thead><tbody>\n";
  for (const MergeInput& in : farm.inputs)
    out += "<tr><td><code>" + html_escape(in.path) + "</code></td><td>" + (in.device.empty() ? dash() : html_escape(in.device)) +
           "</td><td>" + (in.shard.empty() ? dash() : html_escape(in.shard)) + "</td><td>" + html_escape(in.hostname) +
           "</td><td>" + html_escape(in.started_at) + "</td><td class=\"num\">" + std::to_string(in.planned) +
           "</td><td class=\"num\">" + std::to_string(in.results) + "</td><td>" +
           (in.complete ? "<span class=\"badge v-passed\">yes</span>" : "<span class=\"badge v-failed\">no</span>") +
           "</td></tr>\n";
  out += "</tbody></table>\n";
  if (farm.missing.empty()) return out;
  out += "<h3>MISSING: " + std::to_string(farm.missing.size()) +
         " planned case(s) with no result in any input</h3>\n<p class=\"muted\">The selection planned them and no "
         "shard ran them to a verdict: the shard that had them was killed, is still running, or never ran.</p>\n"
         "<table id=\"missing-cases\"><thead><tr><th>case</th><th>status</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < farm.missing.size() && i < kMaxMissingRows; ++i)
    out += "<tr><td><code>" + html_escape(farm.missing[i]) + "</code></td><td><span class=\"badge v-failed\">MISSING</span></td></tr>\n";
  out += "</tbody></table>\n";
  if (farm.missing.size() > kMaxMissingRows)
    out += "<p class=\"muted\">" + std::to_string(farm.missing.size() - kMaxMissingRows) +
           " more are in results.json (farm.missing).</p>\n";
  return out;
}

}  // namespace

std::string device_note(const CaseResult& c) {
  return c.outcome.device.empty() ? "" : " <span class=\"muted\">on " + html_escape(c.outcome.device) + "</span>";
}

std::string farm_sections(const RunResults& results) {
  return merge_section(results) + device_matrix_section(results) + outcomes_section(results);
}

}  // namespace oprig::reports
