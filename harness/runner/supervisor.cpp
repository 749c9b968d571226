#include "runner/supervisor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <deque>
#include <map>

#include "runner/lifecycle_plan.hpp"
#include "runner/self_child.hpp"
#include "runner/worker.hpp"

extern char** environ;

namespace oprig::harness {
namespace {

using Clock = std::chrono::steady_clock;

volatile sig_atomic_t g_stop_signal = 0;
void note_stop_signal(int sig) { g_stop_signal = sig; }

// Catches SIGINT and SIGTERM for the life of a run, even where the caller
// started oprig with them ignored (a script's background job): stopping
// cleanly is always better than dying in the middle of a write or carrying on
// after the workers were killed.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction action {};
    action.sa_handler = note_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// Appends to results.jsonl with plain write(2), so the first failed write is
// seen (and its errno) at once, not at a later flush or at the end.
class ResultsStream {
 public:
  explicit ResultsStream(const std::filesystem::path& path) : path_(path) {
    fd_ = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) throw ResultsStreamError("cannot open " + path.string() + " to write: " + strerror(errno));
  }
  ~ResultsStream() {
    if (fd_ >= 0) close(fd_);
  }
  ResultsStream(const ResultsStream&) = delete;
  ResultsStream& operator=(const ResultsStream&) = delete;

  void append(const std::string& line, size_t written_before) {
    const char* p = line.data();
    size_t left = line.size();
    while (left > 0) {
      const ssize_t n = write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw ResultsStreamError("cannot write " + path_.string() + ": " +
                                 (n < 0 ? strerror(errno) : "nothing written") + "; the run stopped at this first "
                                 "failed write (" + std::to_string(written_before) +
                                 " results before it are kept; free space, then --resume continues)");
      p += n;
      left -= static_cast<size_t>(n);
    }
  }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

struct Job {
  const CaseGroup* group;
  size_t next = 0;  // first case not yet handed to a worker
};

struct Worker {
  Job job;
  size_t begin = 0;  // cases [begin, job.group->cases.size()) were sent to this worker
  pid_t pid = -1;
  int protocol_fd = -1;
  std::string buffer;
  std::string current;  // id of the case between START and RESULT
  std::string phase;    // what the worker said it runs now (PHASE line), for crash messages
  Clock::time_point last_progress;  // spawn, or the last START/RESULT line
  std::map<std::string, bool> done;
  std::filesystem::path log;
  bool killed_for_timeout = false;
};

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", s);
  return text;
}

void spawn(Worker& w, const Selection& selection, const SupervisorOptions& options,
           const std::set<std::string>& not_passed) {
  int ids[2], proto[2];
  if (pipe2(ids, O_CLOEXEC) != 0 || pipe2(proto, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + strerror(errno));
  std::filesystem::create_directories(options.log_dir);
  w.log = options.log_dir / ("worker-" + op_key(w.job.group->op) + "-" + w.job.group->backend + ".log");

  std::vector<std::string> args = {"oprig", "__worker"};
  for (const std::string& a : selection_args(selection)) args.push_back(a);
  args.insert(args.end(), {"--op", w.job.group->op, "--backend", w.job.group->backend});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ids[0], 0);
  posix_spawn_file_actions_adddup2(&actions, proto[1], kProtocolFd);
  posix_spawn_file_actions_addopen(&actions, 1, w.log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  // A process group of its own: a terminal's Ctrl-C goes to oprig, which
  // stops the worker itself instead of finding it dead and calling it a CRASH.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const int rc = posix_spawn(&w.pid, "/proc/self/exe", &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(ids[0]);
  close(proto[1]);
  if (rc != 0) throw std::runtime_error(std::string("cannot start a worker: ") + strerror(rc));
  w.protocol_fd = proto[0];
  w.begin = w.job.next;
  w.last_progress = Clock::now();
  // The id list is small (tens of kilobytes at most) and fits the pipe buffer.
  std::string list;
  for (const reports::CaseResult& c : w.job.group->cases)
    if (not_passed.count(c.id)) list += std::string(kNotPassedPrefix) + c.id + "\n";
  for (size_t i = w.begin; i < w.job.group->cases.size(); ++i) list += w.job.group->cases[i].id + "\n";
  const char* p = list.data();
  size_t left = list.size();
  while (left > 0) {
    const ssize_t n = write(ids[1], p, left);
    if (n <= 0) break;
    p += n;
    left -= static_cast<size_t>(n);
  }
  close(ids[1]);
}

void stop_all(std::vector<Worker>& active) {
  for (Worker& w : active) kill(w.pid, SIGKILL);
  for (Worker& w : active) {
    int status = 0;
    waitpid(w.pid, &status, 0);
    close(w.protocol_fd);
  }
  active.clear();
}

reports::CaseResult lost_case(const reports::CaseResult& record, Verdict v, std::string message) {
  reports::CaseResult r = record;
  r.verdict = v;
  r.message = std::move(message);
  return r;
}

}  // namespace

std::vector<reports::CaseResult> run_groups(const Selection& selection, const std::vector<CaseGroup>& groups,
                                            const SupervisorOptions& options, const ResultSink& sink,
                                            int* stopped_by_signal) {
  std::vector<reports::CaseResult> results;
  const StopSignals stop_signals;
  ResultsStream jsonl(options.jsonl);
  std::vector<Worker> active;
  std::set<std::string> not_passed = options.not_passed;
  auto record = [&](const reports::CaseResult& r) {
    if (!usable_as_companion(r.verdict)) not_passed.insert(r.id);
    try {
      jsonl.append(reports::to_jsonl_line(r), results.size());  // a killed run keeps every finished case
    } catch (const ResultsStreamError&) {
      stop_all(active);
      throw;
    }
    results.push_back(r);
    sink(r);
  };

  std::deque<Job> queue;
  for (const CaseGroup& g : groups)
    if (!g.cases.empty()) queue.push_back({&g, 0});
  const auto timeout = std::chrono::duration<double>(options.case_timeout_s);

  while (!queue.empty() || !active.empty()) {
    if (g_stop_signal != 0) {
      stop_all(active);
      if (stopped_by_signal) *stopped_by_signal = g_stop_signal;
      break;
    }
    while (!queue.empty() && static_cast<int>(active.size()) < std::max(1, options.jobs)) {
      Worker w;
      w.job = queue.front();
      queue.pop_front();
      spawn(w, selection, options, not_passed);
      active.push_back(std::move(w));
    }
    std::vector<pollfd> fds;
    for (const Worker& w : active) fds.push_back({w.protocol_fd, POLLIN, 0});
    poll(fds.data(), fds.size(), 100);
    if (g_stop_signal != 0) continue;  // a dead worker now is one the signal killed, not a CRASH

    for (size_t i = 0; i < active.size();) {
      Worker& w = active[i];
      bool eof = false;
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char chunk[65536];
        const ssize_t n = read(w.protocol_fd, chunk, sizeof chunk);
        if (n > 0) w.buffer.append(chunk, static_cast<size_t>(n));
        else eof = true;
      }
      for (size_t nl; (nl = w.buffer.find('\n')) != std::string::npos;) {
        const std::string line = w.buffer.substr(0, nl);
        w.buffer.erase(0, nl + 1);
        if (line.rfind("START ", 0) == 0) {
          w.current = line.substr(6);
          w.phase.clear();
          w.last_progress = Clock::now();
        } else if (line.rfind("PHASE ", 0) == 0) {
          w.phase = line.substr(6);
        } else if (line.rfind("RESULT ", 0) == 0) {
          reports::CaseResult r = nlohmann::json::parse(line.substr(7)).get<reports::CaseResult>();
          w.done[r.id] = true;
          w.current.clear();
          w.phase.clear();
          w.last_progress = Clock::now();
          // The parent's record is the source of truth for the repro line: it
          // knows every flag of this invocation (the worker does not).
          for (const reports::CaseResult& planned : w.job.group->cases)
            if (planned.id == r.id) r.repro = planned.repro;
          record(r);
        }
      }
      // No progress for a whole case timeout: the case in progress is stuck,
      // or, before the first START, the worker itself (a driver hanging at
      // start-up); then the next case is charged with the TIMEOUT.
      if (!eof && Clock::now() - w.last_progress > timeout && !w.killed_for_timeout) {
        if (w.current.empty())
          for (size_t k = w.begin; k < w.job.group->cases.size() && w.current.empty(); ++k)
            if (!w.done.count(w.job.group->cases[k].id)) w.current = w.job.group->cases[k].id;
        kill(w.pid, SIGKILL);
        w.killed_for_timeout = true;
      }
      if (!eof) {
        ++i;
        continue;
      }
      int status = 0;
      waitpid(w.pid, &status, 0);
      close(w.protocol_fd);
      const auto& cases = w.job.group->cases;
      size_t resume_at = cases.size();
      for (size_t k = w.begin; k < cases.size(); ++k) {
        if (w.done.count(cases[k].id)) continue;
        if (cases[k].id == w.current) {
          if (w.killed_for_timeout) {
            record(lost_case(cases[k], Verdict::kTimeout,
                             "no result after " + seconds_text(options.case_timeout_s) +
                                 (w.phase.empty() ? "" : " (stuck in " + w.phase + ")") +
                                 "; worker killed (log: " + w.log.string() + ")"));
          } else {
            const std::string how = WIFSIGNALED(status) ? signal_text(WTERMSIG(status))
                                                        : "exit code " + std::to_string(WEXITSTATUS(status));
            record(lost_case(cases[k], Verdict::kCrash,
                             (w.phase.empty() ? std::string("worker died") : "crashed in " + w.phase + ": worker died") +
                                 " with " + how + " (log: " + w.log.string() + ")"));
          }
          resume_at = k + 1;
          break;
        }
        // The worker ended before reaching this case without being on one:
        // it failed to start (bad suite, missing library). Report and stop.
        const std::string how = WIFSIGNALED(status) ? signal_text(WTERMSIG(status))
                                                    : "exit code " + std::to_string(WEXITSTATUS(status));
        for (size_t m = k; m < cases.size(); ++m)
          if (!w.done.count(cases[m].id))
            record(lost_case(cases[m], Verdict::kCrash,
                             "worker ended with " + how + " before running the case (log: " + w.log.string() + ")"));
        break;
      }
      if (resume_at < cases.size()) queue.push_front({w.job.group, resume_at});
      active.erase(active.begin() + static_cast<std::ptrdiff_t>(i));
      fds.erase(fds.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return results;
}

}  // namespace oprig::harness
