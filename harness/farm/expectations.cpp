#include "farm/expectations.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <sstream>

#include "reports/outcome.hpp"
#include "runner/suite.hpp"

namespace oprig::harness::farm {
namespace {

std::string trimmed(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return text;
}

bool known_word(const std::string& word) {
  return word == kFlakyWord || word == kSkipWord || verdict_from_name(word).has_value();
}

std::string known_words() {
  std::string text;
  for (Verdict v : kAllVerdicts) text += std::string(verdict_name(v)) + ", ";
  return text + kFlakyWord + ", " + kSkipWord;
}

bool attempts_differ(const reports::CaseOutcome& o) {
  return std::adjacent_find(o.attempts.begin(), o.attempts.end(), std::not_equal_to<>()) != o.attempts.end();
}

}  // namespace

void Expectations::add_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError("--expectations " + file.string() + ": cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  add_text(text.str(), file.string());
}

void Expectations::add_text(const std::string& text, const std::string& file_name) {
  files_.push_back(file_name);
  std::istringstream lines(text);
  size_t number = 0;
  for (std::string raw; std::getline(lines, raw);) {
    ++number;
    const std::string line = trimmed(raw);
    if (line.empty() || line[0] == '#') continue;
    const std::string where = file_name + ":" + std::to_string(number);
    const size_t first = line.find(',');
    if (first == std::string::npos)
      throw InputError(where + ": expected CASE_ID_GLOB,VERDICT[,reason], got '" + line + "'");
    const size_t second = line.find(',', first + 1);
    Expectation e;
    e.pattern = trimmed(line.substr(0, first));
    e.verdict = upper(trimmed(line.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1)));
    e.reason = second == std::string::npos ? "" : trimmed(line.substr(second + 1));
    e.file = file_name;
    e.line = number;
    // Case ids are [a-z0-9_]; anything else in a pattern can never match.
    if (e.pattern.empty() || e.pattern.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_*?[]!-") != std::string::npos)
      throw InputError(where + ": '" + e.pattern + "' is no case id pattern (case ids are lower-case letters, digits "
                       "and _; the pattern may add * ? [...])");
    if (!known_word(e.verdict)) throw InputError(where + ": unknown verdict '" + e.verdict + "' (one of " + known_words() + ")");
    entries_.push_back(std::move(e));
  }
}

const Expectation* Expectations::find(const std::string& case_id) const {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
    if (fnmatch(it->pattern.c_str(), case_id.c_str(), 0) == 0) return &*it;
  return nullptr;
}

bool wants_rerun(const reports::CaseResult& c, const Expectation* expectation) {
  if (c.verdict != Verdict::kFailed && c.verdict != Verdict::kCrash && c.verdict != Verdict::kTimeout) return false;
  return expectation == nullptr ||
         (expectation->verdict != verdict_name(c.verdict) && expectation->verdict != kFlakyWord &&
          expectation->verdict != kSkipWord);
}

void judge(reports::CaseResult& c, const Expectation* expectation, const OutcomePolicy& policy) {
  reports::CaseOutcome& o = c.outcome;
  if (expectation != nullptr) {
    o.expected = expectation->verdict;
    o.expected_reason = expectation->reason;
    o.expected_from = expectation->where();
  }
  const bool failing = verdict_is_failure(c.verdict);
  auto set = [&](const char* status, bool fails) {
    o.status = status;
    o.fails_run = fails;
  };
  if (attempts_differ(o)) return set(reports::kFlaky, policy.fail_on_flakes);
  if (expectation == nullptr || o.expected == kSkipWord) return;
  if (o.expected == kFlakyWord) {
    if (failing) set(reports::kFlaky, policy.fail_on_flakes);
    return;
  }
  const std::string_view got = verdict_name(c.verdict);
  if (got == o.expected) {
    if (failing) set(reports::kExpectedFailure, false);
    return;
  }
  if (failing) return;  // a failure the file does not expect: the verdict fails the run
  const Verdict wanted = *verdict_from_name(o.expected);
  // The kernel does better than the file says: the file is out of date.
  if (verdict_is_failure(wanted) || (c.verdict == Verdict::kPassed && wanted != Verdict::kPassed))
    set(reports::kUnexpectedPass, policy.strict_expectations);
}

std::string expectation_word(const reports::CaseResult& c) {
  if (c.outcome.status == reports::kFlaky) return kFlakyWord;
  if (c.outcome.expected == kSkipWord) return kSkipWord;
  if (verdict_is_failure(c.verdict)) return std::string(verdict_name(c.verdict));
  return "";
}

}  // namespace oprig::harness::farm
