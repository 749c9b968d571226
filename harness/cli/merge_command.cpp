#include "cli/merge_command.hpp"

#include <iostream>
#include <memory>

#include "cli/main_context.hpp"
#include "farm/merge.hpp"
#include "oprig/verdict.hpp"
#include "reports/atomic_file.hpp"
#include "reports/reporter.hpp"
#include "reports/summary.hpp"
#include "runner/out_folder_lock.hpp"
#include "runner/run_identity.hpp"
#include "runner/suite.hpp"

namespace oprig::cli {
namespace {

constexpr size_t kMissingShown = 20;

struct MergeFlags {
  std::vector<std::string> inputs;
  std::string out;
  bool devices = false;
};

int run_merge(const MergeFlags& flags) {
  const std::filesystem::path out = flags.out;
  for (const std::string& input : flags.inputs)
    if (std::filesystem::exists(input) && std::filesystem::exists(out) && std::filesystem::equivalent(input, out))
      throw harness::InputError("-o " + flags.out + " is one of the inputs; merge into a folder of its own");
  harness::farm::MergeRequest request;
  request.inputs.assign(flags.inputs.begin(), flags.inputs.end());
  request.devices = flags.devices;
  request.command_line = invoked_command_line();
  const harness::farm::Merged merged = harness::farm::merge_outputs(request);
  const reports::RunResults& results = merged.results;

  const harness::OutFolderLock lock(out);
  if (!merged.identity.is_null())
    reports::write_file_atomically(out / harness::kRunIdentityFile, merged.identity.dump(2) + "\n");
  if (!merged.benchmarks.is_null())
    reports::write_file_atomically(out / "benchmark.json", merged.benchmarks.dump(2) + "\n");
  reports::write_all_reports(results, out);

  std::cout << "merged " << results.farm.inputs.size() << " input(s), " << results.cases.size() << " case results";
  if (!results.farm.devices.empty()) std::cout << " on " << results.farm.devices.size() << " devices";
  std::cout << "\n";
  for (const reports::DeviceRecord& d : results.farm.devices) std::cout << "  " << d.id << ": " << d.label << "\n";
  std::cout << reports::summary_table(results) << "\n";
  for (const std::string& note : merged.notes) std::cout << "note: " << note << "\n";
  const std::vector<std::string>& missing = results.farm.missing;
  for (size_t i = 0; i < missing.size() && i < kMissingShown; ++i) std::cout << "MISSING         " << missing[i] << "\n";
  if (missing.size() > kMissingShown)
    std::cout << "... " << missing.size() - kMissingShown << " more MISSING cases in results.json (farm.missing)\n";
  std::cout << "results: " << std::filesystem::absolute(out / "results.json").string() << "\n";
  std::cout << "junit:   " << std::filesystem::absolute(out / "junit.xml").string() << "\n";
  std::cout << "report:  " << std::filesystem::absolute(out / "report.html").string() << "\n";
  if (!missing.empty()) {
    std::cout << "INCOMPLETE: " << results.incomplete_reason << "\n";
    return kExitFailure;
  }
  return reports::exit_code_for(results);
}

}  // namespace

void add_merge_command(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<MergeFlags>();
  CLI::App* cmd = root.add_subcommand(
      "merge",
      "Merge the output folders of a run's shards (oprig run|bench --shard, or a job array) into one results.json,\n"
      "junit.xml and report.html, checking that they are parts of one run (packages' SHA-256, selection, inputs).\n"
      "A case of the selection that no input ran is MISSING, and the merge exits 1; a case with two verdicts is\n"
      "an error naming it. With --devices, runs of one selection on different devices (from their environments)\n"
      "become a device matrix in report.html: op x backend rows, a column per device, differing cases first.");
  cmd->add_option("inputs", flags->inputs, "Output folders (or their results.json) of the shards or devices")
      ->required();
  cmd->add_option("-o,--out", flags->out, "Folder for the merged results.json, junit.xml, report.html")->required();
  cmd->add_flag("--devices", flags->devices,
                "The inputs ran on different devices: group them by device (each group merged as shards), one "
                "column each");
  cmd->callback([flags, exit_code] { *exit_code = run_merge(*flags); });
}

}  // namespace oprig::cli
