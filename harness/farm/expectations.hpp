// Expected results: what a port knows about itself, so its CI is green when
// nothing changed and red when something did. One format for what Mesa's
// deqp-runner keeps in three files (-fails.txt, -flakes.txt, -skips.txt):
//
//   # comment
//   CASE_ID_GLOB,VERDICT[,reason]
//
// CASE_ID_GLOB matches run case ids with `*`, `?` and `[...]` (fnmatch);
// VERDICT is a verdict name (FAILED, CRASH, TIMEOUT, ... as the case is
// expected to end), FLAKY (a known flake: a failure is excused, whatever it
// is) or SKIP (the case is not run at all: SKIPPED with the line's reason).
// The reason is the rest of the line. Several files may be given; when lines
// of several match a case, the last one (of the last file) decides.
//
// Judging a case (after its re-runs, flake_reruns.hpp):
//  - its verdict is the expected one: a failing verdict is EXPECTED_FAILURE and
//    does not fail the run;
//  - an expected failure (or another expected verdict) that now passes is
//    UNEXPECTED_PASS, which fails the run only under --strict-expectations, so
//    the file is kept honest;
//  - a failing verdict the file does not expect fails the run, unless its
//    re-runs gave another verdict (FLAKY: fails only under --fail-on-flakes).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "reports/results.hpp"

namespace oprig::harness::farm {

inline constexpr const char* kFlakyWord = "FLAKY";
inline constexpr const char* kSkipWord = "SKIP";

struct Expectation {
  std::string pattern;
  std::string verdict;  // a verdict name, FLAKY or SKIP
  std::string reason;
  std::string file;
  size_t line = 0;
  std::string where() const { return file + ":" + std::to_string(line); }
};

class Expectations {
 public:
  // Throws InputError naming FILE:LINE and what is wrong.
  void add_file(const std::filesystem::path& file);
  void add_text(const std::string& text, const std::string& file_name);
  // The line that decides a case (the last match), or null.
  const Expectation* find(const std::string& case_id) const;
  const std::vector<Expectation>& entries() const { return entries_; }
  const std::vector<std::string>& files() const { return files_; }
  bool empty() const { return entries_.empty(); }

 private:
  std::vector<Expectation> entries_;
  std::vector<std::string> files_;
};

struct OutcomePolicy {
  bool strict_expectations = false;  // UNEXPECTED_PASS fails the run
  bool fail_on_flakes = false;       // FLAKY fails the run
};

// A failure re-runs can tell from a flake: FAILED, CRASH or TIMEOUT that the
// expectation (may be null) does not name. INVALID_SPEC is never re-run: the
// spec and package do not change between attempts.
bool wants_rerun(const reports::CaseResult& c, const Expectation* expectation);

// Sets c.outcome (status, expected, fails_run) from the verdict, the
// attempts already in c.outcome, the expectation (may be null) and the policy.
void judge(reports::CaseResult& c, const Expectation* expectation, const OutcomePolicy& policy);

// What an expectations file would say about the case now: its failing
// verdict, FLAKY, or SKIP when the file skipped it; "" for a case needing no line.
std::string expectation_word(const reports::CaseResult& c);

}  // namespace oprig::harness::farm
