// The `report` subcommand: read results, render, write atomically.
#include "report_command.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "oprig/verdict.hpp"
#include "perf/report_baseline.hpp"
#include "reports/atomic_file.hpp"
#include "reports/html/html_reporter.hpp"
#include "reports/junit/junit_reporter.hpp"
#include "reports/results.hpp"
#include "reports/summary.hpp"

namespace oprig::cli {
namespace {

struct ReportOptions {
  std::string input;
  std::string output;  // empty: report.html beside the input
  std::string junit;   // empty: no junit.xml
  std::string baseline;  // empty: no baseline
  double min_effect = 0.05;
};

// harness/runner/run_identity.hpp's kRunIdentityFile: this file is also
// built into reports_test, which links no harness.
constexpr const char* kRunIdentityFile = "run.json";

// A results.jsonl stream is whole only when it holds every case its run
// planned (OUT/run.json, written when the run started); without that list
// nobody can say, and a report must not look finished.
void mark_unfinished_stream(const std::filesystem::path& jsonl, reports::RunResults& results) {
  const std::filesystem::path identity = jsonl.parent_path() / kRunIdentityFile;
  std::set<std::string> have;
  for (const reports::CaseResult& c : results.cases) have.insert(c.id);
  std::vector<std::string> planned;
  try {
    std::ifstream in(identity);
    if (!in) {
      results.complete = false;
      results.incomplete_reason = "no " + identity.string() + " beside the stream: cannot tell whether the run finished";
      return;
    }
    planned = nlohmann::json::parse(in).at("planned_cases").get<std::vector<std::string>>();
  } catch (const std::exception& e) {
    results.complete = false;
    results.incomplete_reason = identity.string() + " is unreadable (" + e.what() + "): cannot tell whether the run finished";
    return;
  }
  size_t missing = 0;
  for (const std::string& id : planned) missing += have.count(id) == 0;
  if (missing > 0) {
    results.complete = false;
    results.incomplete_reason = std::to_string(missing) + " of " + std::to_string(planned.size()) +
                                " planned cases have no result (the run did not finish; --resume continues it)";
  }
}

int run_report(const ReportOptions& options) {
  reports::RunResults results;
  try {
    results = reports::read_results_file(options.input);
  } catch (const reports::ResultsFormatError& e) {
    std::cerr << "oprig report: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (std::filesystem::path(options.input).extension() == ".jsonl") mark_unfinished_stream(options.input, results);
  if (!results.complete) std::cout << "INCOMPLETE: " << results.incomplete_reason << "\n";
  std::optional<reports::PerfBaseline> baseline;
  if (!options.baseline.empty()) {
    try {
      perf::RegressionRule rule;
      rule.min_effect = options.min_effect;
      baseline = perf::compare_with_baseline(perf::read_baseline_results(options.baseline), results, rule,
                                             options.baseline);
    } catch (const std::exception& e) {
      std::cerr << "oprig report: --baseline: " << e.what() << "\n";
      return kExitBadInput;
    }
    std::cout << "baseline: " << baseline->count("REGRESSED") << " regressed, " << baseline->count("IMPROVED")
              << " improved, " << baseline->count("SAME") << " unchanged of " << baseline->rows.size()
              << " cases timed in both\n";
  }
  const std::filesystem::path output =
      options.output.empty() ? std::filesystem::path(options.input).parent_path() / "report.html"
                             : std::filesystem::path(options.output);
  try {
    reports::write_file_atomically(output, reports::render_html(results, baseline ? &*baseline : nullptr));
    if (!options.junit.empty())
      reports::write_file_atomically(options.junit, reports::render_junit_xml(results));
  } catch (const reports::ReportWriteError& e) {
    std::cerr << "oprig report: " << e.what() << "\n";
    return kExitBadInput;
  }
  std::cout << reports::summary_table(results) << "wrote " << output.string() << "\n";
  if (!options.junit.empty()) std::cout << "wrote " << options.junit << "\n";
  return kExitOk;
}

}  // namespace

void add_report_command(CLI::App& root, int* exit_code) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = root.add_subcommand(
      "report", "Render report.html from results.json (or a results.jsonl stream, e.g. of a killed run)");
  command->add_option("results", options->input, "results.json or results.jsonl to render")->required();
  command->add_option("-o,--output", options->output, "HTML file to write (default: report.html beside RESULTS)");
  command->add_option("--junit", options->junit, "also write JUnit XML to this path");
  command->add_option("--baseline", options->baseline,
                      "An earlier run or bench (its folder or results.json): the performance table compares every "
                      "case timed in both, as `oprig compare` judges, and lists the worst regression first");
  command->add_option("--min-effect", options->min_effect,
                      "With --baseline: smallest change that counts, as a fraction (0.05 = 5 %)")
      ->check(CLI::Range(0.0, 1.0).description("in (0, 1)"))
      ->capture_default_str();
  command->callback([options, exit_code] { *exit_code = run_report(*options); });
}

}  // namespace oprig::cli
