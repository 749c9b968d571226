// Package::load on broken libraries: every problem is a PackageError whose
// message names the library file and the cause, never a crash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "package/loader.hpp"

namespace {

using ::testing::HasSubstr;

// Loads `path` expecting a PackageError; returns its message.
std::string load_error(const std::filesystem::path& path) {
  try {
    oprig::Package::load(path);
  } catch (const oprig::PackageError& e) {
    return e.what();
  }
  ADD_FAILURE() << path << " loaded, expected a PackageError";
  return {};
}

TEST(PackageLoaderErrors, WrongAbiVersionNamesBothVersions) {
  const std::string message = load_error(OPRIG_TEST_PACKAGE_WRONG_ABI);
  EXPECT_THAT(message, HasSubstr(OPRIG_TEST_PACKAGE_WRONG_ABI));
  EXPECT_THAT(message, HasSubstr("ABI version 99"));
  EXPECT_THAT(message, HasSubstr("version 1"));
}

TEST(PackageLoaderErrors, MissingQuerySymbolSaysNotAPackage) {
  const std::string message = load_error(OPRIG_TEST_PACKAGE_NO_QUERY);
  EXPECT_THAT(message, HasSubstr(OPRIG_TEST_PACKAGE_NO_QUERY));
  EXPECT_THAT(message, HasSubstr("oprig_package_query"));
  EXPECT_THAT(message, HasSubstr("missing entry point"));
}

TEST(PackageLoaderErrors, QueryReturningNullIsReported) {
  const std::string message = load_error(OPRIG_TEST_PACKAGE_NULL_QUERY);
  EXPECT_THAT(message, HasSubstr(OPRIG_TEST_PACKAGE_NULL_QUERY));
  EXPECT_THAT(message, HasSubstr("returned NULL"));
}

TEST(PackageLoaderErrors, NonexistentFileIsReported) {
  const std::string path = "/nonexistent/dir/liboprig_no_such_package.so";
  const std::string message = load_error(path);
  EXPECT_THAT(message, HasSubstr(path));
  EXPECT_THAT(message, HasSubstr("not found"));
}

TEST(PackageLoaderErrors, FileThatIsNotASharedLibraryIsReported) {
  const auto path = std::filesystem::path(::testing::TempDir()) / "oprig_not_a_library.so";
  std::ofstream(path) << "this is text, not an ELF file\n";
  const std::string message = load_error(path);
  EXPECT_THAT(message, HasSubstr(path.string()));
  EXPECT_THAT(message, HasSubstr("cannot load"));
  std::filesystem::remove(path);
}

// The loader cannot know the spec, so these load; harness tests prove that
// the spec check rejects them. Here: the registration is read faithfully.
TEST(PackageLoaderErrors, SpecDisagreementsAreLoadedFaithfully) {
  auto two = oprig::Package::load(OPRIG_TEST_PACKAGE_TWO_INPUTS);
  ASSERT_NE(two->find_op("Atan"), nullptr);
  EXPECT_EQ(two->find_op("Atan")->num_inputs, 2u);
  auto extra = oprig::Package::load(OPRIG_TEST_PACKAGE_EXTRA_PARAM);
  ASSERT_NE(extra->find_op("Atan"), nullptr);
  EXPECT_EQ(extra->find_op("Atan")->param_names, std::vector<std::string>{"scale"});
}

// A missing implementation library is found lazily, when the backend is
// needed: nullptr and a reason naming the library, not an exception.
TEST(PackageLoaderErrors, MissingImplementationLibraryGivesNullWithReason) {
  auto package = oprig::Package::load(OPRIG_TEST_PACKAGE_MISSING_IMPL);
  EXPECT_EQ(package->name(), "org.oprig.test.missing_impl");
  std::string why;
  EXPECT_EQ(package->implementation(OPRIG_BACKEND_CPU, &why), nullptr);
  EXPECT_THAT(why, HasSubstr("liboprig_test_package_does_not_exist.so"));
  EXPECT_THAT(why, HasSubstr("cannot load"));
  // Asking again gives the same answer (nothing half-loaded was cached).
  std::string again;
  EXPECT_EQ(package->implementation(OPRIG_BACKEND_CPU, &again), nullptr);
  EXPECT_EQ(again, why);
}

TEST(PackageLoaderErrors, BackendThePackageLacksGivesNullWithReason) {
  auto package = oprig::Package::load(OPRIG_TEST_PACKAGE_SEGFAULT);
  std::string why;
  EXPECT_EQ(package->implementation(OPRIG_BACKEND_OPENCL, &why), nullptr);
  EXPECT_THAT(why, HasSubstr("org.oprig.test.segfault"));
  EXPECT_THAT(why, HasSubstr("opencl"));
}

}  // namespace
