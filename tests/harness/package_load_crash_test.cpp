// A package whose own code crashes while it is being loaded (a static
// initialiser at dlopen, or its registration query) must not take oprig down:
// oprig loads every package in a throwaway child first and reports such a
// package as a CRASH of the package load, exit 1, naming the package and the
// signal.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;

struct CrashingPackage {
  const char* name;
  const char* path;
};

void PrintTo(const CrashingPackage& p, std::ostream* os) { *os << p.name; }

class PackageLoadCrash : public OprigCliTest, public ::testing::WithParamInterface<CrashingPackage> {
 protected:
  // The run survived to say what happened, and nothing pretends to be a result.
  void expect_reported_crash(const OprigRun& run) {
    EXPECT_EQ(run.process.exit_code, 1) << run.process.out << run.process.err;
    EXPECT_THAT(run.process.err, HasSubstr("CRASH loading package " + std::string(GetParam().path)));
    EXPECT_THAT(run.process.err, HasSubstr("signal 11"));
    if (!run.out.empty()) {
      EXPECT_FALSE(std::filesystem::exists(run.out / "results.json"));
    }
  }
};

TEST_P(PackageLoadCrash, RunReportsTheCrashAndExits1) {
  expect_reported_crash(oprig({"run", "--spec", kAtanSpec.string(), "--package", GetParam().path, "--backend", "cpu"},
                              "out", let_signals_through()));
}

TEST_P(PackageLoadCrash, ValidateReportsTheCrashAndExits1) {
  expect_reported_crash(
      oprig({"validate", "--spec", kAtanSpec.string(), "--package", GetParam().path}, "out", let_signals_through()));
}

INSTANTIATE_TEST_SUITE_P(, PackageLoadCrash,
                         ::testing::Values(CrashingPackage{"constructor", OPRIG_TEST_PACKAGE_CRASH_IN_CONSTRUCTOR},
                                           CrashingPackage{"query", OPRIG_TEST_PACKAGE_CRASH_IN_QUERY}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace oprig_test
