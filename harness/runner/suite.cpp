#include "runner/suite.hpp"

#include <algorithm>
#include <cstdlib>

#include "compare/tolerance.hpp"
#include "golden/golden_source.hpp"

namespace oprig::harness {
namespace {

std::string quote_if_needed(const std::string& arg) {
  if (arg.find_first_of(" \t'\"$\\") == std::string::npos) return arg;
  std::string out = "'";
  for (char ch : arg) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace

std::filesystem::path default_suite_dir() {
  if (const char* env = std::getenv("OPRIG_OPSUITE_DIR")) return env;
  return OPRIG_SOURCE_OPSUITE_DIR;
}

std::filesystem::path default_package_path() {
  if (const char* env = std::getenv("OPRIG_PACKAGE")) return env;
  return OPRIG_BUILT_PACKAGE_PATH;
}

std::vector<std::string> selection_args(const Selection& s) {
  std::vector<std::string> args;
  if (s.spec_file) args.insert(args.end(), {"--spec", s.spec_file->string()});
  else if (s.suite_dir) args.insert(args.end(), {"--suite", s.suite_dir->string()});
  for (const auto& p : s.packages) args.insert(args.end(), {"--package", p.string()});
  for (const auto& g : s.golden_dirs) args.insert(args.end(), {"--golden", g.string()});
  if (s.golden_only) args.push_back("--golden-only");
  return args;
}

std::vector<Case> op_cases(const LoadedOp& op, const Selection& selection, const std::vector<std::string>& backends) {
  std::vector<Case> cases;
  if (!selection.golden_only) cases = generate_cases(op.space, op.plan, backends);
  for (const auto& dir : selection.golden_dirs) {
    std::vector<Case> more = golden_folder_cases(dir, op.space, backends);
    cases.insert(cases.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  return cases;
}

Suite load_suite(const Selection& selection) {
  Suite suite;
  std::vector<std::filesystem::path> plan_files;
  std::optional<std::filesystem::path> forced_spec;
  if (selection.spec_file) {
    if (!std::filesystem::exists(*selection.spec_file))
      throw InputError(selection.spec_file->string() + ": no such spec file");
    const auto plan = selection.spec_file->parent_path() / "plan.json";
    if (!std::filesystem::exists(plan))
      throw InputError(selection.spec_file->string() + ": no test plan (plan.json) beside the spec");
    plan_files.push_back(plan);
    forced_spec = selection.spec_file;
  } else {
    const auto dir = selection.suite_dir.value_or(default_suite_dir());
    try {
      plan_files = find_plans(dir);
    } catch (const std::exception& e) {
      throw InputError(e.what());
    }
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (selection.golden_only) break;  // model suites have no golden cases
      const auto file = entry.path() / "suite.json";
      const std::string name = entry.path().filename().string();
      if (!std::filesystem::exists(file)) continue;
      if (!selection.op.empty() && op_key(selection.op) != op_key(name)) continue;
      auto loaded = std::make_unique<models::LoadedModelSuite>();
      loaded->name = name;
      loaded->file = file;
      try {
        loaded->suite = models::read_suite(file);
      } catch (const std::exception& e) {
        throw InputError(e.what());
      }
      suite.model_suites.push_back(std::move(loaded));
    }
    std::sort(suite.model_suites.begin(), suite.model_suites.end(),
              [](const auto& a, const auto& b) { return a->name < b->name; });
    if (plan_files.empty() && suite.model_suites.empty())
      throw InputError(dir.string() + ": no <op>/plan.json or <suite>/suite.json in this suite folder");
  }

  const std::vector<std::filesystem::path> package_paths =
      selection.packages.empty() ? std::vector<std::filesystem::path>{default_package_path()}
                                 : selection.packages;
  for (const auto& path : package_paths) {
    try {
      suite.packages.push_back(Package::load(path));
    } catch (const PackageError& e) {
      throw InputError(e.what());
    }
  }

  for (const auto& plan_file : plan_files) {
    auto op = std::make_unique<LoadedOp>();
    try {
      op->plan = load_plan(plan_file);
    } catch (const std::exception& e) {
      throw InputError(e.what());
    }
    if (!selection.op.empty() && op_key(op->plan.op) != op_key(selection.op)) continue;
    op->spec_path = forced_spec.value_or(op->plan.dir / op->plan.spec);
    op->space = case_space_from_spec(op->spec_path, op->plan.op);
    for (const auto& package : suite.packages)
      if (package->find_op(op->plan.op) != nullptr) {
        op->package = package.get();
        break;
      }
    if (op->package == nullptr)
      throw InputError(op->spec_path.string() + ": op '" + op->plan.op + "' is in no loaded package (" +
                       package_paths.front().string() + (package_paths.size() > 1 ? ", ..." : "") + ")");
    check_package_against_spec(*op->package, op->spec_path, op->plan.op);
    op->context.plan = &op->plan;
    op->context.space = &op->space;
    op->context.reference = opsuite::find_reference(op->plan.op);
    if (op->context.reference == nullptr)
      throw InputError(plan_file.string() + ": no fp64 reference for op '" + op->plan.op + "'");
    try {
      op->context.tolerances = parse_tolerance_table(op->plan.tolerance, op->space);
    } catch (const std::exception& e) {
      throw InputError(plan_file.string() + ": /tolerance: " + e.what());
    }
    for (const std::vector<Fill>* fills : {&op->plan.fills, &op->plan.quantized_fills})
      for (const Fill& fill : *fills) {
        if (fill.tolerance.is_null()) continue;
        try {
          op->context.fill_tolerances[fill.name] = parse_tolerance_table(fill.tolerance, op->space);
        } catch (const std::exception& e) {
          throw InputError(plan_file.string() + ": fill " + fill.name + ": /tolerance: " + e.what());
        }
      }
    // Absolute paths: the repro line works from any directory.
    std::string prefix = "oprig run --spec " + quote_if_needed(std::filesystem::absolute(op->spec_path).string());
    for (const auto& p : selection.packages)
      prefix += " --package " + quote_if_needed(std::filesystem::absolute(p).string());
    for (const auto& g : selection.golden_dirs) prefix += " --golden " + quote_if_needed(g.string());
    op->context.repro_prefix = prefix;
    suite.ops.push_back(std::move(op));
  }
  if (suite.ops.empty() && suite.model_suites.empty()) throw InputError("no op or suite matches --op " + selection.op);
  return suite;
}

graph::PackageLibrary load_model_packages(const models::LoadedModelSuite& suite, const Selection& selection) {
  graph::PackageLibrary library;
  const std::filesystem::path built = default_package_path().parent_path();
  for (const std::string& file : suite.suite.package_files) {
    std::filesystem::path found;
    if (std::filesystem::exists(built / file)) found = built / file;
    for (const auto& entry : std::filesystem::directory_iterator(built))
      if (found.empty() && entry.is_directory() && std::filesystem::exists(entry.path() / file))
        found = entry.path() / file;
    if (found.empty()) throw InputError(suite.file.string() + ": package library " + file + " not found under " + built.string());
    try {
      library.load(found);
    } catch (const std::exception& e) {
      throw InputError(e.what());
    }
  }
  for (const auto& p : selection.packages) {
    try {
      library.load(p);
    } catch (const std::exception& e) {
      throw InputError(e.what());
    }
  }
  return library;
}

}  // namespace oprig::harness
