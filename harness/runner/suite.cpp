#include "runner/suite.hpp"

#include <algorithm>
#include <cstdlib>

#include "compare/tolerance.hpp"
#include "cases/derive_plan.hpp"
#include "golden/golden_source.hpp"
#include "runner/node_judges.hpp"
#include "runner/package_probe.hpp"
#include "spec/load.hpp"

namespace oprig::harness {
namespace {

std::string quote_if_needed(const std::string& arg) {
  if (arg.find_first_of(" \t'\"$\\") == std::string::npos) return arg;
  std::string out = "'";
  for (char ch : arg) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace

std::filesystem::path installed_path(const std::filesystem::path& relative) {
  // An installed oprig (bin/oprig) keeps its data beside it: ../share/oprig, ../lib/oprig.
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const std::filesystem::path candidate = exe.parent_path().parent_path() / relative;
  return std::filesystem::exists(candidate) ? candidate : std::filesystem::path{};
}

std::filesystem::path default_suite_dir() {
  if (const char* env = std::getenv("OPRIG_OPSUITE_DIR")) return env;
  if (auto p = installed_path("share/oprig/opsuite"); !p.empty()) return p;
  return OPRIG_SOURCE_OPSUITE_DIR;
}

std::filesystem::path default_package_path() {
  if (const char* env = std::getenv("OPRIG_PACKAGE")) return env;
  if (auto p = installed_path("lib/oprig/liboprig_opsuite.so"); !p.empty()) return p;
  return OPRIG_BUILT_PACKAGE_PATH;
}

std::vector<std::string> selection_args(const Selection& s) {
  std::vector<std::string> args;
  if (s.spec_file) args.insert(args.end(), {"--spec", s.spec_file->string()});
  else if (s.suite_dir) args.insert(args.end(), {"--suite", s.suite_dir->string()});
  for (const auto& p : s.packages) args.insert(args.end(), {"--package", p.string()});
  for (const auto& g : s.golden_dirs) args.insert(args.end(), {"--golden", g.string()});
  if (s.golden_only) args.push_back("--golden-only");
  if (!s.reference_backend.empty()) args.insert(args.end(), {"--reference-backend", s.reference_backend});
  if (s.strict) args.push_back("--strict");
  if (s.bundled_reference) args.push_back("--bundled-reference");
  if (s.keep.mode != KeepMode::kNone)
    args.insert(args.end(), {"--keep-outputs", keep_mode_name(s.keep.mode), "--keep-outputs-dir", s.keep.dir.string(),
                             "--keep-outputs-cap-bytes", std::to_string(s.keep.cap_bytes)});
  return args;
}

std::vector<Case> op_cases(const LoadedOp& op, const Selection& selection, const std::vector<std::string>& backends) {
  std::vector<Case> cases;
  // Generated cases need an oracle of their own; golden cases bring theirs.
  if (!selection.golden_only && op.has_generated_oracle) cases = generate_cases(op.space, op.plan, backends);
  for (const auto& dir : op.golden_dirs) {
    std::vector<Case> more = golden_folder_cases(dir, op.space, backends);
    cases.insert(cases.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  return cases;
}

namespace {

// Where an op's plan comes from: a plan.json, or derived from the spec.
struct PlanSource {
  std::filesystem::path plan_file;               // empty: derived
  std::filesystem::path spec_path;               // the spec the op is read from
  std::string derived_op;                        // derived: the op's name in the spec
};

// --spec FILE: the plan.json beside it for the op it names, and a plan
// derived from the spec for every other op of the file.
std::vector<PlanSource> plans_for_spec(const std::filesystem::path& spec) {
  if (!std::filesystem::exists(spec)) throw InputError(spec.string() + ": no such spec file");
  std::vector<PlanSource> out;
  std::string planned_op;
  const auto plan = spec.parent_path() / "plan.json";
  if (std::filesystem::exists(plan)) {
    try {
      planned_op = load_plan(plan).op;
    } catch (const std::exception& e) {
      throw InputError(e.what());
    }
    out.push_back({plan, spec, ""});
  }
  spec::LoadResult loaded = spec::load_spec_file(spec);
  if (!loaded.ok()) {
    std::string text;
    for (const spec::SpecError& e : loaded.errors) text += (text.empty() ? "" : "\n") + e.to_string();
    throw InputError(text);
  }
  for (const spec::Package& p : loaded.packages)
    for (const spec::OpDef& op : p.ops)
      if (!spec::iequals(op.name, planned_op)) out.push_back({"", spec, op.name});
  return out;
}

}  // namespace

Suite load_suite(const Selection& selection, PackageLoading loading) {
  Suite suite;
  std::vector<PlanSource> sources;
  if (selection.spec_file) {
    sources = plans_for_spec(*selection.spec_file);
  } else {
    const auto dir = selection.suite_dir.value_or(default_suite_dir());
    try {
      for (const auto& plan_file : find_plans(dir)) sources.push_back({plan_file, "", ""});
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
    if (sources.empty() && suite.model_suites.empty())
      throw InputError(dir.string() + ": no <op>/plan.json or <suite>/suite.json in this suite folder");
  }

  const std::vector<std::filesystem::path> package_paths =
      selection.packages.empty() ? std::vector<std::filesystem::path>{default_package_path()}
                                 : selection.packages;
  for (const auto& path : package_paths) {
    if (loading == PackageLoading::kCheckInChildFirst && std::filesystem::exists(path))
      check_package_load_in_child(path);
    try {
      suite.packages.push_back(Package::load(path));
    } catch (const PackageError& e) {
      throw InputError(e.what());
    }
  }

  for (const PlanSource& source : sources) {
    auto op = std::make_unique<LoadedOp>();
    const std::string op_name = source.plan_file.empty() ? source.derived_op : "";
    if (!op_name.empty() && !selection.op.empty() && op_key(op_name) != op_key(selection.op)) continue;
    std::string where = source.plan_file.string();
    try {
      if (!source.plan_file.empty()) {
        op->plan = load_plan(source.plan_file);
      } else {
        // No plan.json for this op: derive one from the spec, its nodes judged
        // by what judges the package's op (runner/node_judges.hpp).
        const OpCaseSpace space = case_space_from_spec(source.spec_path, op_name);
        const Package* package = nullptr;
        size_t index = 0;
        for (size_t i = 0; i < suite.packages.size() && package == nullptr; ++i)
          if (suite.packages[i]->find_op(op_name) != nullptr) {
            package = suite.packages[i].get();
            index = i;
          }
        const opsuite::ReferenceOp* bundled = opsuite::find_reference(space.op);
        const bool use_bundled =
            bundled != nullptr && (selection.bundled_reference || (package != nullptr && package->name() == kBundledPackageName));
        const bool runs_package_code =
            !use_bundled && package != nullptr &&
            (package->reference() != nullptr || package->registration().validate != nullptr);
        const std::string spec_file = source.spec_path.filename().string();
        nlohmann::ordered_json text;
        if (runs_package_code && loading == PackageLoading::kCheckInChildFirst)
          text = derive_plan_in_child(source.spec_path, op_name, package_paths.at(index), selection.bundled_reference,
                                      spec_file);
        else
          text = derive_plan_here(space, spec_file, package, use_bundled ? bundled : nullptr);
        op->plan = parse_plan(nlohmann::json::parse(text.dump()), source.spec_path.parent_path() / "plan.json (derived)");
        op->plan.derived = true;
        where = source.spec_path.string() + " (derived plan)";
      }
    } catch (const InputError&) {
      throw;
    } catch (const PackageLoadCrash&) {
      throw;
    } catch (const std::exception& e) {
      throw InputError(e.what());
    }
    if (!selection.op.empty() && op_key(op->plan.op) != op_key(selection.op)) continue;
    op->spec_path = source.spec_path.empty() ? op->plan.dir / op->plan.spec : source.spec_path;
    op->space = case_space_from_spec(op->spec_path, op->plan.op);
    try {
      check_plan_ranks(op->space, op->plan);
    } catch (const std::exception& e) {
      throw InputError(e.what());
    }
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
    // References by package, not by name: oprig's bundled reference judges
    // the bundled package's ops; a vendor op of the same name may mean
    // something else, so its own reference judges it unless the user asks.
    const opsuite::ReferenceOp* bundled = opsuite::find_reference(op->plan.op);
    if (selection.bundled_reference && bundled == nullptr)
      throw InputError("--bundled-reference: oprig has no reference for an op named '" + op->plan.op + "'");
    if (bundled != nullptr && (op->package->name() == kBundledPackageName || selection.bundled_reference))
      op->context.reference = bundled;
    op->context.reference_requested = selection.bundled_reference;
    op->context.package_reference = op->package->reference();
    op->context.package_name = op->package->name();
    op->context.reference_backend = selection.reference_backend;
    op->golden_dirs = selection.golden_dirs;
    if (selection.spec_file && std::filesystem::is_directory(op->spec_path.parent_path() / "golden"))
      op->golden_dirs.push_back(std::filesystem::absolute(op->spec_path.parent_path() / "golden"));
    op->has_generated_oracle = op->context.reference != nullptr || op->context.package_reference != nullptr ||
                               !selection.reference_backend.empty();
    if (!op->has_generated_oracle && op->golden_dirs.empty())
      throw InputError(op->spec_path.string() + ": op '" + op->plan.op +
                       "': no oracle says what is right. Give one or more of: golden vectors (--golden DIR, or a "
                       "golden/ folder beside the spec; scripts/golden/make_golden.py writes them from NumPy), a "
                       "reference in the package (oprig_reference_v1 in oprig_package.h), or another backend of the "
                       "package (--reference-backend cpu). harness/README.md shows each." +
                       (bundled != nullptr ? " oprig has a reference for an op named '" + op->plan.op +
                                                 "' of its own package; --bundled-reference judges this one by it, "
                                                 "if it means the same"
                                           : std::string()));
    try {
      op->context.tolerances = parse_tolerance_table(op->plan.tolerance, op->space);
    } catch (const std::exception& e) {
      throw InputError(where + ": /tolerance: " + e.what());
    }
    for (const std::vector<Fill>* fills : {&op->plan.fills, &op->plan.quantized_fills})
      for (const Fill& fill : *fills) {
        if (fill.tolerance.is_null()) continue;
        try {
          op->context.fill_tolerances[fill.name] = parse_tolerance_table(fill.tolerance, op->space);
        } catch (const std::exception& e) {
          throw InputError(where + ": fill " + fill.name + ": /tolerance: " + e.what());
        }
      }
    for (const TensorSlot& out : op->space.outputs)
      if (op->plan.signed_zero_all) op->context.signed_zero_outputs.insert(out.name);
    for (const std::string& name : op->plan.signed_zero_outputs) {
      if (std::none_of(op->space.outputs.begin(), op->space.outputs.end(),
                       [&](const TensorSlot& s) { return s.name == name; }))
        throw InputError(where + ": /signed_zero: \"" + name + "\" is not an output of " + op->plan.op);
      op->context.signed_zero_outputs.insert(name);
    }
    for (size_t i = 0; i < op->plan.order_insensitive.size(); ++i)
      for (const std::string& name : op->plan.order_insensitive[i].outputs)
        if (std::none_of(op->space.outputs.begin(), op->space.outputs.end(),
                         [&](const TensorSlot& s) { return s.name == name; }))
          throw InputError(where + ": /order_insensitive/" + std::to_string(i) + ": \"" + name +
                           "\" is not an output of " + op->plan.op);
    // Absolute paths: the repro line works from any directory.
    std::string prefix = "oprig run --spec " + quote_if_needed(std::filesystem::absolute(op->spec_path).string());
    for (const auto& p : selection.packages)
      prefix += " --package " + quote_if_needed(std::filesystem::absolute(p).string());
    for (const auto& g : selection.golden_dirs) prefix += " --golden " + quote_if_needed(g.string());
    if (!selection.reference_backend.empty()) prefix += " --reference-backend " + selection.reference_backend;
    if (selection.strict) prefix += " --strict";
    if (selection.bundled_reference) prefix += " --bundled-reference";
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
