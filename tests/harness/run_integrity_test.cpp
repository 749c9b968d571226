// Nothing lost, nothing overwritten: a run locks its --out folder, --resume
// refuses to continue a different run (package file, backends, selection),
// repro lines write into their own folder, a report of an unfinished stream
// says INCOMPLETE (HTML and JUnit), and results.json names exactly which
// package file and which build of oprig produced it.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// One small case keeps each run well under a second.
const std::string kCase = "atan__f32__127__wide__p1__cpu";

std::vector<std::string> one_case(std::vector<std::string> more = {}) {
  std::vector<std::string> args = {"run", "--spec", kAtanSpec.string(), "--case", kCase};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST_F(OprigCliTest, SecondRunIntoALockedFolderExits2NamingTheHolder) {
  const auto out = fresh_dir("locked");
  // This test plays the first run: it holds the lock the way oprig does.
  const int fd = open((out / ".oprig.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
  const std::string pid = std::to_string(getpid());
  ASSERT_EQ(write(fd, pid.data(), pid.size()), static_cast<ssize_t>(pid.size()));
  const OprigRun second = oprig(one_case({"--out", out.string()}), "");
  close(fd);
  EXPECT_EQ(second.process.exit_code, 2) << second.process.err;
  EXPECT_THAT(second.process.err, HasSubstr("in use by another oprig run (pid " + pid + ")"));
  EXPECT_FALSE(std::filesystem::exists(out / "results.jsonl"));

  // Released (the holder ended): the folder is usable again.
  const OprigRun third = oprig(one_case({"--out", out.string()}), "");
  EXPECT_EQ(third.process.exit_code, 0) << third.process.err;
}

TEST_F(OprigCliTest, ResumeRefusesAnotherBackendList) {
  const OprigRun first = oprig(one_case(), "out");
  ASSERT_EQ(first.process.exit_code, 0) << first.process.err;
  // The same case id, other backends asked for: not the run that is in OUT.
  const OprigRun resumed = oprig({"run", "--spec", kAtanSpec.string(), "--backend", "cpu,dsp", "--resume"}, "out");
  EXPECT_EQ(resumed.process.exit_code, 2) << resumed.process.out << resumed.process.err;
  EXPECT_THAT(resumed.process.err, HasSubstr("--resume refused"));
  EXPECT_THAT(resumed.process.err, HasSubstr("backends: cpu before, cpu,dsp now"));
  EXPECT_THAT(resumed.process.err, HasSubstr("case: " + kCase + " before, (none) now"));
}

TEST_F(OprigCliTest, ResumeRefusesAPackageWhoseFileChanged) {
  const auto dir = fresh_dir("package");
  const auto package = dir / "libpackage.so";
  std::filesystem::copy_file(OPRIG_TEST_PACKAGE_LAZY, package);
  const OprigRun first = oprig(one_case({"--package", package.string()}), "out");
  ASSERT_EQ(first.process.exit_code, 0) << first.process.err;
  const std::string before = first.results.at("environment").at("packages").at(0).at("sha256");
  {
    // Trailing bytes after an ELF file leave it loadable: a rebuilt package, same path.
    std::ofstream(package, std::ios::app | std::ios::binary) << "rebuilt";
  }
  const OprigRun resumed = oprig(one_case({"--package", package.string(), "--resume"}), "out");
  EXPECT_EQ(resumed.process.exit_code, 2) << resumed.process.out << resumed.process.err;
  EXPECT_THAT(resumed.process.err, HasSubstr("package " + std::filesystem::canonical(package).string() +
                                             ": content changed (SHA-256 " + before + " before"));
}

TEST_F(OprigCliTest, ResultsNameThePackageFileAndTheBuild) {
  const OprigRun run = oprig(one_case({"--package", OPRIG_TEST_PACKAGE_LAZY}), "out");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const nlohmann::json& env = run.results.at("environment");
  const std::string build_type = OPRIG_TEST_BUILD_TYPE;
  if (build_type.empty()) EXPECT_THAT(env.at("build_type").get<std::string>(), HasSubstr("no CMAKE_BUILD_TYPE"));
  else EXPECT_EQ(env.at("build_type"), build_type);
  ASSERT_EQ(env.at("packages").size(), 1u);
  const nlohmann::json& package = env.at("packages").at(0);
  EXPECT_EQ(package.at("path"), std::filesystem::canonical(OPRIG_TEST_PACKAGE_LAZY).string());
  EXPECT_EQ(package.at("name"), "org.oprig.test.lazy");
  EXPECT_EQ(package.at("version"), "0.0.1");
  // The digest as coreutils computes it, not as oprig does.
  const ProcessResult sum = run_process({"/usr/bin/sha256sum", OPRIG_TEST_PACKAGE_LAZY}, {}, fresh_dir("sum"));
  ASSERT_EQ(sum.exit_code, 0);
  EXPECT_EQ(package.at("sha256"), sum.out.substr(0, 64));
  EXPECT_EQ(run.results.at("complete"), true);
}

TEST_F(OprigCliTest, ReproLinesWriteIntoTheirOwnFolder) {
  const OprigRun run = oprig(one_case(), "out");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const std::string repro = run.case_by_id(kCase).at("repro");
  const std::string own = " --out " + (run.out / ("repro-" + kCase)).string();
  ASSERT_THAT(repro, HasSubstr(own));
  // Pasted as printed (oprig_cli's repro() would add its own --out): it leaves the run alone.
  const std::string results_before = read_text(run.out / "results.json");
  const ProcessResult pasted = run_process(
      {"/bin/sh", "-c", std::string("'") + OPRIG_BINARY + "'" + repro.substr(5)}, {}, fresh_dir("paste"));
  EXPECT_EQ(pasted.exit_code, 0) << pasted.err;
  EXPECT_EQ(read_text(run.out / "results.json"), results_before);
  EXPECT_TRUE(std::filesystem::exists(run.out / ("repro-" + kCase) / "results.json"));
}

TEST_F(OprigCliTest, ReportOfAnUnfinishedStreamSaysIncomplete) {
  const OprigRun run = oprig({"run", "--spec", kAtanSpec.string(), "--backend", "cpu"}, "out");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const auto jsonl = run.out / "results.jsonl";
  const auto junit = run.out / "stream-junit.xml";
  const auto html = run.out / "stream.html";

  // The whole stream: complete.
  OprigRun whole = oprig({"report", jsonl.string(), "-o", html.string(), "--junit", junit.string()}, "");
  ASSERT_EQ(whole.process.exit_code, 0) << whole.process.err;
  EXPECT_THAT(read_text(html), Not(HasSubstr("INCOMPLETE")));
  EXPECT_THAT(read_text(junit), Not(HasSubstr("INCOMPLETE")));

  // The first three records only, as a killed run leaves them.
  std::stringstream lines(read_text(jsonl));
  std::string kept;
  size_t total = 0;
  for (std::string line; std::getline(lines, line); ++total)
    if (total < 3) kept += line + "\n";
  ASSERT_GT(total, 3u);
  std::ofstream(jsonl, std::ios::trunc) << kept;
  OprigRun part = oprig({"report", jsonl.string(), "-o", html.string(), "--junit", junit.string()}, "");
  ASSERT_EQ(part.process.exit_code, 0) << part.process.err;
  const std::string missing = std::to_string(total - 3) + " of " + std::to_string(total) + " planned cases";
  EXPECT_THAT(part.process.out, HasSubstr("INCOMPLETE: " + missing));
  EXPECT_THAT(read_text(html), HasSubstr("INCOMPLETE: " + missing));
  EXPECT_THAT(read_text(junit), HasSubstr("type=\"INCOMPLETE\""));
  EXPECT_THAT(read_text(junit), HasSubstr("failures=\"1\""));
}

}  // namespace
}  // namespace oprig_test
