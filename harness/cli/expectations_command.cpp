#include "cli/expectations_command.hpp"

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "farm/expectations_update.hpp"
#include "farm/run_output.hpp"
#include "oprig/verdict.hpp"
#include "reports/atomic_file.hpp"
#include "runner/suite.hpp"

namespace oprig::cli {
namespace {

struct UpdateFlags {
  std::string run;
  std::string file;
};

int run_update(const UpdateFlags& flags) {
  const harness::farm::RunOutput run = harness::farm::read_run_output(flags.run);
  if (!run.results.farm.devices.empty())
    throw harness::InputError(flags.run + " is a device matrix: expectations are per device; update from each "
                              "device's run (or its merged shards)");
  if (!run.finished || !run.results.complete)
    std::cerr << "oprig expectations: " << flags.run << " is incomplete: cases it lacks get no line\n";
  std::string previous;
  if (std::ifstream in{flags.file, std::ios::binary}) {
    std::stringstream text;
    text << in.rdbuf();
    previous = text.str();
  }
  const harness::farm::ExpectationsUpdate update =
      harness::farm::update_expectations(previous, flags.file, run.results, std::filesystem::absolute(run.dir).string());
  reports::write_file_atomically(flags.file, update.text);
  std::cout << flags.file << ": " << update.kept << " line(s) kept, " << update.replaced << " replaced by exact ones, "
            << update.removed << " removed (their cases pass now), " << update.added << " added\n";
  return kExitOk;
}

}  // namespace

void add_expectations_command(CLI::App& root, int* exit_code) {
  CLI::App* cmd = root.add_subcommand(
      "expectations", "Expected results of a port: files of CASE_ID_GLOB,VERDICT[,reason] lines for run --expectations");
  cmd->require_subcommand(1);
  auto flags = std::make_shared<UpdateFlags>();
  CLI::App* update = cmd->add_subcommand(
      "update",
      "Write the expectations a run implies into FILE: a line per failing case (its verdict) and per FLAKY case;\n"
      "FILE's comments, reasons and globs that still hold are kept, lines whose cases pass now are dropped");
  update->add_option("run", flags->run, "The run's output folder (or its results.json; a merge of shards too)")
      ->required();
  update->add_option("-o,--output", flags->file, "The expectations file to write (read first when it exists)")
      ->required();
  update->callback([flags, exit_code] { *exit_code = run_update(*flags); });
}

}  // namespace oprig::cli
