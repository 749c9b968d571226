#include "cli/calibrate_command.hpp"

#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "oprig/verdict.hpp"
#include "perf/calibrate_run.hpp"
#include "perf/perf_error.hpp"

namespace oprig::cli {
namespace {

struct CalibrateFlags {
  std::string out = "oprig-calibration.json";
  bool force = false;
  std::string backends;
  int repetitions = 9;
  double batch_ms = 20;
  bool quick = false;
  double max_working_set_mib = 0;
  std::string package;
  bool json = false;
};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty() && item != "all") out.push_back(item);
  return out;
}

int run_calibrate(const CalibrateFlags& flags) {
  try {
    std::error_code ec;
    if (!flags.force && std::filesystem::exists(flags.out, ec))
      throw perf::PerfInputError(flags.out + ": exists already; --force replaces it, --out writes elsewhere");
    perf::CalibrateOptions options;
    options.backends = split_list(flags.backends);
    options.repetitions = flags.repetitions;
    options.batch_seconds = flags.batch_ms * 1e-3;
    options.quick = flags.quick;
    options.max_working_set = static_cast<uint64_t>(flags.max_working_set_mib * 1024 * 1024);
    options.package = flags.package.empty() ? perf::built_calibration_package() : std::filesystem::path(flags.package);
    options.progress = [](const std::string& line) { std::cerr << "calibrate " << line << "\n"; };
    const perf::Calibration calibration = perf::run_calibration(options);
    perf::write_calibration_file(flags.out, calibration, flags.force);
    if (flags.json) std::cout << perf::calibration_to_json(calibration).dump(2) << "\n";
    else std::cout << perf::render_calibration_text(calibration);
    std::cout << "wrote " << std::filesystem::absolute(flags.out).string() << "\n";
    return kExitOk;
  } catch (const perf::PerfInputError& e) {
    std::cerr << "oprig calibrate: " << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace

void add_calibrate_command(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<CalibrateFlags>();
  CLI::App* cmd = root.add_subcommand(
      "calibrate", "Measure this machine's peaks per backend (bandwidth, FMA peak, launch overhead) for bench's\n"
                   "roofline and write them to oprig-calibration.json.");
  cmd->footer(
      "Measure this machine's peaks per backend and write them for bench's roofline.\n"
      "Through Backend::execute with the org.oprig.calibration package (opsuite/calibration), i.e. the path\n"
      "bench times: STREAM copy and triad bandwidth at working sets from 64 KiB to well beyond the last-level\n"
      "cache (STREAM's byte counts), FMA peak in GFLOP/s on the widest vector ISA the backend uses, and the\n"
      "time of one minimal execute (launch + wait; the floor every kernel pays on opencl and vulkan). Each\n"
      "figure: one warm-up repetition, then --repetitions repetitions of at least --batch-ms; median, min\n"
      "and max are kept. The dsp backend's peaks come from its simulator's cost model and are marked\n"
      "simulated. The file records the machine fingerprint: a calibration of another machine is refused.\n"
      "Exit codes: 0 written; 2 bad input (unknown backend, calibration package missing, the output file\n"
      "exists without --force, unwritable output).");
  cmd->add_option("--out", flags->out, "Calibration file to write")->capture_default_str();
  cmd->add_flag("--force", flags->force, "Replace an existing calibration file");
  cmd->add_option("--backend", flags->backends, "Comma-separated backends to calibrate (default: all built)");
  cmd->add_option("--repetitions", flags->repetitions, "Repetitions per figure")
      ->check(CLI::Range(3, 1000))
      ->capture_default_str();
  cmd->add_option("--batch-ms", flags->batch_ms, "Least duration of one repetition, in ms")
      ->check(CLI::Range(0.1, 10000.0))
      ->capture_default_str();
  cmd->add_option("--max-working-set-mib", flags->max_working_set_mib,
                  "Largest working set in MiB (default: 4 x L3, between 256 and 1024)")
      ->check(CLI::Range(1.0, 65536.0));
  cmd->add_flag("--quick", flags->quick, "Working sets up to 16 MiB only (a smoke test, not a calibration)");
  cmd->add_option("--package", flags->package, "The calibration package's registration library (default: the built one)");
  cmd->add_flag("--json", flags->json, "Print the calibration JSON instead of the table");
  cmd->callback([flags, exit_code] { *exit_code = run_calibrate(*flags); });
}

}  // namespace oprig::cli
