#include "cli/validate_command.hpp"

#include <iostream>

#include "cli/keep_outputs_options.hpp"
#include "cli/main_context.hpp"
#include "cli/number_checks.hpp"
#include "cli/run_command.hpp"
#include "cli/selection_options.hpp"
#include "common/reference.hpp"
#include "oprig/verdict.hpp"
#include "package/loader.hpp"
#include "registry.hpp"
#include "runner/package_probe.hpp"
#include "spec/load.hpp"

namespace oprig::cli {
namespace {

struct ValidateFlags {
  std::string spec, package, reference_backend;
  std::vector<std::string> golden;
  bool golden_only = false;
  bool bundled_reference = false;
  RunOptions options;
  KeepFlags keep;
};

int validate(const ValidateFlags& f) {
  // 1. Lint: errors stop here; warnings are shown.
  std::cout << "== spec " << f.spec << "\n";
  const spec::LoadResult loaded = spec::load_spec_file(f.spec);
  for (const spec::SpecError& w : loaded.warnings) std::cout << "  " << w.to_string() << "\n";
  if (f.golden_only && f.golden.empty()) throw harness::InputError("--golden-only needs --golden DIR");
  if (!loaded.ok()) {
    std::string text;
    for (const spec::SpecError& e : loaded.errors) text += (text.empty() ? "" : "\n") + e.to_string();
    throw harness::InputError(text);
  }
  // 2. Load the package and read its registration.
  std::cout << "== package " << f.package << "\n";
  std::unique_ptr<Package> package;
  if (std::filesystem::exists(f.package)) harness::check_package_load_in_child(f.package);
  try {
    package = Package::load(f.package);
  } catch (const PackageError& e) {
    throw harness::InputError(e.what());
  }
  std::cout << "  " << package->name() << " " << package->version() << ": " << package->ops().size() << " op(s)"
            << (package->reference() ? ", ships its own reference" : ", ships no reference")
            << (package->registration().validate ? ", has a validate hook" : "") << "\n";
  // 3. Registration against the spec, for every op (the run checks again in each worker).
  uint32_t claimed = 0;
  for (const PackageOp& op : package->ops()) {
    bool in_spec = false;
    for (const spec::Package& p : loaded.packages)
      for (const spec::OpDef& d : p.ops) in_spec |= spec::iequals(d.name, op.name);
    if (!in_spec) throw harness::InputError(f.package + ": op '" + op.name + "' is not in " + f.spec);
    harness::check_package_against_spec(*package, f.spec, op.name);
    claimed |= op.backend_mask;
    std::cout << "  " << op.name << ": matches the spec; kernels for";
    for (const std::string& b : backend_names())
      if (op.backend_mask & OPRIG_BACKEND_BIT(backend_kind_from_name(b))) std::cout << " " << b;
    // Which reference judges the generated cases: by package, never by the op's name alone.
    const bool bundled_package = package->name() == harness::kBundledPackageName;
    const bool bundled_exists = opsuite::find_reference(op.name) != nullptr;
    std::cout << "; judged by ";
    if (bundled_exists && (bundled_package || f.bundled_reference))
      std::cout << "oprig's fp64 reference of its own " << op.name
                << (bundled_package ? "" : " (--bundled-reference; the package's own is not used)");
    else if (package->reference() != nullptr)
      std::cout << "the package's own reference";
    else
      std::cout << "no reference (golden vectors or --reference-backend only)"
                << (bundled_exists ? "; --bundled-reference would use oprig's own " + op.name : std::string());
    std::cout << "\n";
  }
  // 4. Conformance on every backend the package claims.
  harness::Selection selection;
  selection.spec_file = f.spec;
  selection.packages = {f.package};
  for (const std::string& g : f.golden) selection.golden_dirs.emplace_back(std::filesystem::absolute(g));
  selection.golden_only = f.golden_only;
  selection.reference_backend = f.reference_backend;
  selection.bundled_reference = f.bundled_reference;
  selection.strict = true;  // a claimed kernel refusing a declared data type is a defect, not a gap
  selection.keep = keep_policy(f.keep, f.options.out);
  for (const std::string& b : backend_names())
    if (claimed & OPRIG_BACKEND_BIT(backend_kind_from_name(b))) selection.backends.push_back(b);
  if (selection.backends.empty()) throw harness::InputError(f.package + ": the package claims no backend");
  std::cout << "== conformance on";
  for (const std::string& b : selection.backends) std::cout << " " << b;
  std::cout << "\n";
  const int code = run_conformance(selection, f.options, /*explicit_backends=*/true, invoked_command_line());
  std::cout << "validate: " << (code == kExitOk ? "PASSED" : code == kExitNothingTested ? "NOTHING TESTED" : "FAILED")
            << " (report to hand on: " << std::filesystem::absolute(std::filesystem::path(f.options.out) / "report.html").string()
            << ")\n";
  return code;
}

}  // namespace

void add_validate_command(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<ValidateFlags>();
  flags->options.out = "oprig-validate";
  CLI::App* cmd = root.add_subcommand(
      "validate",
      "The vendor flow in one command: lint the spec, load the package, check its registration against the spec,\n"
      "then run the conformance cases (the package's validate hook, every kernel) on every backend the package\n"
      "claims, judged by golden vectors (--golden, or golden/ beside the spec), the package's own reference, or\n"
      "another backend (--reference-backend), and write the report to hand on. Judged as `oprig run --strict`: a\n"
      "claimed kernel refusing a data type the spec declares for its backend is FAILED. Exit codes as `oprig run`: 0\n"
      "passed, 1 a case failed, 2 bad input, 3 nothing tested (e.g. every kernel still a stub).");
  cmd->add_option("--spec", flags->spec, "The spec (XML OpDef or JSON UDO config)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--package", flags->package, "The package's registration library (.so)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--golden", flags->golden, "Golden vectors (manifest.json + .npy) to judge against; repeatable")
      ->check(CLI::ExistingDirectory);
  cmd->add_flag("--golden-only", flags->golden_only,
                "Judge only by the --golden cases, not the cases derived from the spec (one oracle alone)");
  cmd->add_option("--reference-backend", flags->reference_backend,
                  "Judge the other backends against the package's kernel on this one (e.g. cpu)");
  add_bundled_reference_flag(*cmd, flags->bundled_reference);
  cmd->add_option("--out", flags->options.out, "Output folder for results and report.html")->capture_default_str();
  cmd->add_option("--jobs", flags->options.jobs, "Worker processes at once")->check(CLI::Range(1, 64));
  cmd->add_option("--case-timeout", flags->options.case_timeout_s, "Seconds a case may run before it is a TIMEOUT")
      ->check(positive_at_most(86400, "seconds"));
  add_keep_outputs_flags(*cmd, flags->keep);
  cmd->callback([flags, exit_code] { *exit_code = validate(*flags); });
}

}  // namespace oprig::cli
