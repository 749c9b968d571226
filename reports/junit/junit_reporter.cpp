// JUnit XML writer, built with pugixml so escaping is the library's job; text
// is passed through xml_safe_text first because XML 1.0 cannot hold every byte.
#include "reports/junit/junit_reporter.hpp"

#include <map>
#include <sstream>
#include <utility>

#include <pugixml.hpp>

#include "reports/atomic_file.hpp"
#include "reports/outcome.hpp"
#include "reports/text.hpp"

namespace oprig::reports {
namespace {

struct SuiteTotals {
  uint64_t tests = 0, failures = 0, skipped = 0;
  double seconds = 0;
};

bool is_skip(Verdict v) { return v == Verdict::kSkipped || v == Verdict::kUnimplemented; }

void set_attribute(pugi::xml_node node, const char* name, std::string_view value) {
  node.append_attribute(name).set_value(xml_safe_text(value).c_str());
}

void set_attribute(pugi::xml_node node, const char* name, uint64_t value) {
  node.append_attribute(name).set_value(std::to_string(value).c_str());
}

std::string seconds_text(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", seconds);
  return buffer;
}

void add_text_child(pugi::xml_node parent, const char* name, std::string_view text) {
  parent.append_child(name).append_child(pugi::node_pcdata).set_value(xml_safe_text(text).c_str());
}

std::string first_line(std::string_view text) {
  return std::string(text.substr(0, text.find('\n')));
}

// "FAILED: first line of the message", the one line CI systems show.
std::string verdict_with_message(const CaseResult& c) {
  std::string text(verdict_name(c.verdict));
  if (!c.message.empty()) {
    text += ": ";
    text += first_line(c.message);
  }
  return text;
}

// What a CI log should show for the case: verdict, comparison and timing.
std::string case_details(const CaseResult& c) {
  std::ostringstream out;
  out << "verdict: " << verdict_name(c.verdict) << "\n";
  if (!c.message.empty()) out << "message: " << c.message << "\n";
  out << "op: " << c.op << "  backend: " << c.backend << "  dtype: " << c.dtype
      << "  shape: " << format_shape(c.shape) << "  fill: " << c.fill << "  seed: " << c.seed << "\n";
  if (!c.oracle.empty()) out << "judged by: " << c.oracle << "\n";
  for (const TensorRecord& t : c.inputs)
    out << "input " << t.name << ": " << t.dtype << " " << (t.present ? format_shape(t.shape) : "left out") << "\n";
  auto compare_lines = [&](const CompareStats& s, const std::string& label) {
    out << "compare" << label << ": " << s.mismatches << "/" << s.count << " mismatches, max_abs "
        << format_number(s.max_abs) << ", max_rel " << format_number(s.max_rel) << ", max_ulp "
        << format_number(s.max_ulp) << ", zero_fraction " << format_number(s.zero_fraction)
        << ", tolerance " << s.tolerance << (s.tolerance_source.empty() ? "" : " (" + s.tolerance_source + ")") << "\n";
    for (const Mismatch& m : s.first_mismatches)
      out << "  [" << m.index << "] got " << format_number(m.got, 9) << " expected "
          << format_number(m.expected, 9) << " (" << format_number(m.ulp) << " ulp)\n";
  };
  if (c.outputs.size() > 1) {
    for (const TensorRecord& t : c.outputs)
      if (t.stats) compare_lines(*t.stats, " (output " + t.name + ")");
  } else if (c.stats) {
    compare_lines(*c.stats, "");
  }
  if (c.perf) {
    const PerfStats& p = *c.perf;
    // The dsp's device time is its cost model's: simulated, never a measured time.
    const bool simulated = c.backend == "dsp" && p.device_timer;
    out << "perf: median " << format_duration_ns(p.compute_ns_median) << " ("
        << (simulated ? "simulated: dsp cost model" : p.device_timer ? "device timer" : "host timer") << "), "
        << format_number(p.gelem_per_s, 4) << " Gelem/s, " << format_number(p.gbytes_per_s, 4) << " GB/s";
    if (p.sim_cycles) out << ", " << p.sim_cycles << " simulated cycles";
    out << "\n";
  }
  if (!c.kept_dir.empty()) out << "outputs kept in: " << c.kept_dir << "\n";
  if (const std::string outcome = outcome_text(c); !outcome.empty())
    out << "outcome: " << outcome << (c.outcome.expected_from.empty() ? "" : " (" + c.outcome.expected_from + ")") << "\n";
  if (!c.repro.empty()) out << "repro: " << c.repro << "\n";
  return out.str();
}

}  // namespace

std::string render_junit_xml(const RunResults& results) {
  // Suites in order of first appearance, so the XML follows the run.
  std::vector<std::pair<std::string, std::string>> suite_order;
  std::map<std::pair<std::string, std::string>, std::vector<const CaseResult*>> suites;
  for (const CaseResult& c : results.cases) {
    // A device matrix's cases carry their device: one suite per op x backend x device.
    auto key = std::make_pair(c.op, c.outcome.device.empty() ? c.backend : c.backend + "@" + c.outcome.device);
    auto& members = suites[key];
    if (members.empty()) suite_order.push_back(key);
    members.push_back(&c);
  }

  pugi::xml_document doc;
  pugi::xml_node declaration = doc.append_child(pugi::node_declaration);
  declaration.append_attribute("version").set_value("1.0");
  declaration.append_attribute("encoding").set_value("UTF-8");
  pugi::xml_node root = doc.append_child("testsuites");

  SuiteTotals all;
  std::vector<std::pair<pugi::xml_node, SuiteTotals>> written;
  for (const auto& key : suite_order) {
    const std::string suite_name = key.first + "." + key.second;
    pugi::xml_node suite = root.append_child("testsuite");
    set_attribute(suite, "name", suite_name);
    SuiteTotals totals;
    for (const CaseResult* c : suites[key]) {
      pugi::xml_node testcase = suite.append_child("testcase");
      set_attribute(testcase, "name", c->id);
      set_attribute(testcase, "classname", suite_name);
      set_attribute(testcase, "time", seconds_text(c->wall_ms / 1000.0));
      ++totals.tests;
      totals.seconds += c->wall_ms / 1000.0;
      const std::string& status = c->outcome.status;
      if (counts_as_failure(*c)) {
        ++totals.failures;
        pugi::xml_node failure = testcase.append_child("failure");
        // An UNEXPECTED_PASS or FLAKY the policy fails is named so, not by its verdict.
        set_attribute(failure, "type", status.empty() ? std::string(verdict_name(c->verdict)) : status);
        set_attribute(failure, "message", status.empty() ? verdict_with_message(*c) : outcome_text(*c));
        std::string body = c->message;
        if (!c->repro.empty()) {
          if (!body.empty()) body += '\n';
          body += "repro: ";
          body += c->repro;
        }
        failure.append_child(pugi::node_pcdata).set_value(xml_safe_text(body).c_str());
      } else if (status == kExpectedFailure) {
        // As pytest writes an xfail: apart from the passes, not a failure.
        ++totals.skipped;
        pugi::xml_node skipped = testcase.append_child("skipped");
        set_attribute(skipped, "type", kExpectedFailure);
        set_attribute(skipped, "message", outcome_text(*c) + ": " + verdict_with_message(*c));
      } else if (is_skip(c->verdict)) {
        ++totals.skipped;
        set_attribute(testcase.append_child("skipped"), "message", verdict_with_message(*c));
      } else if (status == kFlaky) {
        // Maven Surefire's re-run format: a passing test case with a flakyFailure per failed attempt.
        for (Verdict v : c->outcome.attempts)
          if (verdict_is_failure(v)) {
            pugi::xml_node flaky = testcase.append_child("flakyFailure");
            set_attribute(flaky, "type", verdict_name(v));
            set_attribute(flaky, "message", outcome_text(*c));
          }
      }
      add_text_child(testcase, "system-out", case_details(*c));
    }
    all.tests += totals.tests;
    all.failures += totals.failures;
    all.skipped += totals.skipped;
    all.seconds += totals.seconds;
    written.emplace_back(suite, totals);
  }

  // Counts go before the children in the file only because attributes always
  // do; they are filled in now that the totals are known.
  auto set_totals = [](pugi::xml_node node, const SuiteTotals& t) {
    set_attribute(node, "tests", t.tests);
    set_attribute(node, "failures", t.failures);
    set_attribute(node, "errors", uint64_t{0});
    set_attribute(node, "skipped", t.skipped);
    set_attribute(node, "time", seconds_text(t.seconds));
  };
  if (!results.complete) {
    // A CI system reads only the XML: an unfinished run must fail there too.
    pugi::xml_node suite = root.append_child("testsuite");
    set_attribute(suite, "name", "oprig.run");
    pugi::xml_node testcase = suite.append_child("testcase");
    set_attribute(testcase, "name", "run_complete");
    set_attribute(testcase, "classname", "oprig.run");
    set_attribute(testcase, "time", seconds_text(0));
    pugi::xml_node failure = testcase.append_child("failure");
    set_attribute(failure, "type", "INCOMPLETE");
    set_attribute(failure, "message", "INCOMPLETE: " + results.incomplete_reason);
    SuiteTotals incomplete{1, 1, 0, 0};
    // oprig merge: each planned case no input ran.
    for (const std::string& id : results.farm.missing) {
      pugi::xml_node missing = suite.append_child("testcase");
      set_attribute(missing, "name", id);
      set_attribute(missing, "classname", "oprig.run");
      set_attribute(missing, "time", seconds_text(0));
      pugi::xml_node failure = missing.append_child("failure");
      set_attribute(failure, "type", "MISSING");
      set_attribute(failure, "message", "MISSING: planned, and no merged shard has a result for it");
      ++incomplete.tests;
      ++incomplete.failures;
    }
    all.tests += incomplete.tests;
    all.failures += incomplete.failures;
    written.emplace_back(suite, incomplete);
  }
  set_attribute(root, "name", "oprig");
  set_totals(root, all);
  for (auto& [suite, totals] : written) {
    set_totals(suite, totals);
    if (!results.environment.started_at.empty())
      set_attribute(suite, "timestamp", results.environment.started_at);
    if (!results.environment.hostname.empty())
      set_attribute(suite, "hostname", results.environment.hostname);
  }

  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

void JUnitReporter::finish(const RunResults& results) {
  write_file_atomically(path_, render_junit_xml(results));
}

}  // namespace oprig::reports
