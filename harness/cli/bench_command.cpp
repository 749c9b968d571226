#include "cli/bench_command.hpp"

#include <iostream>
#include <regex>

#include "bench/op_bench.hpp"
#include "cli/main_context.hpp"
#include "cli/number_checks.hpp"
#include "cli/selection_options.hpp"
#include "reports/reporter.hpp"
#include "runner/environment.hpp"
#include "reports/summary.hpp"

namespace oprig::cli {
namespace {

struct BenchFlags {
  SelectionFlags selection;
  std::string out = "oprig-bench";
  int repetitions = 0;
  double min_time = 0.2;
  std::string filter;
};

}  // namespace

void add_bench_command(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<BenchFlags>();
  CLI::App* cmd = root.add_subcommand(
      "bench", "Time each op on each backend under Google Benchmark (device time where the backend has a\n"
               "device clock) and write benchmark.json (Google Benchmark schema) plus results.json and reports.");
  add_selection_flags(*cmd, flags->selection);
  cmd->add_option("--out", flags->out, "Output folder")->capture_default_str();
  cmd->add_option("--repetitions", flags->repetitions, "Repetitions per benchmark (default: the plan's, >= 9)");
  cmd->add_option("--min-time", flags->min_time, "Minimum seconds per repetition")
      ->check(positive_at_most(3600, "seconds"))
      ->capture_default_str();
  cmd->add_option("--filter", flags->filter, "Regex over benchmark names (case ids)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            // Checked here: Google Benchmark's own parse error is a silent empty run.
            try {
              std::regex check(text, std::regex::extended);
            } catch (const std::regex_error& e) {
              return "'" + text + "' is not a valid regular expression: " + e.what();
            }
            return "";
          },
          "REGEX"));
  cmd->callback([flags, exit_code] {
    const harness::Selection selection = to_selection(flags->selection);
    const harness::Suite suite = harness::load_suite(selection);
    reports::RunResults results;
    results.environment = harness::collect_environment(selection.backends, invoked_command_line());
    results.cases = harness::run_benchmarks(
        suite, selection, {flags->out, flags->repetitions, flags->min_time, flags->filter});
    results.environment.finished_at = harness::utc_now_iso8601();
    reports::write_all_reports(results, flags->out);
    std::cout << reports::summary_table(results) << "\n";
    std::cout << "benchmark: " << std::filesystem::absolute(std::filesystem::path(flags->out) / "benchmark.json").string() << "\n";
    std::cout << "report:    " << std::filesystem::absolute(std::filesystem::path(flags->out) / "report.html").string() << "\n";
    *exit_code = reports::exit_code_for(results);
  });
}

}  // namespace oprig::cli
