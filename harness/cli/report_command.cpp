// The `report` subcommand: read results, render, write atomically.
#include "report_command.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "oprig/verdict.hpp"
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
};

int run_report(const ReportOptions& options) {
  reports::RunResults results;
  try {
    results = reports::read_results_file(options.input);
  } catch (const reports::ResultsFormatError& e) {
    std::cerr << "oprig report: " << e.what() << "\n";
    return kExitBadInput;
  }
  const std::filesystem::path output =
      options.output.empty() ? std::filesystem::path(options.input).parent_path() / "report.html"
                             : std::filesystem::path(options.output);
  try {
    reports::write_file_atomically(output, reports::render_html(results));
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
  command->callback([options, exit_code] { *exit_code = run_report(*options); });
}

}  // namespace oprig::cli
