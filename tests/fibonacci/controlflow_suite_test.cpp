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
#include "suite_reader.hpp"

namespace {

using oprig::test::BadModel;
using oprig::test::ExpectedTensor;
using oprig::test::SuiteCase;
using oprig::test::Tolerance;

const oprig::test::Suite& suite() {
  static const oprig::test::Suite s = oprig::test::read_suite(OPRIG_CONTROLFLOW_SUITE);
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

int64_t ulp_distance(float a, float b) {
  auto ordered = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, sizeof i);
    return i < 0 ? static_cast<int64_t>(std::numeric_limits<int32_t>::min()) - i : static_cast<int64_t>(i);
  };
  return std::llabs(ordered(a) - ordered(b));
}

template <typename T>
T element(const oprig::graph::HostTensor& t, size_t i) {
  T v;
  std::memcpy(&v, t.data.data() + i * sizeof(T), sizeof v);
  return v;
}

// got[i] as a double, for integer dtypes up to 32 bits and fp32.
double element_as_double(const oprig::graph::HostTensor& t, size_t i) {
  switch (t.dtype) {
    case OPRIG_DTYPE_FLOAT_32: return element<float>(t, i);
    case OPRIG_DTYPE_INT_32: return element<int32_t>(t, i);
    case OPRIG_DTYPE_UINT_8: return element<uint8_t>(t, i);
    case OPRIG_DTYPE_INT_8: return element<int8_t>(t, i);
    case OPRIG_DTYPE_BOOL_8: return element<uint8_t>(t, i);
    default: return std::nan("");
  }
}

::testing::AssertionResult matches(const oprig::graph::HostTensor& got, const ExpectedTensor& want) {
  const std::string what = "output '" + want.name + "'";
  if (got.dtype != want.dtype)
    return ::testing::AssertionFailure() << what << " is " << oprig::dtype_name(got.dtype) << ", expected "
                                         << oprig::dtype_name(want.dtype);
  if (got.shape != want.dims) {
    auto text = [](const std::vector<int64_t>& d) {
      std::string s = "[";
      for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
      return s + "]";
    };
    return ::testing::AssertionFailure() << what << " has shape " << text(got.shape) << ", expected " << text(want.dims);
  }
  if (want.scale != 0 && (got.scale != want.scale || got.zero_point != want.zero_point))
    return ::testing::AssertionFailure() << what << " has quantisation (" << got.scale << ", " << got.zero_point
                                         << "), expected (" << want.scale << ", " << want.zero_point << ")";
  if (got.data.size() != want.values.size() * oprig::dtype_size(want.dtype))
    return ::testing::AssertionFailure() << what << " holds " << got.data.size() << " bytes";
  for (size_t i = 0; i < want.values.size(); ++i) {
    bool ok = false;
    std::string got_text;
    if (want.dtype == OPRIG_DTYPE_UINT_64) {
      const uint64_t g = element<uint64_t>(got, i), w = want.u64_values[i];
      const uint64_t diff = g > w ? g - w : w - g;
      ok = want.tolerance.kind == Tolerance::Kind::kLsb ? diff <= static_cast<uint64_t>(want.tolerance.amount) : diff == 0;
      got_text = std::to_string(g);
    } else if (want.dtype == OPRIG_DTYPE_FLOAT_32) {
      const float g = element<float>(got, i), w = static_cast<float>(want.values[i]);
      ok = want.tolerance.kind == Tolerance::Kind::kUlp ? ulp_distance(g, w) <= want.tolerance.amount : g == w;
      got_text = std::to_string(g) + " (" + std::to_string(ulp_distance(g, w)) + " ulp)";
    } else {
      const double g = element_as_double(got, i), w = want.values[i];
      ok = want.tolerance.kind == Tolerance::Kind::kLsb ? std::fabs(g - w) <= static_cast<double>(want.tolerance.amount)
                                                        : g == w;
      got_text = std::to_string(g);
    }
    if (!ok)
      return ::testing::AssertionFailure() << what << "[" << i << "] = " << got_text << ", expected " << want.values[i];
  }
  return ::testing::AssertionSuccess();
}

class ControlflowSuite : public ::testing::TestWithParam<SuiteCase> {};

TEST_P(ControlflowSuite, GivesTheHandDerivedResult) {
  const SuiteCase& c = GetParam();
  Runtime& rt = runtime();
  ASSERT_NE(rt.cpu, nullptr) << rt.error;
  const oprig::graph::Model model = oprig::graph::load_model(c.model, rt.packages);
  const oprig::graph::PreparedModel prepared = oprig::graph::prepare(model, {rt.cpu.get(), rt.cpu.get()});
  oprig::graph::ExecutionOptions options;
  if (c.loop_timeout_ms) options.loop_timeout = std::chrono::milliseconds(*c.loop_timeout_ms);

  const auto start = std::chrono::steady_clock::now();
  const oprig::graph::ExecutionResult result = prepared.execute(c.inputs, options);
  const auto wall = std::chrono::steady_clock::now() - start;

  if (c.expected_status == "MISSED_DEADLINE") {
    ASSERT_EQ(result.status, oprig::graph::ExecutionStatus::kMissedDeadline)
        << oprig::graph::execution_status_name(result.status) << ": " << result.message;
    EXPECT_TRUE(result.outputs.empty()) << "no output may be reported after a missed deadline";
    const auto timeout = std::chrono::milliseconds(c.loop_timeout_ms.value_or(2000));
    EXPECT_EQ(result.loop_timeout, timeout);
    EXPECT_GE(wall, timeout) << "the loop stopped before its timeout";
    if (c.max_wall_ms) EXPECT_LE(wall, std::chrono::milliseconds(*c.max_wall_ms)) << "timeout plus margin exceeded";
    return;
  }
  ASSERT_EQ(c.expected_status, "OK");
  ASSERT_EQ(result.status, oprig::graph::ExecutionStatus::kOk)
      << oprig::graph::execution_status_name(result.status) << ": " << result.message;
  ASSERT_EQ(result.outputs.size(), c.outputs.size());
  for (size_t i = 0; i < c.outputs.size(); ++i) EXPECT_TRUE(matches(result.outputs[i], c.outputs[i]));
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
