#include "cli/run_command.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "cli/farm_options.hpp"
#include "cli/keep_outputs_options.hpp"
#include "cli/main_context.hpp"
#include "cli/number_checks.hpp"
#include "cli/selection_options.hpp"
#include "reports/atomic_file.hpp"
#include "reports/coverage.hpp"
#include "reports/reporter.hpp"
#include "runner/environment.hpp"
#include "runner/kept_outputs.hpp"
#include "runner/lifecycle_plan.hpp"
#include "runner/out_folder_lock.hpp"
#include "runner/run_identity.hpp"
#include "runner/progress.hpp"
#include "runner/supervisor.hpp"
#include "runner/worker.hpp"
#include "reports/summary.hpp"

namespace oprig::cli {
namespace {

std::string shell_quoted(const std::string& text) {
  if (text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") ==
      std::string::npos)
    return text;
  std::string out = "'";
  for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

struct RunFlags {
  SelectionFlags selection;
  RunOptions options;
  KeepFlags keep;
};

struct WorkerFlags {
  SelectionFlags selection;
  WorkerKeepFlags keep;
};

}  // namespace

int run_conformance(const harness::Selection& selection, const RunOptions& options, bool explicit_backends,
                    const std::string& command_line) {
  const std::filesystem::path out = options.out;
  harness::farm::RunFarm farm(options.farm, harness::farm::process_environment());
  harness::Suite suite = harness::load_suite(selection);
  const std::string own_out = std::filesystem::absolute(out).lexically_normal().string();

  std::vector<harness::CaseGroup> groups;
  std::vector<std::string> order;  // every selected case id, in generation order
  std::map<std::string, std::string> anchor_of;  // lifecycle companion -> its anchor: one shard runs both
  bool found_case = selection.case_id.empty();
  auto add = [&](harness::CaseGroup& g, reports::CaseResult record) {
    if (!selection.case_id.empty() && record.id != selection.case_id) return;
    found_case = true;
    // A pasted repro line writes beside this run, never over it.
    if (!record.repro.empty()) record.repro += " --out " + shell_quoted(own_out + "/repro-" + record.id);
    order.push_back(record.id);
    g.cases.push_back(std::move(record));
  };
  if (options.case_timeout_s != RunOptions{}.case_timeout_s) {
    char timeout[32];
    std::snprintf(timeout, sizeof timeout, " --case-timeout %g", options.case_timeout_s);
    for (const auto& op : suite.ops) op->context.repro_prefix += timeout;
  }
  for (const auto& op : suite.ops) {
    for (const std::string& backend : selection.backends) {
      harness::CaseGroup g{op->plan.op, backend, {}};
      const std::vector<harness::Case> cases = harness::op_cases(*op, selection, {backend});
      for (const harness::Case& c : cases) add(g, harness::case_record(c, &op->context));
      // Anchors last, as the worker runs them (runner/lifecycle_plan.hpp); reports keep `order`.
      const harness::LifecyclePlan lifecycle(cases, op->plan);
      for (const harness::Case& c : cases)
        if (const auto companions = lifecycle.companions_of(c.id, {}))
          for (const harness::Case* companion : *companions) anchor_of[companion->id] = c.id;
      std::stable_partition(g.cases.begin(), g.cases.end(),
                            [&](const reports::CaseResult& r) { return !lifecycle.is_anchor(r.id); });
      if (!g.cases.empty()) groups.push_back(std::move(g));
    }
  }
  for (const auto& model_suite : suite.model_suites) {
    for (const std::string& backend : selection.backends) {
      harness::CaseGroup g{model_suite->name, backend, {}};
      for (const auto& c : model_suite->suite.cases) add(g, harness::models::case_record(*model_suite, c, backend));
      if (!g.cases.empty()) groups.push_back(std::move(g));
    }
  }
  if (!found_case) throw harness::InputError("no case with id '" + selection.case_id + "' in the selection");
  farm.plan(groups, order, anchor_of, std::cerr);

  // Before anything reads or writes OUT: one run per folder.
  const harness::OutFolderLock lock(out);
  const auto jsonl = out / "results.jsonl";
  const std::vector<reports::PackageRecord> packages = harness::package_records(selection, suite);
  reports::RunResults results;
  results.environment = harness::collect_environment(selection.backends, command_line);
  results.environment.packages = packages;
  nlohmann::json identity = harness::run_identity(selection, packages, order);
  farm.annotate_identity(identity, results.environment);
  const auto identity_file = out / harness::kRunIdentityFile;
  std::map<std::string, reports::CaseResult> previous;
  if (options.resume && std::filesystem::exists(jsonl)) {
    // Mixing the results of two different runs would make one report of neither.
    nlohmann::json before;
    try {
      std::ifstream in(identity_file);
      if (!in) throw std::runtime_error("missing");
      before = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
      throw harness::InputError("--resume: " + identity_file.string() + " (" + e.what() +
                                ") does not say what run " + jsonl.string() +
                                " belongs to, so it cannot be continued; start afresh without --resume or give "
                                "another --out");
    }
    const std::vector<std::string> differences = harness::identity_differences(before, identity);
    if (!differences.empty()) {
      std::string text = "--resume refused: this invocation differs from the run in " + out.string() + ":";
      for (const std::string& d : differences) text += "\n  " + d;
      throw harness::InputError(text + "\nrun it as before, or give another --out");
    }
    for (reports::CaseResult& r : reports::read_jsonl(jsonl)) previous[r.id] = std::move(r);
    // Rewrite the stream without a torn last line before appending to it.
    std::string clean;
    for (const auto& [id, r] : previous) clean += reports::to_jsonl_line(r);
    reports::write_file_atomically(jsonl, clean);
  } else {
    std::filesystem::remove(jsonl);
    std::filesystem::remove_all(out / "kept");  // a fresh run's kept outputs are its own
  }
  reports::write_file_atomically(identity_file, identity.dump(2) + "\n");
  size_t total = 0;
  std::map<std::string, size_t> per_group;
  for (harness::CaseGroup& g : groups) {
    std::erase_if(g.cases, [&](const reports::CaseResult& c) { return previous.count(c.id) > 0; });
    per_group[g.op + "/" + g.backend] = g.cases.size();
    total += g.cases.size();
  }
  if (options.resume)
    std::cerr << "resume: " << previous.size() << " cases already in " << jsonl.string() << ", " << total
              << " to run\n";

  harness::Progress progress(total, per_group);
  harness::SupervisorOptions supervisor{options.jobs, options.case_timeout_s, jsonl, out / "logs", {}};
  for (const auto& [id, r] : previous)
    if (!harness::usable_as_companion(r.verdict)) supervisor.not_passed.insert(id);
  int stopped_by = 0;
  std::vector<reports::CaseResult> fresh = harness::run_groups(
      selection, groups, supervisor, [&](const reports::CaseResult& r) { progress.case_done(r); }, &stopped_by);
  progress.finish();
  results.environment.finished_at = harness::utc_now_iso8601();

  std::map<std::string, reports::CaseResult> by_id = std::move(previous);
  for (reports::CaseResult& r : fresh) by_id[r.id] = std::move(r);
  farm.settle(by_id, {&selection, nullptr, supervisor, out, 0}, &stopped_by);
  farm.describe(results);
  size_t missing = 0;
  for (const std::string& id : order)
    if (auto it = by_id.find(id); it != by_id.end()) results.cases.push_back(it->second);
    else ++missing;
  if (missing > 0) {
    results.complete = false;
    results.incomplete_reason = std::to_string(missing) + " of " + std::to_string(order.size()) +
                                " planned cases have no result" +
                                (stopped_by ? std::string(" (stopped by SIG") + sigabbrev_np(stopped_by) + ")" : "") +
                                "; --resume continues the run";
  }

  reports::write_all_reports(results, out);
  std::cout << reports::summary_table(results) << reports::not_tested_text(results) << "\n"
            << reports::headline(results) << "\n" << harness::kept_outputs_summary(selection.keep, results);
  std::cout << farm.summary(results, out);
  std::cout << "ran " << fresh.size() << " cases" << (previous.empty() ? "" : " (rest resumed)") << "\n";
  std::cout << "results: " << std::filesystem::absolute(out / "results.json").string() << "\n";
  std::cout << "junit:   " << std::filesystem::absolute(out / "junit.xml").string() << "\n";
  std::cout << "report:  " << std::filesystem::absolute(out / "report.html").string() << "\n";
  if (stopped_by != 0) {
    std::cout << "stopped by SIG" << sigabbrev_np(stopped_by) << ": " << results.incomplete_reason << "\n";
    return kExitSignalBase + stopped_by;
  }
  int code = reports::exit_code_for(results);
  // A backend named on the command line that is not here tested nothing the user asked for.
  if (explicit_backends && code == kExitOk)
    for (const reports::BackendRecord& b : results.environment.backends)
      if (!b.available) {
        std::cerr << "oprig: backend " << b.name << " was asked for but is unavailable: " << b.reason << "\n";
        code = kExitNothingTested;
      }
  if (code == kExitNothingTested) std::cout << "nothing was tested (exit 3): see the SKIPPED and UNIMPLEMENTED reasons\n";
  return code;
}

void add_run_command(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* cmd = root.add_subcommand(
      "run", "Run the conformance cases of ops on backends: each case is checked against the fp64 reference\n"
             "under the op's test plan; crashes and hangs become CRASH/TIMEOUT and the run goes on.");
  add_selection_flags(*cmd, flags->selection);
  add_strict_flag(*cmd, flags->selection);
  cmd->add_option("--out", flags->options.out,
                  "Output folder for results.jsonl/json, run.json, junit.xml, report.html, logs/; locked while the run\n"
                  "lasts (a second run into it exits 2). Given twice, the last wins (repro lines name their own)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
      ->capture_default_str();
  cmd->add_flag("--resume", flags->options.resume, "Keep the cases already in OUT/results.jsonl and run only the rest");
  cmd->add_option("--jobs", flags->options.jobs, "Worker processes at once (each runs one op on one backend)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--case-timeout", flags->options.case_timeout_s, "Seconds a case may run before it is a TIMEOUT")
      ->check(positive_at_most(86400, "seconds"))
      ->capture_default_str();
  add_shard_flags(*cmd, flags->options.farm);
  add_outcome_flags(*cmd, flags->options.farm);
  add_keep_outputs_flags(*cmd, flags->keep);
  cmd->callback([flags, exit_code] {
    harness::Selection selection = to_selection(flags->selection);
    selection.keep = keep_policy(flags->keep, flags->options.out);
    *exit_code = run_conformance(selection, flags->options, flags->selection.backends != "all", invoked_command_line());
  });

  auto worker = std::make_shared<WorkerFlags>();
  // Internal; the empty group hides it from --help (an empty description alone does not).
  CLI::App* w = root.add_subcommand("__worker", "")->group("");
  add_selection_flags(*w, worker->selection);
  add_strict_flag(*w, worker->selection);
  add_worker_keep_flags(*w, worker->keep);
  w->callback([worker, exit_code] {
    harness::Selection s = to_selection(worker->selection);
    s.keep = keep_policy(worker->keep);
    *exit_code = harness::run_worker(s, worker->selection.op, s.backends.at(0));
  });
}

}  // namespace oprig::cli
