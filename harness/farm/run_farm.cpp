#include "farm/run_farm.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ostream>
#include <set>

#include "farm/shard_plan.hpp"
#include "reports/atomic_file.hpp"
#include "reports/outcome.hpp"

namespace oprig::harness::farm {

std::string inputs_digest(const std::vector<std::pair<std::string, uint64_t>>& ids_and_seeds) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto add = [&h](const std::string& text) {
    for (char ch : text) {
      h ^= static_cast<unsigned char>(ch);
      h *= 0x100000001b3ull;
    }
  };
  for (const auto& [id, seed] : ids_and_seeds) add(id + " " + std::to_string(seed) + "\n");
  char text[24];
  std::snprintf(text, sizeof text, "%016" PRIx64, h);
  return text;
}

void annotate_identity(nlohmann::json& identity, const std::optional<ShardSpec>& shard,
                       const std::vector<std::pair<std::string, uint64_t>>& selected,
                       const reports::Environment& environment) {
  if (shard) {
    identity[kShardKey] = {{"index", shard->index}, {"count", shard->count}, {"source", shard->source}};
    std::vector<std::string> ids;
    for (const auto& [id, seed] : selected) ids.push_back(id);
    identity[kSelectedCasesKey] = ids;
  }
  identity[kInputsDigestKey] = inputs_digest(selected);
  identity[kEnvironmentKey] = environment;
}

RunFarm::RunFarm(const FarmOptions& options, const Environment& environment) : options_(options) {
  const Environment nothing = [](const char*) -> const char* { return nullptr; };
  shard_ = resolve_shard(options.shard, options.shard_count, options.shard_from_environment ? environment : nothing);
  for (const std::string& file : options.expectation_files) expectations_.add_file(file);
}

void RunFarm::plan(std::vector<CaseGroup>& groups, std::vector<std::string>& order,
                   const std::map<std::string, std::string>& anchor_of, std::ostream& log) {
  std::map<std::string, uint64_t> seed_of;
  for (const CaseGroup& g : groups)
    for (const reports::CaseResult& c : g.cases) seed_of[c.id] = c.seed;
  for (const std::string& id : order) selected_.emplace_back(id, seed_of[id]);

  if (shard_) {
    const ShardCut cut = cut_shard(run_units(groups, anchor_of), *shard_);
    for (CaseGroup& g : groups) std::erase_if(g.cases, [&](const reports::CaseResult& c) { return !cut.ids.count(c.id); });
    std::erase_if(groups, [](const CaseGroup& g) { return g.cases.empty(); });
    std::erase_if(order, [&](const std::string& id) { return !cut.ids.count(id); });
    char share[32];
    std::snprintf(share, sizeof share, "%.0f%%", cut.total_cost > 0 ? 100 * cut.cost / cut.total_cost : 0.0);
    log << "shard " << shard_->index << "/" << shard_->count << " (from " << shard_->source << "): " << order.size()
        << " of " << selected_.size() << " cases, " << share << " of the selection's expected cost\n";
  }
  // Cases an expectations file skips are not run; they are SKIPPED with its reason.
  for (CaseGroup& g : groups)
    std::erase_if(g.cases, [&](const reports::CaseResult& c) {
      const Expectation* e = expectations_.find(c.id);
      if (e == nullptr || e->verdict != kSkipWord) return false;
      reports::CaseResult r = c;
      r.verdict = Verdict::kSkipped;
      r.message = "not run: " + e->where() + " skips it" + (e->reason.empty() ? "" : " (" + e->reason + ")");
      skipped_.push_back(std::move(r));
      return true;
    });
  std::erase_if(groups, [](const CaseGroup& g) { return g.cases.empty(); });
  planned_ = groups;
}

void RunFarm::annotate_identity(nlohmann::json& identity, const reports::Environment& environment) const {
  farm::annotate_identity(identity, shard_, selected_, environment);
}

void RunFarm::settle(std::map<std::string, reports::CaseResult>& results, RerunRequest rerun,
                     int* stopped_by_signal) const {
  for (const reports::CaseResult& r : skipped_) results[r.id] = r;
  std::filesystem::remove(rerun.out / "reruns.jsonl");  // this invocation's re-runs only
  rerun.groups = &planned_;
  rerun.reruns = options_.flake_reruns;
  if (stopped_by_signal == nullptr || *stopped_by_signal == 0)
    rerun_failures(
        results, rerun, [&](const reports::CaseResult& c) { return wants_rerun(c, expectations_.find(c.id)); },
        stopped_by_signal);
  const OutcomePolicy policy{options_.strict_expectations, options_.fail_on_flakes};
  for (auto& [id, r] : results) judge(r, expectations_.find(id), policy);
}

void RunFarm::describe(reports::RunResults& results) const {
  if (shard_) results.farm.shard = reports::ShardRecord{shard_->index, shard_->count, shard_->source, selected_.size()};
  results.farm.expectations = expectations_.files();
  results.farm.flake_reruns = options_.flake_reruns;
  results.farm.strict_expectations = options_.strict_expectations;
  results.farm.fail_on_flakes = options_.fail_on_flakes;
}

std::string RunFarm::summary(const reports::RunResults& results, const std::filesystem::path& out) const {
  size_t expected = 0, unexpected_passes = 0, unexpected_failures = 0;
  std::string flakes, lines;
  for (const reports::CaseResult& c : results.cases) {
    const std::string& status = c.outcome.status;
    if (status == reports::kExpectedFailure) ++expected;
    if (status == reports::kUnexpectedPass) {
      ++unexpected_passes;
      lines += "UNEXPECTED_PASS " + c.id + " (expected " + c.outcome.expected + ", " + c.outcome.expected_from + ")\n";
    }
    if (status == reports::kFlaky && c.outcome.attempts.size() > 1) {
      flakes += c.id + "," + kFlakyWord + "," + reports::attempts_text(c.outcome) + "\n";
      lines += "FLAKY           " + c.id + ": " + reports::attempts_text(c.outcome) + "\n";
    }
    if (!c.outcome.expected.empty() && status.empty() && reports::counts_as_failure(c)) ++unexpected_failures;
  }
  std::string text = lines;
  if (!expectations_.empty())
    text += "expectations: " + std::to_string(expected) + " expected failure(s), " + std::to_string(unexpected_passes) +
            " unexpected pass(es)" + (options_.strict_expectations ? " (failing: --strict-expectations)" : "") + ", " +
            std::to_string(unexpected_failures) + " case(s) failing otherwise than expected\n";
  if (flakes.empty()) std::filesystem::remove(out / "flakes.txt");  // an earlier run's list is not this one's
  if (!flakes.empty()) {
    reports::write_file_atomically(out / "flakes.txt", "# Flaky cases of this run, as expectations lines (--expectations)\n" + flakes);
    text += "flaky: " + std::to_string(std::count(flakes.begin(), flakes.end(), '\n')) + " case(s)" +
            (options_.fail_on_flakes ? " (failing: --fail-on-flakes)" : " (not failing the run)") +
            ", listed for an expectations file in " + (out / "flakes.txt").string() + "\n";
  }
  return text;
}

}  // namespace oprig::harness::farm
