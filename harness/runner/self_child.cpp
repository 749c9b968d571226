#include "runner/self_child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace oprig::harness {

bool SelfChild::succeeded() const { return !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0; }

SelfChild run_self_child(std::vector<std::string> args, ChildStderr stderr_mode, std::chrono::milliseconds timeout,
                         const std::string& purpose) {
  const bool apart = stderr_mode == ChildStderr::kApart;
  int out[2] = {-1, -1}, err[2] = {-1, -1};
  if (pipe2(out, O_CLOEXEC) != 0 || (apart && pipe2(err, O_CLOEXEC) != 0)) {
    const int why = errno;
    for (int fd : {out[0], out[1]})
      if (fd >= 0) close(fd);
    throw std::runtime_error(std::string("pipe: ") + strerror(why));
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, apart ? err[1] : out[1], 2);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (apart) close(err[1]);
  if (rc != 0) {
    close(out[0]);
    if (apart) close(err[0]);
    throw std::runtime_error("cannot start a process to " + purpose + ": " + strerror(rc));
  }

  SelfChild child;
  pollfd fds[2] = {{out[0], POLLIN, 0}, {apart ? err[0] : -1, POLLIN, 0}};
  int open_fds = apart ? 2 : 1;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(pid, SIGKILL);
      child.timed_out = true;
      break;
    }
    if (poll(fds, 2, static_cast<int>(left.count())) <= 0) continue;  // poll ignores the fd -1
    for (pollfd& f : fds) {
      if (f.fd < 0 || f.revents == 0) continue;
      char chunk[65536];
      const ssize_t n = read(f.fd, chunk, sizeof chunk);
      if (n <= 0) {
        close(f.fd);
        f.fd = -1;
        --open_fds;
        continue;
      }
      (f.fd == out[0] ? child.out : child.err).append(chunk, static_cast<size_t>(n));
    }
  }
  for (pollfd& f : fds)
    if (f.fd >= 0) close(f.fd);
  waitpid(pid, &child.status, 0);
  return child;
}

std::string signal_text(int sig) {
  const char* name = strsignal(sig);
  return "signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
}

std::string output_tail(const std::string& text, size_t limit) {
  return text.size() <= limit ? text : "..." + text.substr(text.size() - limit);
}

}  // namespace oprig::harness
