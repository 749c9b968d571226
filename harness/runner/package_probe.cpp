#include "runner/package_probe.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "package/loader.hpp"

extern char** environ;

namespace oprig::harness {
namespace {

// A constructor that loops forever is as fatal as one that crashes; a
// healthy package loads in milliseconds.
constexpr auto kLoadTimeout = std::chrono::seconds(60);

// What the child said last: enough to show the vendor's own message, not a flood.
std::string tail(const std::string& text, size_t limit = 2000) {
  return text.size() <= limit ? text : "..." + text.substr(text.size() - limit);
}

}  // namespace

int load_package_in_this_process(const std::filesystem::path& path) {
  try {
    std::unique_ptr<Package> package = Package::load(path);
    const oprig_package_v1& reg = package->registration();
    for (size_t i = 0; i < reg.num_implementations; ++i) {
      std::string why;
      package->implementation(static_cast<oprig_backend_kind>(reg.implementations[i].backend_kind), &why);
    }
  } catch (const std::exception&) {
    // Refusals are the parent's to report, from its own load.
  }
  return 0;
}

void check_package_load_in_child(const std::filesystem::path& path) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + strerror(errno));
  std::vector<std::string> args = {"oprig", "__load-package", path.string()};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, out[1], 2);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    throw std::runtime_error(std::string("cannot start a process to load the package in: ") + strerror(rc));
  }

  std::string said;
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + kLoadTimeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(pid, SIGKILL);
      timed_out = true;
      break;
    }
    pollfd fd{out[0], POLLIN, 0};
    if (poll(&fd, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[4096];
    const ssize_t n = read(out[0], chunk, sizeof chunk);
    if (n <= 0) break;
    said.append(chunk, static_cast<size_t>(n));
  }
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0) return;

  std::string how;
  if (timed_out)
    how = "did not finish loading within " + std::to_string(kLoadTimeout.count()) + " s (killed)";
  else if (WIFSIGNALED(status))
    how = "killed the loading process with signal " + std::to_string(WTERMSIG(status)) + " (" +
          (strsignal(WTERMSIG(status)) ? strsignal(WTERMSIG(status)) : "?") + ")";
  else
    how = "ended the loading process with exit code " + std::to_string(WEXITSTATUS(status));
  std::string message = "CRASH loading package " + path.string() + ": its code run at load (static initialisers, " +
                        OPRIG_PACKAGE_QUERY_SYMBOL "() or an implementation library's) " + how +
                        "; nothing was run";
  if (!said.empty()) message += "\n--- output of the loading process ---\n" + tail(said);
  throw PackageLoadCrash(message);
}

}  // namespace oprig::harness
