// Progress of a long run: a redrawn bar on a terminal, plain lines otherwise
// (one per finished op × backend group), plus every case someone must act on
// (FAILED, CRASH, TIMEOUT, INVALID_SPEC, QUALITY_WARNING, MISTRUSTED) with its
// reproducer; UNIMPLEMENTED and SKIPPED cases are summed up after the run.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "reports/results.hpp"

namespace oprig::harness {

class Progress {
 public:
  Progress(size_t total, std::map<std::string, size_t> per_group);
  void case_done(const reports::CaseResult& r);
  void finish();

 private:
  void draw(const reports::CaseResult& r);
  size_t total_, done_ = 0, failing_ = 0;
  std::map<std::string, size_t> remaining_;  // "op/backend" -> cases left
  bool tty_;
};

}  // namespace oprig::harness
