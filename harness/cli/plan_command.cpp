#include "cli/plan_command.hpp"

#include <filesystem>
#include <iostream>

#include "cases/derive_plan.hpp"
#include "common/reference.hpp"
#include "package/loader.hpp"
#include "runner/node_judges.hpp"
#include "runner/package_probe.hpp"
#include "oprig/verdict.hpp"
#include "reports/atomic_file.hpp"
#include "runner/case_executor.hpp"
#include "runner/suite.hpp"
#include "spec/load.hpp"

namespace oprig::cli {
namespace {

struct PlanFlags {
  std::string spec, op, out, package, spec_file;
  bool force = false;
  bool bundled_reference = false;
};

int init(const PlanFlags& f) {
  const std::filesystem::path spec_path = f.spec;
  spec::LoadResult loaded = spec::load_spec_file(spec_path);
  if (!loaded.ok()) {
    std::string text;
    for (const spec::SpecError& e : loaded.errors) text += (text.empty() ? "" : "\n") + e.to_string();
    throw harness::InputError(text);
  }
  std::vector<std::string> ops;
  for (const spec::Package& p : loaded.packages)
    for (const spec::OpDef& op : p.ops)
      if (f.op.empty() || spec::iequals(op.name, f.op)) ops.push_back(op.name);
  if (ops.empty()) throw harness::InputError(f.spec + ": no op" + (f.op.empty() ? "" : " named '" + f.op + "'"));
  if (ops.size() > 1)
    throw harness::InputError(f.spec + " defines " + std::to_string(ops.size()) +
                              " ops: choose one with --op (a plan.json is per op)");
  const std::filesystem::path out = f.out.empty() ? spec_path.parent_path() / "plan.json" : std::filesystem::path(f.out);
  if (std::filesystem::exists(out) && !f.force)
    throw harness::InputError(out.string() + " exists: not overwritten (--force replaces it)");
  const harness::OpCaseSpace space = harness::case_space_from_spec(spec_path, ops.front());
  // The plan names its spec relative to where the plan is written.
  const std::string spec_ref =
      std::filesystem::relative(std::filesystem::absolute(spec_path), std::filesystem::absolute(out).parent_path()).string();
  // The package whose op this is judges which nodes are valid, as in `oprig run --spec`:
  // --package, else the bundled package when it has the op.
  const std::filesystem::path package_path =
      f.package.empty() ? harness::default_package_path() : std::filesystem::path(f.package);
  std::unique_ptr<Package> package;
  if (std::filesystem::exists(package_path)) {
    harness::check_package_load_in_child(package_path);
    try {
      package = Package::load(package_path);
    } catch (const PackageError& e) {
      if (!f.package.empty()) throw harness::InputError(e.what());
    }
  } else if (!f.package.empty()) {
    throw harness::InputError(f.package + ": no such package");
  }
  if (package && package->find_op(space.op) == nullptr) {
    if (!f.package.empty())
      throw harness::InputError(f.package + ": the package has no op '" + space.op + "'");
    package.reset();
  }
  const opsuite::ReferenceOp* bundled = opsuite::find_reference(space.op);
  if (f.bundled_reference && bundled == nullptr)
    throw harness::InputError("--bundled-reference: oprig has no reference for an op named '" + space.op + "'");
  const bool use_bundled = bundled != nullptr && (f.bundled_reference || (package && package->name() == harness::kBundledPackageName));
  const bool runs_package_code = !use_bundled && package &&
                                 (package->reference() != nullptr || package->registration().validate != nullptr);
  nlohmann::ordered_json plan =
      runs_package_code ? harness::derive_plan_in_child(spec_path, space.op, package_path, f.bundled_reference, spec_ref)
                        : harness::derive_plan_here(space, spec_ref, package.get(), use_bundled ? bundled : nullptr);
  // The plan must load and fit the spec before it is written.
  harness::TestPlan parsed = harness::parse_plan(nlohmann::json::parse(plan.dump()), out);
  harness::check_plan_ranks(space, parsed);
  harness::parse_tolerance_table(parsed.tolerance, space);
  reports::write_file_atomically(out, plan.dump(2) + "\n");
  std::cout << "plan: " << out.string() << " (derived from " << f.spec << " for op " << space.op << ")\n";
  if (plan.contains("derivation")) {
    const auto& d = plan.at("derivation");
    std::cout << "  " << d.value("nodes", 0) << " nodes, each accepted by " << d.value("judge", std::string("?"))
              << "; " << d.value("candidates_rejected", 0) << " of " << d.value("candidates_judged", 0)
              << " candidates rejected";
    if (d.contains("rejected_examples") && !d.at("rejected_examples").empty())
      std::cout << " (e.g. " << d.at("rejected_examples")[0].get<std::string>() << ")";
    std::cout << "\n";
    if (d.contains("notes"))
      for (const auto& n : d.at("notes")) std::cout << "  note: " << n.get<std::string>() << "\n";
  } else {
    std::cout << "  " << plan.value("about", std::string()) << "\n";
  }
  if (!package) std::cout << "  not checked against a package: give --package to have its reference judge the nodes\n";
  std::cout << "  edit shapes, fills and tolerances to fit the op (harness/README.md)\n";
  return kExitOk;
}

}  // namespace

void add_plan_command(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<PlanFlags>();
  CLI::App* cmd = root.add_subcommand("plan", "Test plans (plan.json): the harness knobs beside a spec");
  cmd->require_subcommand(1);
  CLI::App* init_cmd = cmd->add_subcommand(
      "init",
      "Write the plan oprig derives from a spec when there is no plan.json, for you to edit: valid nodes from the\n"
      "spec's shape texts and constraints, each accepted by the package's reference and validate hook (or oprig's\n"
      "reference of a bundled op), every parameter's domain swept, sizes and fills where kernels break, tolerances\n"
      "from the types and the work (harness/README.md). Exit 2 on bad input or when the file exists, 1 when the\n"
      "package crashes while judging.");
  init_cmd->add_option("--spec", flags->spec, "The spec (XML OpDef or JSON UDO config)")->required()->check(CLI::ExistingFile);
  init_cmd->add_option("--op", flags->op, "The op, when the spec defines several");
  init_cmd->add_option("-o,--out", flags->out, "Where to write (default: plan.json beside the spec)");
  init_cmd->add_flag("--force", flags->force, "Replace an existing file");
  init_cmd->add_option("--package", flags->package,
                       "The package whose reference and validate hook judge which nodes are valid (default: the\n"
                       "bundled package, when it has the op)")
      ->check(CLI::ExistingFile);
  init_cmd->add_flag("--bundled-reference", flags->bundled_reference,
                     "Judge the nodes with oprig's own reference of an op of the same name");
  init_cmd->callback([flags, exit_code] { *exit_code = init(*flags); });

  // Internal: the derivation in a child process, so a package's reference that crashes cannot take oprig down.
  CLI::App* derive = root.add_subcommand("__derive-plan", "")->group("");
  derive->add_option("--spec", flags->spec)->required();
  derive->add_option("--op", flags->op)->required();
  derive->add_option("--package", flags->package);
  derive->add_option("--spec-file", flags->spec_file)->required();
  derive->add_flag("--bundled-reference", flags->bundled_reference);
  derive->callback([flags, exit_code] {
    *exit_code = harness::derive_plan_command(flags->spec, flags->op, flags->package, flags->bundled_reference,
                                              flags->spec_file);
  });
}

}  // namespace oprig::cli
