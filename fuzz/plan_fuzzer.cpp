// plan.json (opsuite/<op>/plan.json, `oprig run --spec`): load_plan, then
// what a run does with the plan before any kernel runs, against the spec of
// the op it names: ranks, tolerance tables, every case and golden case.
#include <stdexcept>

#include "cases/case.hpp"
#include "cases/derive_plan.hpp"
#include "cases/plan.hpp"
#include "fuzz_support.hpp"
#include "opsuite_spaces.hpp"
#include "runner/tolerance_table.hpp"

using namespace oprig;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)fuzz::space_for("atan");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = fuzz::write_scratch("plan.json", data, size);
  harness::TestPlan plan;
  if (!fuzz::reads_or_refuses<std::runtime_error>([&] { plan = harness::load_plan(path); }, path.string()))
    return 0;
  const harness::OpCaseSpace& space = fuzz::space_for(plan.op);
  // A plan that does not fit its spec is refused with std::runtime_error.
  fuzz::reads_or_refuses<std::runtime_error>(
      [&] {
        harness::check_plan_ranks(space, plan);
        (void)harness::parse_tolerance_table(plan.tolerance, space);
        for (const std::vector<harness::Fill>* fills : {&plan.fills, &plan.quantized_fills})
          for (const harness::Fill& fill : *fills)
            if (!fill.tolerance.is_null()) (void)harness::parse_tolerance_table(fill.tolerance, space);
        const std::vector<harness::Case> cases = harness::generate_cases(space, plan, fuzz::all_backends());
        const std::vector<harness::Case> golden = harness::golden_cases(space, plan);
        for (const harness::Case& c : cases)
          if (c.id.empty() || c.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
            fuzz::finding("case id '" + c.id + "' is not [a-z0-9_] (ids are folder names and shell arguments)");
      },
      "");
  return 0;
}
