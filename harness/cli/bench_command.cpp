#include "cli/bench_command.hpp"

#include <benchmark/benchmark.h>

#include <iostream>
#include <optional>
#include <regex.h>

#include "bench/op_bench.hpp"
#include "cli/farm_options.hpp"
#include "cli/main_context.hpp"
#include "cli/number_checks.hpp"
#include "cli/selection_options.hpp"
#include "perf/calibration.hpp"
#include "perf/machine.hpp"
#include "perf/report_baseline.hpp"
#include "perf/this_build.hpp"
#include "reports/atomic_file.hpp"
#include "reports/reporter.hpp"
#include "reports/summary.hpp"
#include "runner/environment.hpp"
#include "runner/run_identity.hpp"

namespace oprig::cli {
namespace {

struct BenchFlags {
  SelectionFlags selection;
  std::string out = "oprig-bench";
  int repetitions = 0;
  double min_time = 0.2;
  double max_seconds = 270;
  double max_seconds_per_benchmark = 20;
  bool interleave = false;
  bool machine_controls = false;
  std::string calibration;
  std::string filter;
  std::string baseline;
  std::vector<std::string> base_packages;
  harness::farm::FarmOptions farm;  // --shard, --shard-count
};

// The calibrated peaks of this machine by backend; empty (with a warning) when
// the file describes another machine: its roofline would mark the wrong rows.
std::map<std::string, perf::BackendPeaks> peaks_of(const std::string& path, const perf::MachineInfo& machine) {
  std::map<std::string, perf::BackendPeaks> out;
  if (path.empty()) return out;
  perf::Calibration calibration;
  try {
    calibration = perf::read_calibration_file(path);
  } catch (const std::exception& e) {
    throw harness::InputError(e.what());
  }
  if (const std::string mismatch = perf::calibration_machine_mismatch(calibration, machine); !mismatch.empty()) {
    std::cerr << "oprig bench: " << path << " is not used for the roofline check: " << mismatch << "\n";
    return out;
  }
  for (const perf::BackendPeaks& p : calibration.backends)
    if (p.available) out[p.backend] = p;
  return out;
}

// run.json for `oprig merge`: what the bench was (its packages, selection and
// benchmarks), which shard of it, and the environment.
void write_bench_identity(const std::filesystem::path& out, const harness::Selection& selection,
                          reports::RunResults& results, const harness::BenchRun& run,
                          const std::optional<harness::farm::ShardSpec>& shard) {
  std::vector<std::string> planned;
  for (const reports::CaseResult& c : results.cases) planned.push_back(c.id);
  nlohmann::json identity = harness::run_identity(selection, results.environment.packages, planned);
  identity["command"] = "bench";
  harness::farm::annotate_identity(identity, shard, run.selected, results.environment);
  if (shard) {
    results.farm.shard = reports::ShardRecord{shard->index, shard->count, shard->source, run.selected.size()};
    std::cerr << "shard " << shard->index << "/" << shard->count << " (from " << shard->source << "): "
              << planned.size() << " of " << run.selected.size() << " benchmarks, "
              << static_cast<int>(100 * run.shard_cost_share + 0.5) << "% of the expected time\n";
  }
  std::filesystem::create_directories(out);
  reports::write_file_atomically(out / harness::kRunIdentityFile, identity.dump(2) + "\n");
}

}  // namespace

void add_bench_command(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<BenchFlags>();
  CLI::App* cmd = root.add_subcommand(
      "bench", "Time each op on each backend under Google Benchmark (real time: the device clock where the backend has\n"
               "one, host wall time on cpu and dsp; warm-up until stable, then at least 9 repetitions of at least\n"
               "--min-time) and write benchmark.json (Google Benchmark schema, every repetition) plus results.json and\n"
               "reports. After the timed loop each kernel's output is checked again; a timing above the calibrated\n"
               "roofline (--calibration) is MISTRUSTED.");
  add_selection_flags(*cmd, flags->selection);
  cmd->add_option("--out", flags->out, "Output folder")->capture_default_str();
  cmd->add_option("--repetitions", flags->repetitions, "Repetitions per benchmark (default: the plan's; at least 9)");
  cmd->add_option("--min-time", flags->min_time, "Minimum real seconds per repetition (> 0)")
      ->check(positive_at_most(3600, "seconds"))
      ->capture_default_str();
  cmd->add_option("--max-seconds", flags->max_seconds,
                  "Wall-clock cap of the whole bench; benchmarks that would pass it are not timed, and say so")
      ->capture_default_str();
  cmd->add_option("--max-seconds-per-benchmark", flags->max_seconds_per_benchmark,
                  "Wall-clock cap of one benchmark's warm-up and repetitions")
      ->capture_default_str();
  cmd->add_flag("--interleave", flags->interleave,
               "Run the repetitions of all benchmarks in one random interleaved order (Google Benchmark's random "
               "interleaving) instead of each benchmark's back to back: noise that lasts seconds then spreads over "
               "every benchmark instead of shifting a few. Keeps every benchmark's buffers until the end: pick ops "
               "(for the nightly gate, use it on both sides of `oprig compare`)");
  cmd->add_flag("--machine-controls", flags->machine_controls,
               "Time a 32 MiB memory copy and a dependent arithmetic chain before every repetition and write them "
               "beside it (counters control_copy_ns, control_compute_ns), for `oprig compare --machine-controls`; "
               "costs about 10 ms per libbenchmark call");
  cmd->add_option("--calibration", flags->calibration,
                  "oprig calibrate's file: rows faster than its roofline are MISTRUSTED timings");
  cmd->add_option("--baseline", flags->baseline,
                  "An earlier bench (its folder or results.json): report.html's performance table compares each "
                  "benchmark with it (as `oprig compare` judges) and lists the worst regression first; the exit "
                  "code stays the bench's (gate with `oprig compare`). Without it, --base-package's side is the "
                  "report's baseline");
  cmd->add_option("--base-package", flags->base_packages,
                  "A/B: the baseline build's package library (repeatable, like --package): every benchmark is timed "
                  "also with its kernel, in this process, the repetitions of both interleaved (implies "
                  "--interleave), and those timings go to OUT/base/benchmark.json; gate with `oprig compare "
                  "OUT/base OUT`. Both builds then see the same spells of a shared machine, which a stored "
                  "baseline from another hour does not (keep the accepted build's package folder as the baseline)");
  cmd->add_option("--filter", flags->filter, "Regex over benchmark names (case ids)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            // Checked here: Google Benchmark's own parse error is a silent empty run.
            // POSIX regcomp, not std::regex: GCC 12 warns inside <regex> under the
            // sanitizer build's -O1 (-Wmaybe-uninitialized), and warnings are errors.
            regex_t check;
            if (const int code = regcomp(&check, text.c_str(), REG_EXTENDED | REG_NOSUB); code != 0) {
              char reason[256];
              regerror(code, &check, reason, sizeof reason);
              return "'" + text + "' is not a valid regular expression: " + reason;
            }
            regfree(&check);
            return "";
          },
          "REGEX"));
  add_shard_flags(*cmd, flags->farm);
  cmd->callback([flags, exit_code] {
    harness::BenchOptions options;
    options.shard = harness::farm::resolve_shard(flags->farm.shard, flags->farm.shard_count,
                                                 harness::farm::process_environment());
    options.out_dir = flags->out;
    options.repetitions = flags->repetitions;
    options.min_time_s = flags->min_time;
    options.max_seconds = flags->max_seconds;
    options.max_seconds_per_benchmark = flags->max_seconds_per_benchmark;
    options.interleave = flags->interleave || !flags->base_packages.empty();
    options.machine_controls = flags->machine_controls;
    options.filter = flags->filter;
    if (const std::string bad = harness::check_bench_options(options); !bad.empty()) throw harness::InputError(bad);
    const harness::Selection selection = to_selection(flags->selection);
    reports::RunResults baseline_results;
    if (!flags->baseline.empty()) {
      try {  // read before timing anything: a bad baseline must not cost a whole bench
        baseline_results = perf::read_baseline_results(flags->baseline);
      } catch (const std::exception& e) {
        throw harness::InputError(std::string("--baseline: ") + e.what());
      }
    }
    const harness::Suite suite = harness::load_suite(selection);
    std::optional<harness::Suite> base;
    if (!flags->base_packages.empty()) {
      harness::Selection base_selection = selection;
      base_selection.packages.assign(flags->base_packages.begin(), flags->base_packages.end());
      try {
        base.emplace(harness::load_suite(base_selection));
      } catch (const harness::InputError& e) {
        throw harness::InputError(std::string("--base-package: ") + e.what());
      }
    }
    const perf::MachineInfo machine = perf::describe_this_machine();
    options.peaks = peaks_of(flags->calibration, machine);
    // compare and history tie the run to its machine and revision through these.
    benchmark::AddCustomContext("oprig_machine", perf::machine_to_json(machine).dump());
    benchmark::AddCustomContext("oprig_git_revision", perf::this_build_git_revision());
    reports::RunResults results;
    results.environment = harness::collect_environment(selection.backends, invoked_command_line());
    harness::BenchRun run = harness::run_benchmarks(suite, selection, options, base ? &*base : nullptr);
    results.cases = std::move(run.cases);
    results.environment.finished_at = harness::utc_now_iso8601();
    results.environment.packages = harness::package_records(selection, suite);
    write_bench_identity(flags->out, selection, results, run, options.shard);
    std::optional<reports::PerfBaseline> baseline;
    if (!flags->baseline.empty()) {
      baseline = perf::compare_with_baseline(baseline_results, results, perf::RegressionRule{}, flags->baseline);
    } else if (base) {  // A/B: the report's table judges this build against the base side of the same run
      reports::RunResults base_side;
      base_side.cases = run.base_cases;
      baseline = perf::compare_with_baseline(base_side, results, perf::RegressionRule{},
                                             "the --base-package side of this run");
    }
    reports::write_all_reports(results, flags->out, baseline ? &*baseline : nullptr);
    std::cout << reports::summary_table(results) << "\n";
    std::cout << "benchmark: " << std::filesystem::absolute(std::filesystem::path(flags->out) / "benchmark.json").string() << "\n";
    std::cout << "report:    " << std::filesystem::absolute(std::filesystem::path(flags->out) / "report.html").string() << "\n";
    if (base) {
      const std::filesystem::path out = std::filesystem::absolute(flags->out);
      std::cout << "base side: " << (out / "base" / "benchmark.json").string() << " (" << run.base_timed << " of "
                << run.timed << " benchmarks also timed with --base-package; gate: oprig compare "
                << (out / "base").string() << " " << out.string() << ")\n";
    }
    if (baseline)
      std::cout << "baseline:  " << baseline->count("REGRESSED") << " regressed, " << baseline->count("IMPROVED")
                << " improved, " << baseline->count("SAME") << " unchanged of " << baseline->rows.size()
                << " benchmarks timed in both (the report lists the worst first; gate with oprig compare)\n";
    if (!options.peaks.empty()) {
      const std::filesystem::path page = std::filesystem::path(flags->out) / "roofline.html";
      reports::write_file_atomically(page, harness::render_roofline_page(options.peaks, run.roofline));
      std::cout << "roofline:  " << std::filesystem::absolute(page).string() << "\n";
    }
    *exit_code = reports::exit_code_for(results);
    // Green means timed: a bench whose caps or verdicts left nothing timed tested nothing.
    if (*exit_code == kExitOk && run.timed == 0) {
      std::cerr << "oprig bench: no benchmark was timed\n";
      *exit_code = kExitNothingTested;
    }
  });
}

}  // namespace oprig::cli
