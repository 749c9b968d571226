// Planted bugs, end to end: the real `oprig` on test packages built against
// the public header only (tests/data/packages), each with one deliberate
// kernel bug, under the plans of tests/data/planted/. Every case the bug
// touches must get its verdict with a message naming the cause, every other
// case must pass (or be what the row says), the exit code must say so, and
// the repro line of a buggy case must reproduce its verdict.
//
// Which cases a bug touches is derived by hand from the plans and the
// documented rules, not from oprig's code:
//  - the safety-net faults fire on tensors of exactly 7 elements: the [7]
//    shape and the edge fill (one element per value: 7 values);
//  - the lifecycle passes run on one anchor per backend and type: the
//    largest case with a random fill that has a companion of the same fill
//    and parameters with another shape (harness/README.md), i.e. the 16384
//    uniform case of the first offset value, -0.0 (variant offsetm0p0_p0);
//  - atan(-0 + -0) is -0: the edge cases under offset -0 hold a -0 at index 1;
//  - the planted spec declares FLOAT_16 for CPU, so every f16 case of a
//    kernel that refuses FLOAT_16 is refused.
// PLANTED_GPU builds the opencl and vulkan rows instead (label device).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;

const std::filesystem::path kPlanted = kSourceDir / "tests" / "data" / "planted";

size_t element_size(const nlohmann::json& c) { return c.at("dtype") == "FLOAT_16" ? 2 : 4; }

bool seven_elements(const nlohmann::json& c) { return element_count(c) == 7; }
[[maybe_unused]] bool anchor(const nlohmann::json& c) {
  return c.at("id").get<std::string>().find("__16384__uniform__offsetm0p0_p0__") != std::string::npos;
}
[[maybe_unused]] bool float16(const nlohmann::json& c) { return c.at("dtype") == "FLOAT_16"; }
[[maybe_unused]] bool negative_zero_edge(const nlohmann::json& c) {
  return c.at("fill") == "edge" && c.at("id").get<std::string>().find("offsetm0p0") != std::string::npos;
}
bool none(const nlohmann::json&) { return false; }

struct Planted {
  const char* name;
  const char* package;
  const char* plan;                 // folder under tests/data/planted/
  std::vector<std::string> args;    // command and flags, without --spec/--package/--out
  std::function<bool(const nlohmann::json&)> touched;
  const char* verdict;              // of every touched case
  // The part of a touched case's message that names the cause.
  std::function<std::string(const nlohmann::json&)> cause;
  int exit_code;
  bool check_repro = true;
};

[[maybe_unused]] std::function<std::string(const nlohmann::json&)> text(const char* t) {
  return [t](const nlohmann::json&) { return std::string(t); };
}

// One past the end of a 7-element tensor: the red zone behind it from byte 7 x element size.
std::string red_zone_after_seven(const nlohmann::json& c) {
  const size_t at = 7 * element_size(c);
  return "red zone after the tensor written at bytes " + std::to_string(at) + ".." +
         std::to_string(at + element_size(c) - 1);
}

const std::vector<Planted>& rows() {
#if defined(PLANTED_GPU)
  static const std::vector<Planted> kRows = {
      {"vulkan_out_of_bounds", OPRIG_TEST_PACKAGE_VULKAN_OOB, "atan_gpu", {"run", "--backend", "vulkan"},
       seven_elements, "FAILED", red_zone_after_seven, 1},
      {"opencl_out_of_bounds", OPRIG_TEST_PACKAGE_OPENCL_OOB, "atan_gpu", {"run", "--backend", "opencl"},
       seven_elements, "FAILED", red_zone_after_seven, 1},
      {"correct_on_gpus", OPRIG_TEST_PACKAGE_GOOD_ALL_BACKENDS, "atan_gpu", {"run", "--backend", "opencl,vulkan"},
       none, "", text(""), 0},
  };
#else
  static const std::vector<Planted> kRows = {
      {"segfault", OPRIG_TEST_PACKAGE_SEGFAULT, "atan", {"run", "--backend", "cpu"}, seven_elements, "CRASH",
       text("signal 11"), 1},
      {"abort", OPRIG_TEST_PACKAGE_ABORT, "atan", {"run", "--backend", "cpu"}, seven_elements, "CRASH",
       text("signal 6"), 1},
      {"spin", OPRIG_TEST_PACKAGE_SPIN, "atan", {"run", "--backend", "cpu", "--case-timeout", "1"}, seven_elements,
       "TIMEOUT", text("no result after 1 s (stuck in the kernel's execute()"), 1, false},
      {"out_of_bounds", OPRIG_TEST_PACKAGE_OOB, "atan", {"run", "--backend", "cpu"}, seven_elements, "FAILED",
       red_zone_after_seven, 1},
      {"lazy", OPRIG_TEST_PACKAGE_LAZY, "atan", {"run", "--backend", "cpu"}, seven_elements, "FAILED",
       text("1 of 7 element(s) left unwritten (still oprig's poison after execute), first at index 6"), 1},
      {"nondeterministic", OPRIG_TEST_PACKAGE_NONDETERMINISTIC, "atan", {"run", "--backend", "cpu"}, seven_elements,
       "FAILED", text("1 of 7 element(s) nondeterministic (differ between two runs on the same inputs), first at index 0"),
       1},
      {"shared_scratch", OPRIG_TEST_PACKAGE_SHARED_SCRATCH, "atan", {"run", "--backend", "cpu"}, anchor, "FAILED",
       text("so instances share mutable state"), 1},
      {"ignores_reprepare", OPRIG_TEST_PACKAGE_IGNORES_REPREPARE, "atan", {"run", "--backend", "cpu"}, anchor, "FAILED",
       text("re-prepare: one instance prepared for 7, then 127 (the ABI prepares again whenever input shapes change): "
            "output out: 120 of 127 element(s) left unwritten"),
       1},
      {"leak", OPRIG_TEST_PACKAGE_LEAK, "atan", {"run", "--backend", "cpu"}, anchor, "FAILED",
       text("the kernel leaks on every execute"), 1},
      {"refuses_declared_type_strict", OPRIG_TEST_PACKAGE_REFUSES_FP16, "atan", {"run", "--backend", "cpu", "--strict"},
       float16, "FAILED", text("prepare() refused FLOAT_16 (UNSUPPORTED), which the spec declares for cpu"), 1},
      {"refuses_declared_type_validate", OPRIG_TEST_PACKAGE_REFUSES_FP16, "atan", {"validate"}, float16, "FAILED",
       text("prepare() refused FLOAT_16 (UNSUPPORTED), which the spec declares for cpu"), 1},
      {"refuses_declared_type_plain_run", OPRIG_TEST_PACKAGE_REFUSES_FP16, "atan", {"run", "--backend", "cpu"}, float16,
       "UNIMPLEMENTED", text("prepare() does not support these data types"), 0, false},
      {"flips_zero_sign", OPRIG_TEST_PACKAGE_FLIPS_ZERO_SIGN, "atan", {"run", "--backend", "cpu"}, negative_zero_edge,
       "FAILED",
       text("1 of 7 elements the wrong sign of zero (the plan's signed_zero is on), first at [1] (got +0, expected -0)"),
       1},
      {"typed_params", OPRIG_TEST_PACKAGE_TYPED_PARAMS, "typed_params", {"run", "--backend", "cpu"}, none, "",
       text(""), 0},
      {"correct", OPRIG_TEST_PACKAGE_GOOD_ALL_BACKENDS, "atan", {"run", "--backend", "cpu"}, none, "", text(""), 0},
  };
#endif
  return kRows;
}

void PrintTo(const Planted& p, std::ostream* os) { *os << p.name; }

class PlantedBug : public OprigCliTest, public ::testing::WithParamInterface<Planted> {};

TEST_P(PlantedBug, GetsItsVerdictWithItsCause) {
  const Planted& bug = GetParam();
  std::vector<std::string> args = bug.args;
  const std::filesystem::path spec = kPlanted / bug.plan / "atan.xml";
  args.insert(args.end(), {"--spec", spec.string(), "--package", bug.package});
  const OprigRun run = oprig(args, "run", let_signals_through(), 300);
  ASSERT_TRUE(run.results.is_object()) << "no results.json; stderr:\n" << run.process.err << run.process.out;
  for (const nlohmann::json& b : run.results.at("environment").at("backends"))
    if (!b.at("available").get<bool>()) GTEST_SKIP() << b.at("name") << " unavailable here";
  EXPECT_EQ(run.process.exit_code, bug.exit_code) << run.process.err;

  size_t touched = 0;
  const nlohmann::json* first_touched = nullptr;
  for (const nlohmann::json& c : run.cases()) {
    const std::string id = c.at("id"), message = c.at("message");
    if (bug.touched(c)) {
      ++touched;
      if (first_touched == nullptr) first_touched = &c;
      EXPECT_EQ(c.at("verdict"), bug.verdict) << id << ": " << message;
      EXPECT_THAT(message, HasSubstr(bug.cause(c))) << id;
    } else {
      EXPECT_EQ(c.at("verdict"), "PASSED") << id << ": " << message;
    }
  }
  EXPECT_GT(run.cases().size(), 0u);
  if (std::string(bug.verdict).empty()) return;  // a correct package: nothing touched
  ASSERT_GT(touched, 0u) << "no case of the plan reaches the bug";
  if (!bug.check_repro) return;
  const std::string repro_line = first_touched->at("repro");
  const OprigRun again = repro(repro_line, "repro", let_signals_through(), 300);
  ASSERT_TRUE(again.results.is_object()) << repro_line << "\n" << again.process.err;
  ASSERT_EQ(again.cases().size(), 1u) << repro_line;
  EXPECT_EQ(again.cases()[0].at("verdict"), bug.verdict) << repro_line;
  EXPECT_THAT(again.cases()[0].at("message").get<std::string>(), HasSubstr(bug.cause(*first_touched)));
}

INSTANTIATE_TEST_SUITE_P(Planted, PlantedBug, ::testing::ValuesIn(rows()),
                         [](const ::testing::TestParamInfo<Planted>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace oprig_test
