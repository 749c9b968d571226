#include "farm/expectations_update.hpp"

#include <map>
#include <sstream>
#include <vector>

#include "farm/expectations.hpp"
#include "reports/outcome.hpp"

namespace oprig::harness::farm {
namespace {

std::string line_for(const std::string& id, const std::string& word, const std::string& reason) {
  return id + "," + word + (reason.empty() ? "" : "," + reason) + "\n";
}

}  // namespace

ExpectationsUpdate update_expectations(const std::string& previous, const std::string& file_name,
                                       const reports::RunResults& run, const std::string& source) {
  Expectations old;
  old.add_text(previous, file_name);
  const std::vector<Expectation>& entries = old.entries();

  // Which cases each line decides (the last match), and what each case needs now.
  std::map<size_t, std::vector<const reports::CaseResult*>> decided;  // entry index -> cases
  std::vector<const reports::CaseResult*> undecided;
  for (const reports::CaseResult& c : run.cases) {
    const Expectation* e = old.find(c.id);
    if (e != nullptr) decided[static_cast<size_t>(e - entries.data())].push_back(&c);
    else if (!expectation_word(c).empty()) undecided.push_back(&c);
  }
  auto holds = [](const Expectation& e, const reports::CaseResult& c) {
    const std::string now = expectation_word(c);
    return now == e.verdict || (e.verdict == kFlakyWord && now.empty());
  };

  ExpectationsUpdate update;
  std::map<size_t, size_t> entry_at_line;  // line number -> entry index
  for (size_t i = 0; i < entries.size(); ++i) entry_at_line[entries[i].line] = i;
  if (previous.empty())
    update.text = "# oprig expectations: CASE_ID_GLOB,VERDICT[,reason] per line (oprig run --expectations FILE)\n"
                  "# VERDICT: the verdict a case is expected to end with, FLAKY (a known flake) or SKIP (not run)\n";
  std::istringstream lines(previous);
  size_t number = 0;
  for (std::string raw; std::getline(lines, raw);) {
    ++number;
    const auto at = entry_at_line.find(number);
    if (at == entry_at_line.end()) {
      update.text += raw + "\n";
      continue;
    }
    const Expectation& e = entries[at->second];
    const std::vector<const reports::CaseResult*>& cases = decided[at->second];
    bool keep = e.verdict == kSkipWord || cases.empty();
    if (!keep) {
      keep = true;
      for (const reports::CaseResult* c : cases) keep = keep && holds(e, *c);
    }
    if (keep) {
      update.text += raw + "\n";
      ++update.kept;
      continue;
    }
    size_t written = 0;
    for (const reports::CaseResult* c : cases) {
      const std::string now = expectation_word(*c);
      if (now.empty()) continue;  // it passes now: no line
      update.text += line_for(c->id, now, e.reason);
      ++written;
    }
    ++(written > 0 ? update.replaced : update.removed);
  }
  if (!undecided.empty()) {
    update.text += "# added by oprig expectations update from " + source + "\n";
    for (const reports::CaseResult* c : undecided) {
      const std::string word = expectation_word(*c);
      update.text += line_for(c->id, word, word == kFlakyWord ? reports::attempts_text(c->outcome) : "");
      ++update.added;
    }
  }
  return update;
}

}  // namespace oprig::harness::farm
