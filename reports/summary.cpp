// Verdict counting and the fixed-width summary table.
#include "reports/summary.hpp"

#include <algorithm>
#include <numeric>

#include "reports/outcome.hpp"

namespace oprig::reports {
namespace {

std::string pad_left(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

}  // namespace

uint64_t VerdictCounts::total() const {
  return std::accumulate(by_verdict.begin(), by_verdict.end(), uint64_t{0});
}

uint64_t VerdictCounts::failures() const {
  uint64_t n = 0;
  for (Verdict v : kAllVerdicts)
    if (verdict_is_failure(v)) n += (*this)[v];
  return n;
}

std::vector<VerdictCounts> count_verdicts_by_backend(const RunResults& results) {
  std::vector<VerdictCounts> rows;
  auto row_for = [&rows](const std::string& backend) -> VerdictCounts& {
    auto it = std::find_if(rows.begin(), rows.end(),
                           [&](const VerdictCounts& r) { return r.backend == backend; });
    if (it != rows.end()) return *it;
    rows.push_back(VerdictCounts{backend, {}});
    return rows.back();
  };
  for (const BackendRecord& b : results.environment.backends) {
    const bool has_cases = std::any_of(results.cases.begin(), results.cases.end(),
                                       [&](const CaseResult& c) { return c.backend == b.name; });
    if (has_cases) row_for(b.name);
  }
  for (const CaseResult& c : results.cases) ++row_for(c.backend)[c.verdict];
  return rows;
}

VerdictCounts count_verdicts(const RunResults& results) {
  VerdictCounts all;
  for (const CaseResult& c : results.cases) ++all[c.verdict];
  return all;
}

int verdict_severity(Verdict v) {
  switch (v) {
    case Verdict::kPassed: return 0;
    case Verdict::kSkipped: return 1;
    case Verdict::kUnimplemented: return 2;
    case Verdict::kMistrusted: return 3;
    case Verdict::kQualityWarning: return 4;
    case Verdict::kFailed: return 5;
    case Verdict::kTimeout: return 6;
    case Verdict::kCrash: return 7;
    case Verdict::kInvalidSpec: return 8;
  }
  return 9;
}

std::string summary_table(const RunResults& results) {
  if (results.cases.empty()) return "no cases were run\n";

  std::vector<VerdictCounts> rows = count_verdicts_by_backend(results);
  const VerdictCounts all = count_verdicts(results);
  if (rows.size() > 1) {
    rows.push_back(all);
    rows.back().backend = "all";
  }

  std::vector<Verdict> columns;
  for (Verdict v : kAllVerdicts)
    if (all[v] > 0) columns.push_back(v);

  // Header cells, then one line per row; every column as wide as its widest cell.
  std::vector<std::string> header{"backend"};
  for (Verdict v : columns) header.emplace_back(verdict_name(v));
  header.emplace_back("total");

  std::vector<std::vector<std::string>> body;
  for (const VerdictCounts& row : rows) {
    std::vector<std::string> cells{row.backend};
    for (Verdict v : columns) cells.push_back(std::to_string(row[v]));
    cells.push_back(std::to_string(row.total()));
    body.push_back(std::move(cells));
  }

  std::vector<size_t> widths(header.size());
  for (size_t i = 0; i < header.size(); ++i) {
    widths[i] = header[i].size();
    for (const auto& cells : body) widths[i] = std::max(widths[i], cells[i].size());
  }

  auto format_line = [&](const std::vector<std::string>& cells) {
    std::string line = pad_right(cells[0], widths[0]);
    for (size_t i = 1; i < cells.size(); ++i) line += "  " + pad_left(cells[i], widths[i]);
    return line + "\n";
  };

  std::string table = format_line(header);
  for (const auto& cells : body) table += format_line(cells);
  return table;
}

int exit_code_for(const RunResults& results) {
  bool tested = false;
  for (const CaseResult& c : results.cases) {
    if (counts_as_failure(c)) return kExitFailure;
    // A failure the run excuses (an expected failure, a flake) was tested all the same.
    tested |= c.verdict == Verdict::kPassed || c.verdict == Verdict::kQualityWarning ||
              c.verdict == Verdict::kMistrusted || verdict_is_failure(c.verdict);
  }
  return tested ? kExitOk : kExitNothingTested;
}

}  // namespace oprig::reports
