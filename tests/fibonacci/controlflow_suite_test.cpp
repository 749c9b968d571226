// Runs every case of opsuite/controlflow/suite.json through the graph runtime
// on the cpu backend (load, prepare, execute) and checks the hand-derived
// outputs and statuses; and loads every bad model expecting its error and
// location. The packages the models name are the real shared libraries.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "core/dtype.hpp"
#include "factories.hpp"
#include "graph/model.hpp"
#include "graph/package_library.hpp"
#include "graph/prepared_model.hpp"
#include "models/model_case.hpp"

namespace {

using oprig::harness::models::BadModel;
using oprig::harness::models::SuiteCase;

const oprig::harness::models::Suite& suite() {
  static const oprig::harness::models::Suite s = oprig::harness::models::read_suite(OPRIG_CONTROLFLOW_SUITE);
  return s;
}

// The packages and the cpu backend, made once for every case.
struct Runtime {
  oprig::graph::PackageLibrary packages;
  std::unique_ptr<oprig::Backend> cpu;
  std::string error;
  Runtime() {
    try {
      packages.load(OPRIG_OPSUITE_PACKAGE);
      packages.load(OPRIG_FIBONACCI_LIBRARY);
    } catch (const std::exception& e) {
      error = e.what();
      return;
    }
    cpu = oprig::create_cpu_backend(&error);
  }
};

Runtime& runtime() {
  static Runtime r;
  return r;
}

const oprig::harness::models::LoadedModelSuite& loaded_suite() {
  static const oprig::harness::models::LoadedModelSuite s{"controlflow", OPRIG_CONTROLFLOW_SUITE, suite()};
  return s;
}

class ControlflowSuite : public ::testing::TestWithParam<SuiteCase> {};

// The harness' model-case runner judges the outputs against suite.json's
// hand-derived values and statuses (and, for MISSED_DEADLINE, the time taken).
TEST_P(ControlflowSuite, GivesTheHandDerivedResult) {
  const SuiteCase& c = GetParam();
  Runtime& rt = runtime();
  ASSERT_NE(rt.cpu, nullptr) << rt.error;
  const oprig::reports::CaseResult r =
      oprig::harness::models::run_model_case(loaded_suite(), c, "cpu", rt.cpu.get(), "", *rt.cpu, rt.packages);
  EXPECT_EQ(r.verdict, oprig::Verdict::kPassed) << r.message;
}

INSTANTIATE_TEST_SUITE_P(Cpu, ControlflowSuite, ::testing::ValuesIn(suite().cases),
                         [](const ::testing::TestParamInfo<SuiteCase>& info) { return info.param.name(); });

class ControlflowBadModel : public ::testing::TestWithParam<BadModel> {};

TEST_P(ControlflowBadModel, IsRejectedAtLoadWithItsLocation) {
  const BadModel& bad = GetParam();
  Runtime& rt = runtime();
  ASSERT_TRUE(rt.error.empty()) << rt.error;
  try {
    (void)oprig::graph::load_model(bad.model, rt.packages);
    FAIL() << bad.model << " loaded; expected an error containing '" << bad.error << "'";
  } catch (const oprig::graph::ModelError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(bad.error), std::string::npos) << message;
    EXPECT_NE(message.find(bad.model.filename().string()), std::string::npos) << "the error names the file: " << message;
    EXPECT_EQ(e.where().line, bad.line) << message;
    EXPECT_EQ(e.where().subgraph, bad.subgraph) << message;
    EXPECT_EQ(e.where().operation, bad.operation) << message;
    EXPECT_EQ(e.where().operand, bad.operand) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(Cpu, ControlflowBadModel, ::testing::ValuesIn(suite().bad),
                         [](const ::testing::TestParamInfo<BadModel>& info) { return info.param.id; });

TEST(ControlflowSuiteFile, NamesThePackagesThisTestLoads) {
  const std::string loaded[] = {std::filesystem::path(OPRIG_OPSUITE_PACKAGE).filename().string(),
                                std::filesystem::path(OPRIG_FIBONACCI_LIBRARY).filename().string()};
  for (const std::string& file : suite().package_files)
    EXPECT_TRUE(file == loaded[0] || file == loaded[1]) << file;
  EXPECT_GE(suite().cases.size(), 30u);
  EXPECT_GE(suite().bad.size(), 5u);
}

}  // namespace
