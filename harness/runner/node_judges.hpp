// Who says which derived nodes are valid (cases/derive_nodes.hpp), by
// package, as the oracle is chosen:
//  - oprig's bundled fp64 reference, for the bundled package's ops (and a
//    vendor's op on --bundled-reference): a node is valid when the reference
//    computes it; it throws std::invalid_argument for nodes the op does not
//    define;
//  - the package's own reference (shapes() answering INVALID_ARGUMENT or
//    UNSUPPORTED rejects) and its validate hook, each where it has one.
// The package's judges run its code: oprig's main process derives through
// a child (`oprig __derive-plan`, derive_plan_in_child) so that a reference
// that crashes takes the child down, not oprig.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/derive_nodes.hpp"
#include "cases/derive_plan.hpp"
#include "common/reference.hpp"
#include "package/loader.hpp"

namespace oprig::harness {

struct OpJudges {
  std::vector<std::unique_ptr<NodeJudge>> owned;
  std::vector<LayoutJudge> per_layout;  // empty: nobody can judge
};

// `bundled` non-null: oprig's reference judges (the caller decided it applies
// to this package). `package` may be null.
OpJudges make_judges(const OpCaseSpace& space, const Package* package, const opsuite::ReferenceOp* bundled);

// The derived plan of an op, judged as above, in this process.
nlohmann::ordered_json derive_plan_here(const OpCaseSpace& space, const std::string& spec_file, const Package* package,
                                        const opsuite::ReferenceOp* bundled);

// The same in a child process (`oprig __derive-plan`); throws
// PackageLoadCrash (runner/package_probe.hpp) when the child dies, naming
// the package, and std::runtime_error for anything else it reports.
nlohmann::ordered_json derive_plan_in_child(const std::filesystem::path& spec_path, const std::string& op,
                                            const std::filesystem::path& package_path, bool bundled_reference,
                                            const std::string& spec_file);

// The child's side: prints the plan as JSON on stdout; returns the exit code.
int derive_plan_command(const std::filesystem::path& spec_path, const std::string& op,
                        const std::filesystem::path& package_path, bool bundled_reference, const std::string& spec_file);

}  // namespace oprig::harness
