// Atomic replacement leaves exactly the target file, never a temporary.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "reports/atomic_file.hpp"
#include "reports/reporter.hpp"
#include "reports/results.hpp"
#include "sample_results.hpp"

namespace oprig::reports {
namespace {

namespace fs = std::filesystem;

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

class AtomicWrite : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::make_temp_dir("atomic"); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(AtomicWrite, WritesContentAndLeavesNoTemporaryFile) {
  write_file_atomically(dir_ / "report.html", "first");
  EXPECT_EQ(testing::read_file(dir_ / "report.html"), "first");
  EXPECT_EQ(names_in(dir_), (std::set<std::string>{"report.html"}));
}

TEST_F(AtomicWrite, ReplacesAnExistingFile) {
  write_file_atomically(dir_ / "junit.xml", std::string(100000, 'a'));
  write_file_atomically(dir_ / "junit.xml", "short");
  EXPECT_EQ(testing::read_file(dir_ / "junit.xml"), "short");
  EXPECT_EQ(names_in(dir_), (std::set<std::string>{"junit.xml"}));
}

TEST_F(AtomicWrite, FailureNamesThePathAndLeavesNothing) {
  const fs::path missing = dir_ / "no_such_dir" / "results.json";
  try {
    write_file_atomically(missing, "x");
    FAIL() << "wrote into a missing directory";
  } catch (const ReportWriteError& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
  EXPECT_TRUE(names_in(dir_).empty());
}

TEST_F(AtomicWrite, RenameOntoADirectoryFailsAndCleansUp) {
  fs::create_directory(dir_ / "report.html");
  fs::create_directory(dir_ / "report.html" / "occupied");
  EXPECT_THROW(write_file_atomically(dir_ / "report.html", "x"), ReportWriteError);
  EXPECT_EQ(names_in(dir_), (std::set<std::string>{"report.html"}));
}

TEST_F(AtomicWrite, WriteAllReportsWritesExactlyThreeFiles) {
  const RunResults results = testing::make_sample_results();
  const fs::path out = dir_ / "out" / "nested";
  write_all_reports(results, out);
  EXPECT_EQ(names_in(out), (std::set<std::string>{"junit.xml", "report.html", "results.json"}));
  EXPECT_EQ(read_results_file(out / "results.json"), results);
  // Rewriting in place still leaves three files.
  write_all_reports(results, out);
  EXPECT_EQ(names_in(out).size(), 3u);
}

}  // namespace
}  // namespace oprig::reports
