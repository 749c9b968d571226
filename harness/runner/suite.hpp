// What a run is about: the ops selected from a suite folder or one spec file,
// each with its spec, test plan, case space, fp64 reference, tolerances and
// the package that implements it — all checked against each other before any
// case runs.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/case.hpp"
#include "models/model_case.hpp"
#include "runner/case_executor.hpp"
#include "runner/keep_policy.hpp"

namespace oprig::harness {

// Bad input or usage: the CLI prints it and exits 2, nothing runs.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Selection {
  std::optional<std::filesystem::path> suite_dir;  // default: the bundled opsuite/
  std::optional<std::filesystem::path> spec_file;
  std::vector<std::filesystem::path> packages;     // default: the bundled opsuite package
  std::string op;                                  // empty: all
  std::vector<std::string> backends;               // resolved names
  std::string case_id;                             // empty: all
  std::vector<std::filesystem::path> golden_dirs;  // golden cases to run besides the generated ones
  bool golden_only = false;                        // ... instead of them
  std::string reference_backend;                   // judge the other backends against the package's kernel here
  // A kernel the package claims for a backend that refuses (UNSUPPORTED in
  // prepare) a data type the spec declares there is FAILED, not UNIMPLEMENTED
  // (`run --strict`, always in `validate`).
  bool strict = false;
  // --bundled-reference: oprig's own fp64 reference of an op of the same name
  // judges a vendor package's op (it always judges the bundled package's).
  bool bundled_reference = false;
  // --keep-outputs: what a case's kernel computed, kept beside its inputs and
  // expected outputs (not part of the run's identity: --resume may change it).
  KeepPolicy keep;
};

struct LoadedOp {
  std::filesystem::path spec_path;
  TestPlan plan;
  OpCaseSpace space;
  OpContext context;  // points into this object: LoadedOp is pinned (unique_ptr)
  Package* package = nullptr;
  std::vector<std::filesystem::path> golden_dirs;  // --golden, plus golden/ beside a --spec file
  bool has_generated_oracle = false;  // a reference or --reference-backend judges generated cases
};

struct Suite {
  std::vector<std::unique_ptr<Package>> packages;
  std::vector<std::unique_ptr<LoadedOp>> ops;
  // Model suites (<suite dir>/<name>/suite.json): graph-level cases such as
  // control flow. Only read from a suite folder, never with --spec.
  std::vector<std::unique_ptr<models::LoadedModelSuite>> model_suites;
};

// The packages a model suite names, found by file name next to the bundled
// package (and in the folders beside it) plus every --package library.
graph::PackageLibrary load_model_packages(const models::LoadedModelSuite& suite, const Selection& selection);

// Where the packages' own load-time code may run: oprig's main process first
// loads each one in a throwaway child (runner/package_probe.hpp) so a crash
// there cannot take oprig down; a worker is such a child already.
enum class PackageLoading { kCheckInChildFirst, kInThisProcess };

// Throws InputError naming the file and what is wrong, PackageLoadCrash when
// a package crashes while loading.
Suite load_suite(const Selection& selection, PackageLoading loading = PackageLoading::kCheckInChildFirst);

// The package name of the bundled opsuite: oprig's fp64 references judge
// this package's ops by default, any other package's only on request.
inline constexpr const char* kBundledPackageName = "org.oprig.opsuite";

// The bundled locations: OPRIG_OPSUITE_DIR / OPRIG_PACKAGE when set, else an
// installed layout beside the binary (../share/oprig, ../lib/oprig), else the
// source and build trees (compile definitions).
std::filesystem::path installed_path(const std::filesystem::path& relative);  // empty when absent
std::filesystem::path default_suite_dir();
std::filesystem::path default_package_path();

// The argument list that re-creates `selection` in a worker (`oprig __worker`).
std::vector<std::string> selection_args(const Selection& selection);

// Every case of one loaded op on the given backends: generated from the plan,
// then the golden cases of the selection's golden folders.
std::vector<Case> op_cases(const LoadedOp& op, const Selection& selection, const std::vector<std::string>& backends);

// Spec -> case space (tensors with their data types per backend, parameters
// with types, enumerations and defaults), and the spec <-> package agreement
// check; both throw InputError.
OpCaseSpace case_space_from_spec(const std::filesystem::path& spec_path, const std::string& op);
void check_package_against_spec(const Package& package, const std::filesystem::path& spec_path,
                                const std::string& op);

}  // namespace oprig::harness
