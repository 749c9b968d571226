// oprig: conformance and benchmarking rig for custom neural-network operators.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <csignal>
#include <iostream>

#include "cli/backends_command.hpp"
#include "cli/bench_command.hpp"
#include "cli/calibrate_command.hpp"
#include "cli/compare_command.hpp"
#include "cli/expectations_command.hpp"
#include "cli/golden_command.hpp"
#include "cli/history_command.hpp"
#include "cli/main_context.hpp"
#include "cli/merge_command.hpp"
#include "cli/model_command.hpp"
#include "cli/package_command.hpp"
#include "cli/plan_command.hpp"
#include "cli/validate_command.hpp"
#include "cli/report_command.hpp"
#include "cli/run_command.hpp"
#include "cli/spec_command.hpp"
#include "oprig/verdict.hpp"
#include "package/loader.hpp"
#include "runner/package_probe.hpp"
#include "runner/suite.hpp"
#include "runner/supervisor.hpp"

namespace oprig::cli {
namespace {
std::string g_command_line;

constexpr const char* kExitCodes =
    "Exit codes: 0 every case that ran passed and something was tested; 1 a case failed (or, for compare, a\n"
    "regression; or a package crashed while loading); 2 bad input or usage (nothing ran); 3 nothing was tested\n"
    "(every case SKIPPED or UNIMPLEMENTED, or a backend named with --backend is unavailable); 4 results could not\n"
    "be written (disk full: the run stops at the first failed write); 130/143 stopped by SIGINT/SIGTERM (what\n"
    "finished is kept: --resume continues).";

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// `oprig runn`: CLI11 would only say that a subcommand is required. Names the
// word and the visible command nearest to it; empty when `word` is a command.
std::string unknown_command_message(const CLI::App& app, const std::string& word) {
  std::string best;
  size_t best_distance = std::string::npos;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == word) return "";
    if (sub->get_group().empty()) continue;  // internal commands are never suggested
    const size_t d = edit_distance(word, sub->get_name());
    if (d < best_distance) {
      best_distance = d;
      best = sub->get_name();
    }
  }
  std::string message = "unknown command '" + word + "'";
  if (best_distance <= std::max<size_t>(2, word.size() / 3)) message += "; did you mean '" + best + "'?";
  return message + " (oprig --help lists the commands)";
}
}  // namespace
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
      "Exit codes: see the end of this help."};
  app.footer(oprig::cli::kExitCodes);
  app.require_subcommand(1);
  app.set_version_flag("--version", "oprig " OPRIG_VERSION);
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
  oprig::cli::add_merge_command(app, &exit_code);
  oprig::cli::add_expectations_command(app, &exit_code);
  // Internal: load one package and nothing else, for runner/package_probe.hpp.
  std::string probe_path;
  CLI::App* probe = app.add_subcommand("__load-package", "")->group("");
  probe->add_option("path", probe_path)->required();
  probe->callback([&] { exit_code = oprig::harness::load_package_in_this_process(probe_path); });
  // Every command's --help states the exit codes; compare, history and
  // calibrate state their own.
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->get_description().find("Exit code") == std::string::npos) sub->footer(oprig::cli::kExitCodes);
  if (argc > 1 && argv[1][0] != '-') {
    const std::string message = oprig::cli::unknown_command_message(app, argv[1]);
    if (!message.empty()) {
      std::cerr << "oprig: " << message << "\n";
      return oprig::kExitBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? oprig::kExitOk : oprig::kExitBadInput;
  } catch (const oprig::harness::PackageLoadCrash& e) {
    // The package failed, not the user's input: a failure like any CRASH.
    std::cerr << "oprig: " << e.what() << "\n";
    return oprig::kExitFailure;
  } catch (const oprig::harness::ResultsStreamError& e) {
    std::cerr << "oprig: " << e.what() << "\n";
    return oprig::kExitCannotWrite;
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
