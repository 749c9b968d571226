// A run that is stopped keeps what finished and says so: Ctrl-C (SIGINT to
// the whole process group, even when the script started oprig with SIGINT
// ignored) stops it with exit 130 and no worker recorded as a CRASH; a
// results.jsonl that cannot be written stops it at the first failed write
// with exit 4 and a message naming the file; and the worker log that a CRASH
// names holds what killed the worker.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

size_t line_count(const std::string& text) {
  size_t lines = 0;
  for (char ch : text) lines += ch == '\n';
  return lines;
}

TEST_F(OprigCliTest, CtrlCStopsTheRunCleanlyEvenWithSigintIgnored) {
  const auto out = fresh_dir("out");
  // A background job of a script, with SIGINT ignored as such jobs inherit
  // it, in a process group of its own (set -m) as a terminal would make it;
  // then Ctrl-C's signal to that whole group. The spin package never
  // finishes its 7-element cases, so the run is surely still going.
  const std::string script =
      "set -m\n"
      "(trap '' INT; exec '" + std::string(OPRIG_BINARY) + "' run --spec '" + kAtanSpec.string() +
      "' --package '" + OPRIG_TEST_PACKAGE_SPIN + "' --backend cpu --case-timeout 60 --out '" + out.string() +
      "') &\n"
      "job=$!\n"
      "sleep 2\n"
      "kill -INT -- -$job\n"
      "wait $job\n"
      "echo \"oprig exit $?\"\n";
  const ProcessResult run = run_process({"/bin/bash", "-c", script}, {}, fresh_dir("scratch"), 60);
  EXPECT_FALSE(run.timed_out);
  EXPECT_THAT(run.out, HasSubstr("oprig exit 130")) << run.out << run.err;
  EXPECT_LT(run.seconds, 30.0) << "stopped promptly, not after a case timeout";
  EXPECT_THAT(run.out, HasSubstr("stopped by SIGINT"));

  const nlohmann::json results = nlohmann::json::parse(read_text(out / "results.json"));
  EXPECT_EQ(results.at("complete"), false);
  EXPECT_THAT(results.at("incomplete_reason").get<std::string>(), HasSubstr("stopped by SIGINT"));
  for (const nlohmann::json& c : results.at("cases")) {
    EXPECT_EQ(c.at("verdict"), "PASSED") << c.at("id") << ": " << c.at("message");
  }
  // Every finished case is in the stream, ready for --resume.
  EXPECT_EQ(line_count(read_text(out / "results.jsonl")), results.at("cases").size());
  EXPECT_THAT(read_text(out / "report.html"), HasSubstr("INCOMPLETE"));
}

TEST_F(OprigCliTest, UnwritableResultsStreamStopsTheRunAtTheFirstFailedWrite) {
  const auto out = fresh_dir("out");
  // Files may grow to 16 KiB: run.json fits, results.jsonl fills up after a
  // few records, as on a full disk (EFBIG instead of ENOSPC: same write path).
  const std::string script = "ulimit -f 16; trap '' XFSZ; exec '" + std::string(OPRIG_BINARY) + "' run --spec '" +
                             kAtanSpec.string() + "' --backend cpu --out '" + out.string() + "'";
  const ProcessResult run = run_process({"/bin/bash", "-c", script}, {}, fresh_dir("scratch"), 120);
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  // Plain string search rather than std::regex: GCC 12's <regex> trips
  // -Wmaybe-uninitialized in the sanitizer build.
  const std::string said = "results.jsonl: File too large; the run stopped at this first failed write (";
  const size_t at = run.err.find(said);
  ASSERT_NE(at, std::string::npos) << run.err;
  EXPECT_NE(run.err.rfind("cannot write ", at), std::string::npos) << run.err;
  const std::string rest = run.err.substr(at + said.size());
  ASSERT_NE(rest.find(" results before it are kept"), std::string::npos) << run.err;
  ASSERT_FALSE(rest.empty());
  ASSERT_TRUE(std::isdigit(static_cast<unsigned char>(rest[0]))) << run.err;
  const size_t kept = std::stoul(rest);
  EXPECT_GT(kept, 0u);
  // Exactly those records are whole (newline-terminated) in the file; the
  // run went no further. The torn record after them may end in any byte,
  // a '}' of a nested object included, so only the newline counts.
  const std::string stream = read_text(out / "results.jsonl");
  const size_t whole = static_cast<size_t>(std::count(stream.begin(), stream.end(), '\n'));
  EXPECT_EQ(whole, kept);
  EXPECT_THAT(run.out, Not(HasSubstr("ran ")));
  EXPECT_FALSE(std::filesystem::exists(out / "results.json"));
}

TEST_F(OprigCliTest, CrashLogNamesTheSignalAndTheCase) {
  const OprigRun run = oprig({"run", "--spec", kAtanSpec.string(), "--package", OPRIG_TEST_PACKAGE_SEGFAULT,
                              "--case", "atan__f32__7__uniform__p0__cpu"},
                             "out", let_signals_through());
  EXPECT_EQ(run.process.exit_code, 1) << run.process.err;
  ASSERT_TRUE(run.results.is_object()) << run.process.err;
  size_t crashes = 0;
  for (const nlohmann::json& c : run.cases()) {
    if (c.at("verdict") != "CRASH") continue;
    ++crashes;
    const std::string message = c.at("message");
    const size_t at = message.find("(log: ");
    ASSERT_NE(at, std::string::npos) << message;
    const std::string log = message.substr(at + 6, message.find(')', at) - at - 6);
    EXPECT_THAT(read_text(log), HasSubstr("fatal signal SIGSEGV (signal 11) while running case " +
                                          c.at("id").get<std::string>()));
  }
  EXPECT_EQ(crashes, 1u);
}

}  // namespace
}  // namespace oprig_test
