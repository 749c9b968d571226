#include "cli/plan_command.hpp"

#include <filesystem>
#include <iostream>

#include "cases/derive_plan.hpp"
#include "oprig/verdict.hpp"
#include "reports/atomic_file.hpp"
#include "runner/suite.hpp"
#include "spec/load.hpp"

namespace oprig::cli {
namespace {

struct PlanFlags {
  std::string spec, op, out;
  bool force = false;
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
  const nlohmann::ordered_json plan = harness::derive_plan_json(space, spec_ref);
  reports::write_file_atomically(out, plan.dump(2) + "\n");
  std::cout << "plan: " << out.string() << " (derived from " << f.spec << " for op " << space.op
            << "; edit shapes, fills and tolerances, see harness/README.md)\n";
  return kExitOk;
}

}  // namespace

void add_plan_command(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<PlanFlags>();
  CLI::App* cmd = root.add_subcommand("plan", "Test plans (plan.json): the harness knobs beside a spec");
  cmd->require_subcommand(1);
  CLI::App* init_cmd = cmd->add_subcommand(
      "init",
      "Write the plan oprig derives from a spec when there is no plan.json (shapes from each input's Rank, every\n"
      "enumeration value, defaults and a random variant inside each constraint range that parses, default\n"
      "tolerances with their sources), for you to edit. Exit 2 on bad input or when the file exists.");
  init_cmd->add_option("--spec", flags->spec, "The spec (XML OpDef or JSON UDO config)")->required()->check(CLI::ExistingFile);
  init_cmd->add_option("--op", flags->op, "The op, when the spec defines several");
  init_cmd->add_option("-o,--out", flags->out, "Where to write (default: plan.json beside the spec)");
  init_cmd->add_flag("--force", flags->force, "Replace an existing file");
  init_cmd->callback([flags, exit_code] { *exit_code = init(*flags); });
}

}  // namespace oprig::cli
