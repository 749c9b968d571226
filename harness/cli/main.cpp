// oprig: conformance and benchmarking rig for custom neural-network operators.
#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>

#include "cli/backends_command.hpp"
#include "cli/bench_command.hpp"
#include "cli/calibrate_command.hpp"
#include "cli/compare_command.hpp"
#include "cli/golden_command.hpp"
#include "cli/history_command.hpp"
#include "cli/main_context.hpp"
#include "cli/model_command.hpp"
#include "cli/package_command.hpp"
#include "cli/plan_command.hpp"
#include "cli/validate_command.hpp"
#include "cli/report_command.hpp"
#include "cli/run_command.hpp"
#include "cli/spec_command.hpp"
#include "oprig/verdict.hpp"
#include "package/loader.hpp"
#include "runner/suite.hpp"

namespace oprig::cli {
namespace {
std::string g_command_line;
}
const std::string& invoked_command_line() { return g_command_line; }
}  // namespace oprig::cli

int main(int argc, char** argv) {
  // A worker that dies before reading its case list must not take oprig down
  // with SIGPIPE: the write fails with EPIPE and the death is reported instead.
  std::signal(SIGPIPE, SIG_IGN);
  for (int i = 0; i < argc; ++i) oprig::cli::g_command_line += (i ? " " : "") + std::string(argv[i]);
  CLI::App app{
      "oprig " OPRIG_VERSION " - conformance and benchmarking rig for custom NN operators.\n"
      "Checks every op of a suite on every backend (cpu, opencl, vulkan, dsp) against an fp64 reference\n"
      "and reports results.json, junit.xml and report.html.\n"
      "Exit codes: 0 every case that ran passed and something was tested; 1 a case failed (or, for compare, a\n"
      "regression); 2 bad input or usage (nothing ran); 3 nothing was tested (every case SKIPPED or UNIMPLEMENTED,\n"
      "or a backend named with --backend is unavailable)."};
  app.require_subcommand(1);
  int exit_code = oprig::kExitOk;
  oprig::cli::add_run_command(app, &exit_code);
  oprig::cli::add_bench_command(app, &exit_code);
  oprig::cli::add_compare_command(app, &exit_code);
  oprig::cli::add_history_command(app, &exit_code);
  oprig::cli::add_calibrate_command(app, &exit_code);
  oprig::cli::add_backends_command(app, &exit_code);
  oprig::cli::add_spec_command(app, &exit_code);
  oprig::cli::add_golden_command(app, &exit_code);
  oprig::cli::add_report_command(app, &exit_code);
  oprig::cli::add_model_command(app, &exit_code);
  oprig::cli::add_plan_command(app, &exit_code);
  oprig::cli::add_package_command(app, &exit_code);
  oprig::cli::add_validate_command(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? oprig::kExitOk : oprig::kExitBadInput;
  } catch (const oprig::harness::InputError& e) {
    std::cerr << "oprig: " << e.what() << "\n";
    return oprig::kExitBadInput;
  } catch (const oprig::PackageError& e) {
    std::cerr << "oprig: " << e.what() << "\n";
    return oprig::kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "oprig: " << e.what() << "\n";
    return oprig::kExitBadInput;
  }
  return exit_code;
}
