#include "cli/selection_options.hpp"

#include <sstream>

#include "cli/number_checks.hpp"
#include "registry.hpp"

namespace oprig::cli {

void add_selection_flags(CLI::App& command, SelectionFlags& flags) {
  command.add_option("--suite", flags.suite, "Suite folder with <op>/plan.json (default: the bundled opsuite/)")
      ->check(CLI::ExistingDirectory);
  command.add_flag("--golden-only", flags.golden_only, "Run only the --golden cases, not the generated ones");
  command.add_option("--reference-backend", flags.reference_backend,
                     "Judge every other backend against the package's own kernel on this backend (e.g. cpu: what a\n"
                     "vendor porting a cpu op to GPU/DSP checks first); that backend's own cases use the other oracles");
  command.add_option("--spec", flags.spec, "One spec file (XML OpDef or JSON UDO config) with plan.json beside it")
      ->check(CLI::ExistingFile);
  command.add_option("--op", flags.op, "Only this op or model suite (case-insensitive), e.g. atan, controlflow");
  command.add_option("--backend", flags.backends, "Comma-separated backends, or 'all' (cpu,opencl,vulkan,dsp)");
  command.add_option("--package", flags.packages,
                     "Op package registration library (.so); repeatable (default: the bundled opsuite package)")
      ->check(CLI::ExistingFile);
  command.add_option("--case", flags.case_id, "Run exactly this case id (as printed in repro lines)")
      ->check(non_empty("case id"));
  command.add_option("--golden", flags.golden,
                     "Also run the golden cases (manifest.json + .npy) found under this folder for the selected ops,\n"
                     "judged against their stored outputs; repeatable")
      ->check(CLI::ExistingDirectory);
  add_bundled_reference_flag(command, flags.bundled_reference);
}

void add_strict_flag(CLI::App& command, SelectionFlags& flags) {
  command.add_flag("--strict", flags.strict,
                   "A kernel the package claims for a backend that refuses (UNSUPPORTED from prepare) a data type\n"
                   "the spec declares for that backend is FAILED, not UNIMPLEMENTED (`oprig validate` always is)");
}

void add_bundled_reference_flag(CLI::App& command, bool& flag) {
  command.add_flag("--bundled-reference", flag,
                   "Judge another package's op by oprig's own fp64 reference of an op of the same name (by default\n"
                   "oprig's references judge only the bundled package's ops; a vendor's op is judged by its own\n"
                   "reference, golden vectors or --reference-backend)");
}

harness::Selection to_selection(const SelectionFlags& flags) {
  harness::Selection s;
  s.strict = flags.strict;
  s.bundled_reference = flags.bundled_reference;
  if (!flags.suite.empty() && !flags.spec.empty())
    throw harness::InputError("--suite and --spec exclude each other");
  if (!flags.suite.empty()) s.suite_dir = flags.suite;
  if (!flags.spec.empty()) s.spec_file = flags.spec;
  for (const auto& p : flags.packages) s.packages.emplace_back(p);
  for (const auto& g : flags.golden) s.golden_dirs.emplace_back(std::filesystem::absolute(g));
  if (flags.golden_only && flags.golden.empty()) throw harness::InputError("--golden-only needs --golden DIR");
  s.golden_only = flags.golden_only;
  if (!flags.reference_backend.empty()) {
    const std::vector<std::string> names = backend_names();
    if (std::find(names.begin(), names.end(), flags.reference_backend) == names.end())
      throw harness::InputError("unknown --reference-backend '" + flags.reference_backend + "' (cpu, opencl, vulkan, dsp)");
    s.reference_backend = flags.reference_backend;
  }
  s.op = flags.op;
  s.case_id = flags.case_id;
  const std::vector<std::string> known = backend_names();
  if (flags.backends == "all") {
    s.backends = known;
  } else {
    std::stringstream list(flags.backends);
    for (std::string name; std::getline(list, name, ',');) {
      if (name.empty()) continue;
      if (std::find(known.begin(), known.end(), name) == known.end())
        throw harness::InputError("unknown backend '" + name + "' (known: cpu, opencl, vulkan, dsp, all)");
      s.backends.push_back(name);
    }
  }
  if (!flags.case_id.empty()) {
    // A case id names its backend last: run it there whatever --backend says.
    const size_t sep = flags.case_id.rfind("__");
    if (sep == std::string::npos) throw harness::InputError("malformed case id '" + flags.case_id + "'");
    const std::string backend = flags.case_id.substr(sep + 2);
    if (std::find(known.begin(), known.end(), backend) == known.end())
      throw harness::InputError("case id '" + flags.case_id + "' names no known backend");
    // A --backend list that leaves the case's own backend out asks for a case that cannot run there.
    if (flags.backends != "all" && std::find(s.backends.begin(), s.backends.end(), backend) == s.backends.end())
      throw harness::InputError("case id '" + flags.case_id + "' is a case of backend " + backend +
                                ", but --backend asks for " + flags.backends +
                                " (the same case on another backend ends in __<backend>)");
    s.backends = {backend};
  }
  return s;
}

}  // namespace oprig::cli
