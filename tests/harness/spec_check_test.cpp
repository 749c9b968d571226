// check_package_against_spec, tested directly: the packages that disagree
// with atan.xml are refused with an InputError naming both files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "package/loader.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {
namespace {

using ::testing::HasSubstr;

const std::filesystem::path kAtanSpec = std::filesystem::path(OPRIG_SOURCE_DIR) / "opsuite" / "atan" / "atan.xml";

std::string disagreement(const char* package_path) {
  auto package = Package::load(package_path);
  try {
    check_package_against_spec(*package, kAtanSpec, "Atan");
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << package_path << " was accepted";
  return {};
}

TEST(SpecCheck, TwoInputsAgainstOneIsRefused) {
  const std::string message = disagreement(OPRIG_TEST_PACKAGE_TWO_INPUTS);
  EXPECT_THAT(message, HasSubstr(OPRIG_TEST_PACKAGE_TWO_INPUTS));
  EXPECT_THAT(message, HasSubstr(kAtanSpec.string()));
  EXPECT_THAT(message, HasSubstr("2 inputs"));
}

TEST(SpecCheck, ParamTheSpecLacksIsRefused) {
  const std::string message = disagreement(OPRIG_TEST_PACKAGE_EXTRA_PARAM);
  EXPECT_THAT(message, HasSubstr("'scale'"));
  EXPECT_THAT(message, HasSubstr(kAtanSpec.string()));
}

TEST(SpecCheck, AgreeingPackagesAreAccepted) {
  for (const char* path : {OPRIG_TEST_PACKAGE_SEGFAULT, OPRIG_TEST_PACKAGE_LAZY, OPRIG_OPSUITE_PACKAGE}) {
    auto package = Package::load(path);
    EXPECT_NO_THROW(check_package_against_spec(*package, kAtanSpec, "Atan")) << path;
  }
}

}  // namespace
}  // namespace oprig::harness
