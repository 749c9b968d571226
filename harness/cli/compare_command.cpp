#include "cli/compare_command.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "oprig/verdict.hpp"
#include "perf/compare.hpp"
#include "perf/perf_error.hpp"
#include "perf/rerun_confirmation.hpp"
#include "reports/atomic_file.hpp"

namespace oprig::cli {
namespace {

struct CompareFlags {
  std::string base, next;
  double alpha = perf::RegressionRule{}.alpha;
  double min_effect = 0.05;
  size_t min_samples = 5;
  std::string metric = "real_time";
  std::string correction = "holm";
  bool machine_controls = false;
  bool json = false;
  std::string out;
  std::vector<std::string> reruns;
  std::string rerun_filter_out;
};

int run_compare(const CompareFlags& flags) {
  perf::CompareOptions options;
  options.rule = {flags.alpha, flags.min_effect, flags.min_samples};
  options.metric = flags.metric == "cpu_time" ? perf::TimeMetric::kCpuTime : perf::TimeMetric::kRealTime;
  options.family_correction = flags.correction == "holm";
  options.machine_controls = flags.machine_controls;
  perf::CompareReport report;
  try {
    perf::check_rule(options.rule);
    const perf::BenchmarkFile base = perf::read_benchmark_file(flags.base);
    const perf::BenchmarkFile next = perf::read_benchmark_file(flags.next);
    report = perf::compare_runs(base, next, options);
    std::vector<perf::BenchmarkFile> reruns;
    for (const std::string& path : flags.reruns) reruns.push_back(perf::read_benchmark_file(path));
    if (!reruns.empty()) perf::confirm_regressions(report, base, reruns);
  } catch (const perf::PerfInputError& e) {
    std::cerr << "oprig compare: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "oprig compare: " << e.what() << "\n";
    return kExitBadInput;
  }
  const nlohmann::json json = perf::compare_to_json(report);
  if (flags.json) std::cout << json.dump(2) << "\n";
  else std::cout << perf::render_compare_table(report);
  try {
    if (!flags.out.empty()) reports::write_file_atomically(flags.out, json.dump(2) + "\n");
    if (!flags.rerun_filter_out.empty())
      reports::write_file_atomically(flags.rerun_filter_out, perf::rerun_filter(report) + "\n");
  } catch (const reports::ReportWriteError& e) {
    std::cerr << "oprig compare: " << e.what() << "\n";
    return kExitBadInput;
  }
  const std::string reason = perf::mismatch_reason(report);
  if (!reason.empty()) std::cerr << "oprig compare: " << reason << "\n";
  return perf::compare_exit_code(report);
}

}  // namespace

void add_compare_command(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<CompareFlags>();
  CLI::App* cmd = root.add_subcommand(
      "compare", "Gate on regressions between two bench runs (Mann-Whitney U over the repetitions plus a minimum\n"
                 "effect); exit 1 when a benchmark regressed, 2 on bad or mismatched input.");
  cmd->footer(
      "Compare two benchmark runs repetition by repetition and gate on regressions.\n"
      "BASE and NEW are Google Benchmark JSON files, or `oprig bench` output folders (their benchmark.json).\n"
      "Per benchmark present in both: a one-sided Mann-Whitney U test over the repetitions (exact for up to 20\n"
      "per side without ties) and the Hodges-Lehmann ratio NEW/BASE with its distribution-free confidence\n"
      "interval (level 1 - 2 alpha). REGRESSED when NEW is slower at alpha AND the ratio exceeds\n"
      "1 + min-effect; IMPROVED symmetrically; SAME otherwise; NOT_ENOUGH_SAMPLES below --min-samples\n"
      "repetitions. The p-values are adjusted for the number of benchmarks compared (Holm), so alpha is the\n"
      "chance that an unchanged build flags any benchmark at all, not each one (--correction none: per\n"
      "benchmark). `oprig bench` times two fixed workloads (a memory copy, a dependent arithmetic chain)\n"
      "before every repetition; with --machine-controls, when one of them is itself significantly slower in\n"
      "NEW, the benchmark is REGRESSED only if its ratio exceeds that shift times 1 + min-effect (off by\n"
      "default: a control that differs from the kernel's bottleneck hides real regressions). Benchmarks found in only one run are listed. Aggregates (mean, median, ...) are not used.\n"
      "A regression must survive a rerun: with --confirm RERUN (the flagged benchmarks timed again in a new\n"
      "process: bench --filter \"$(cat FILE)\" after --rerun-filter FILE), a benchmark REGRESSED in NEW stands\n"
      "only if every rerun that re-timed it finds it REGRESSED against BASE too (its p multiplied by the number\n"
      "of benchmarks tested); one no rerun re-timed stands. A machine spell of minutes slows every repetition\n"
      "of a run like a regression does, but does not come back. scripts/perf/nightly_gate.sh does it all.\n"
      "Exit codes: 0 nothing regressed; 1 at least one benchmark REGRESSED; 2 bad input: a file unreadable or\n"
      "not Google Benchmark JSON, an option out of range, no benchmark in both runs (mismatched), or none in\n"
      "both with enough repetitions.");
  cmd->add_option("BASE", flags->base, "Baseline: benchmark JSON file or bench output folder")->required();
  cmd->add_option("NEW", flags->next, "Candidate: benchmark JSON file or bench output folder")->required();
  cmd->add_option("--alpha", flags->alpha, "Significance level of the one-sided test, in (0, 0.5)")
      ->capture_default_str();
  cmd->add_option("--min-effect", flags->min_effect,
                  "Smallest change that counts, as a fraction of BASE (0.05 = 5 %)")
      ->capture_default_str();
  cmd->add_option("--min-samples", flags->min_samples, "Fewest repetitions per side to test (>= 2)")
      ->capture_default_str();
  cmd->add_option("--metric", flags->metric,
                  "Which time to compare: real_time (oprig's device timings are reported there) or cpu_time")
      ->check(CLI::IsMember({"real_time", "cpu_time"}))
      ->capture_default_str();
  cmd->add_option("--correction", flags->correction,
                  "holm: alpha bounds the chance of any false alarm over all benchmarks; none: alpha per benchmark")
      ->check(CLI::IsMember({"holm", "none"}))
      ->capture_default_str();
  cmd->add_flag("--machine-controls", flags->machine_controls,
               "Allow for the machine's shift measured by bench's controls (experimental: can hide real regressions)");
  cmd->add_option("--confirm", flags->reruns,
                  "A rerun of NEW's flagged benchmarks (JSON file or bench folder; repeatable): a regression stands "
                  "only if every rerun that re-timed it confirms it");
  cmd->add_option("--rerun-filter", flags->rerun_filter_out,
                  "Write a regex of the REGRESSED benchmarks here (one line, empty when none), for bench --filter");
  cmd->add_flag("--json", flags->json, "Print compare.json to stdout instead of the table");
  cmd->add_option("--out", flags->out, "Also write the machine-readable result (schema oprig-compare/1) here");
  cmd->callback([flags, exit_code] { *exit_code = run_compare(*flags); });
}

}  // namespace oprig::cli
