#include "cli/history_command.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "oprig/verdict.hpp"
#include "perf/gbench_json.hpp"
#include "perf/history.hpp"
#include "perf/history_report.hpp"
#include "perf/perf_error.hpp"
#include "perf/this_build.hpp"
#include "reports/atomic_file.hpp"

namespace oprig::cli {
namespace {

struct AddFlags {
  std::string dir;
  std::string bench_out;
  std::string git_rev;
};

struct ShowFlags {
  std::string dir;
  std::string html;
  std::string machine;
  bool any_machine = false;
  size_t last = 90;
  std::string metric = "real_time";
  double min_effect = 0.05;
};

// The git revision of the run: --git-rev, else what the bench wrote into its
// benchmark.json context ("oprig_git_revision") or results.json, else this build's.
std::pair<std::string, std::string> git_revision_of(const AddFlags& flags, const perf::BenchmarkFile& run) {
  if (!flags.git_rev.empty()) return {flags.git_rev, "--git-rev"};
  if (run.context.is_object() && run.context.contains("oprig_git_revision") &&
      run.context["oprig_git_revision"].is_string())
    return {run.context["oprig_git_revision"].get<std::string>(), "benchmark.json context"};
  const std::filesystem::path results = run.path.parent_path() / "results.json";
  std::ifstream in(results);
  if (in) {
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
    if (j.is_object() && j.contains("environment") && j["environment"].is_object() &&
        j["environment"].contains("git_revision") && j["environment"]["git_revision"].is_string())
      return {j["environment"]["git_revision"].get<std::string>(), "results.json"};
  }
  return {perf::this_build_git_revision(), "this oprig build"};
}

// The machine of the run: what the bench wrote into its context
// ("oprig_machine", a JSON object or a string holding one, as
// benchmark::AddCustomContext stores it), else this machine now.
std::pair<perf::MachineInfo, std::string> machine_of(const perf::BenchmarkFile& run) {
  if (run.context.is_object() && run.context.contains("oprig_machine")) {
    nlohmann::json m = run.context["oprig_machine"];
    if (m.is_string()) m = nlohmann::json::parse(m.get<std::string>(), nullptr, false);
    return {perf::machine_from_json(m, run.path.string() + " context.oprig_machine"), "benchmark.json context"};
  }
  return {perf::describe_this_machine(), "described at history add"};
}

int run_add(const AddFlags& flags) {
  try {
    const perf::BenchmarkFile run = perf::read_benchmark_file(flags.bench_out);
    size_t with_samples = 0;
    for (const auto& b : run.benchmarks) with_samples += b.real_ns.empty() ? 0 : 1;
    if (with_samples == 0)
      throw perf::PerfInputError(run.path.string() +
                                 ": no benchmark with per-repetition entries, nothing to record (aggregates alone "
                                 "cannot draw a band or detect a change)");
    const auto [machine, machine_source] = machine_of(run);
    const auto [rev, rev_source] = git_revision_of(flags, run);
    const perf::HistoryRecord record =
        perf::make_history_record(run, machine, machine_source, rev, rev_source, perf::utc_now());
    const std::filesystem::path written = perf::write_history_record(flags.dir, record);
    std::cout << "recorded " << with_samples << " benchmarks of " << run.path.string() << " (run "
              << record.run_date << ", revision " << rev << " from " << rev_source << ", machine "
              << machine.fingerprint << " " << machine_summary(machine) << ")\n"
              << "wrote " << written.string() << "\n";
    return kExitOk;
  } catch (const perf::PerfInputError& e) {
    std::cerr << "oprig history add: " << e.what() << "\n";
    return kExitBadInput;
  }
}

int run_show(const ShowFlags& flags) {
  try {
    const std::vector<perf::HistoryRecord> records = perf::read_history(flags.dir);
    if (records.empty()) throw perf::PerfInputError(flags.dir + ": no history records (*.json) in this folder");
    const perf::TimeMetric metric =
        flags.metric == "cpu_time" ? perf::TimeMetric::kCpuTime : perf::TimeMetric::kRealTime;
    const perf::SeriesSelection selection =
        perf::select_series(records, metric, flags.machine, flags.any_machine, flags.last);
    if (selection.records_used == 0)
      throw perf::PerfInputError(flags.dir + ": no record of machine " + flags.machine);
    perf::ChangePointOptions options;
    options.min_effect = flags.min_effect;
    const perf::HistoryReport report = perf::analyse_history(flags.dir, records, selection, metric, options);
    std::cout << perf::render_history_text(report);
    if (!flags.html.empty()) {
      reports::write_file_atomically(flags.html, perf::render_history_html(report));
      std::cout << "wrote " << flags.html << "\n";
    }
    return kExitOk;
  } catch (const perf::PerfInputError& e) {
    std::cerr << "oprig history show: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const reports::ReportWriteError& e) {
    std::cerr << "oprig history show: " << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace

void add_history_command(CLI::App& root, int* exit_code) {
  CLI::App* history = root.add_subcommand(
      "history",
      "The nightly performance history: one record per bench run in a folder, trends with change points.\n"
      "Exit codes: 0 done; 2 bad input (an unreadable or malformed file, nothing to record, no records).");
  history->require_subcommand(1);

  auto add = std::make_shared<AddFlags>();
  CLI::App* add_cmd = history->add_subcommand(
      "add", "Append one bench run to the history folder as HIST/<UTC date>_<git rev>_<fingerprint>.json.");
  add_cmd->footer(
      "Append one bench run to the history: writes HIST/<UTC date>_<git rev>_<machine fingerprint>.json\n"
      "(a second run the same night gets _2, _3, ...; an existing file is never overwritten) with every\n"
      "repetition of every benchmark, the run's date, its git revision (--git-rev, else the bench output's,\n"
      "else this oprig build's) and the machine (CPU model and signature, cores, vector ISA, each backend's\n"
      "device and driver, hashed into the fingerprint; described now unless the bench output carries it).\n"
      "Exit codes: 0 recorded; 2 bad input (unreadable bench output, no per-repetition entries, unwritable folder).");
  add_cmd->add_option("--dir", add->dir, "History folder (created if missing)")->required();
  add_cmd->add_option("BENCH_OUT", add->bench_out, "An `oprig bench` output folder or a Google Benchmark JSON file")
      ->required();
  add_cmd->add_option("--git-rev", add->git_rev, "The git revision the run measured (default: see above)");
  add_cmd->callback([add, exit_code] { *exit_code = run_add(*add); });

  auto show = std::make_shared<ShowFlags>();
  CLI::App* show_cmd = history->add_subcommand(
      "show", "Print each benchmark's nightly trend with change points and drift; --html draws them.");
  show_cmd->footer(
      "Print each benchmark's trend over the nights (median of the repetitions per night) with its change\n"
      "points, and optionally write a self-contained HTML page with one chart per benchmark.\n"
      "Steps: the least-L1 piecewise-constant fit of the log medians, with a penalty per step scaled by the\n"
      "series' own night-to-night noise (a 5 % step on 1 % noise is found). Drift: a Theil-Sen line that\n"
      "explains the series more cheaply than steps, with its slope's 95 % interval excluding 0 and a total\n"
      "change of at least --min-effect (1 % a night shows within 10 nights). Only records of one machine are\n"
      "compared: the newest record's, or --machine, unless --any-machine.\n"
      "Exit codes: 0 shown; 2 bad input (no such folder, a malformed record, no records, unwritable --html).");
  show_cmd->add_option("--dir", show->dir, "History folder")->required();
  show_cmd->add_option("--html", show->html, "Also write the trend page here");
  show_cmd->add_option("--machine", show->machine, "Machine fingerprint to show (default: the newest record's)");
  show_cmd->add_flag("--any-machine", show->any_machine, "Use the records of every machine together");
  show_cmd->add_option("--last", show->last, "Use only the newest N nights (0: all)")->capture_default_str();
  show_cmd->add_option("--metric", show->metric, "real_time or cpu_time")
      ->check(CLI::IsMember({"real_time", "cpu_time"}))
      ->capture_default_str();
  show_cmd->add_option("--min-effect", show->min_effect, "Smallest total drift over the window that counts (fraction)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  show_cmd->callback([show, exit_code] { *exit_code = run_show(*show); });
}

}  // namespace oprig::cli
