#include "opsuite_spaces.hpp"

#include <map>

#include "cases/plan.hpp"
#include "fuzz_support.hpp"
#include "registry.hpp"
#include "runner/suite.hpp"

namespace oprig::fuzz {
namespace {

// By lower-case op name.
const std::map<std::string, harness::OpCaseSpace>& spaces() {
  static const std::map<std::string, harness::OpCaseSpace> all = [] {
    std::map<std::string, harness::OpCaseSpace> m;
    for (const auto& plan_file : harness::find_plans(source_path("opsuite"))) {
      const harness::TestPlan plan = harness::load_plan(plan_file);
      m.emplace(harness::op_key(plan.op), harness::case_space_from_spec(plan.dir / plan.spec, plan.op));
    }
    if (m.count("atan") == 0) finding("opsuite/atan has no plan");
    return m;
  }();
  return all;
}

}  // namespace

const harness::OpCaseSpace& space_for(const std::string& op) {
  const auto it = spaces().find(harness::op_key(op));
  return it != spaces().end() ? it->second : spaces().at("atan");
}

const std::vector<std::string>& all_backends() {
  static const std::vector<std::string> names = backend_names();
  return names;
}

}  // namespace oprig::fuzz
