#include "runner/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace oprig::harness {

Progress::Progress(size_t total, std::map<std::string, size_t> per_group)
    : total_(total), remaining_(std::move(per_group)), tty_(isatty(STDERR_FILENO) != 0) {}

void Progress::case_done(const reports::CaseResult& r) {
  ++done_;
  // Reproducers only for what someone must act on; the cases that were not
  // tested (SKIPPED, UNIMPLEMENTED) are summed up by op x backend x type at the end.
  const bool act_on = r.verdict != Verdict::kPassed && r.verdict != Verdict::kSkipped &&
                      r.verdict != Verdict::kUnimplemented;
  if (act_on) ++failing_;
  if (tty_) std::fprintf(stderr, "\r\033[K");
  if (act_on)
    std::fprintf(stderr, "%-15s %s: %s\n    repro: %s\n", std::string(verdict_name(r.verdict)).c_str(),
                 r.id.c_str(), r.message.c_str(), r.repro.c_str());
  const std::string group = r.op + "/" + r.backend;
  if (--remaining_[group] == 0 && !tty_)
    std::fprintf(stderr, "[%zu/%zu] %s done\n", done_, total_, group.c_str());
  if (tty_) draw(r);
}

void Progress::draw(const reports::CaseResult& r) {
  constexpr int kWidth = 30;
  const int filled = total_ ? static_cast<int>(kWidth * done_ / total_) : kWidth;
  std::string bar(static_cast<size_t>(filled), '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "[%s] %zu/%zu  %zu to look at  %s", bar.c_str(), done_, total_, failing_, r.id.c_str());
  std::fflush(stderr);
}

void Progress::finish() {
  if (tty_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace oprig::harness
