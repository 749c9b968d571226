// run_self_child (harness/runner/self_child.hpp): this test binary runs
// itself as the child; OPRIG_SELF_CHILD_TEST_ROLE, read before main(), makes
// that child talk, fail, die by a signal or hang instead of running the tests.
#include "runner/self_child.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace oprig::harness {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

constexpr const char* kRole = "OPRIG_SELF_CHILD_TEST_ROLE";

// The child's side, before gtest sees the command line.
[[maybe_unused]] const bool kChildRole = [] {
  const char* role = std::getenv(kRole);
  if (role == nullptr) return false;
  if (std::strcmp(role, "talk") == 0) {
    std::fputs("to stdout\n", stdout);
    std::fflush(stdout);
    std::fputs("to stderr\n", stderr);
    std::fflush(stderr);
    std::_Exit(3);
  }
  if (std::strcmp(role, "ok") == 0) {
    std::fputs("done", stdout);
    std::fflush(stdout);
    std::_Exit(0);
  }
  if (std::strcmp(role, "signal") == 0) {
    signal(SIGTERM, SIG_DFL);  // a disposition inherited as ignored would keep it alive
    raise(SIGTERM);
  }
  if (std::strcmp(role, "hang") == 0) sleep(60);
  std::_Exit(99);
}();

SelfChild run_as(const char* role, ChildStderr mode, std::chrono::milliseconds timeout = 60s) {
  setenv(kRole, role, 1);
  SelfChild child = run_self_child({"self_child_test"}, mode, timeout, "test");
  unsetenv(kRole);
  return child;
}

TEST(SelfChild, KeepsStdoutAndStderrApartAndReportsTheExitCode) {
  const SelfChild child = run_as("talk", ChildStderr::kApart);
  EXPECT_EQ(child.out, "to stdout\n");
  EXPECT_EQ(child.err, "to stderr\n");
  ASSERT_TRUE(WIFEXITED(child.status));
  EXPECT_EQ(WEXITSTATUS(child.status), 3);
  EXPECT_FALSE(child.timed_out);
  EXPECT_FALSE(child.succeeded());
}

TEST(SelfChild, WithStdoutReadsBothStreamsThroughOnePipe) {
  const SelfChild child = run_as("talk", ChildStderr::kWithStdout);
  EXPECT_EQ(child.out, "to stdout\nto stderr\n");
  EXPECT_EQ(child.err, "");
}

TEST(SelfChild, ExitCodeZeroInTimeSucceeds) {
  const SelfChild child = run_as("ok", ChildStderr::kApart);
  EXPECT_TRUE(child.succeeded());
  EXPECT_EQ(child.out, "done");
}

TEST(SelfChild, ADeathBySignalIsNamed) {
  const SelfChild child = run_as("signal", ChildStderr::kApart);
  ASSERT_TRUE(WIFSIGNALED(child.status));
  EXPECT_EQ(WTERMSIG(child.status), SIGTERM);
  EXPECT_FALSE(child.succeeded());
  EXPECT_THAT(signal_text(WTERMSIG(child.status)), HasSubstr("signal 15 ("));
}

TEST(SelfChild, AHangingChildIsKilledAtTheDeadline) {
  const auto start = std::chrono::steady_clock::now();
  const SelfChild child = run_as("hang", ChildStderr::kWithStdout, 300ms);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 30s);  // the child alone would sleep 60 s
  EXPECT_TRUE(child.timed_out);
  EXPECT_FALSE(child.succeeded());
  ASSERT_TRUE(WIFSIGNALED(child.status));
  EXPECT_EQ(WTERMSIG(child.status), SIGKILL);
}

TEST(SelfChild, OutputTailKeepsTheEnd) {
  EXPECT_EQ(output_tail("short", 10), "short");
  EXPECT_EQ(output_tail("0123456789abc", 3), "...abc");
}

}  // namespace
}  // namespace oprig::harness
