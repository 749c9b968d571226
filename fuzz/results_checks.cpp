#include "results_checks.hpp"

#include <pugixml.hpp>

#include "fuzz_support.hpp"
#include "reports/html/html_reporter.hpp"
#include "reports/junit/junit_reporter.hpp"
#include "reports/summary.hpp"

namespace oprig::fuzz {

void check_results(const reports::RunResults& results) {
  // Compared as text: NaN fields (written as "NaN") make operator== unequal to itself.
  const std::string written = reports::dump_json(nlohmann::json(results));
  reports::RunResults back;
  try {
    back = nlohmann::json::parse(written).get<reports::RunResults>();
  } catch (const std::exception& e) {
    finding(std::string("results -> JSON -> results failed: ") + e.what() + "\n" + written);
  }
  if (reports::dump_json(nlohmann::json(back)) != written) finding("results -> JSON -> results changed them:\n" + written);
  for (const reports::CaseResult& c : results.cases) {
    reports::CaseResult line;
    try {
      line = nlohmann::json::parse(reports::to_jsonl_line(c)).get<reports::CaseResult>();
    } catch (const std::exception& e) {
      finding(std::string("a results.jsonl line does not read back: ") + e.what());
    }
    if (reports::to_jsonl_line(line) != reports::to_jsonl_line(c)) finding("a results.jsonl line changed on the way back");
  }
  (void)reports::summary_table(results);
  (void)reports::exit_code_for(results);
  (void)reports::render_html(results);
  const std::string junit = reports::render_junit_xml(results);
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(junit.data(), junit.size());
  if (!parsed) finding(std::string("junit.xml is not well formed XML: ") + parsed.description() + "\n" + junit);
}

}  // namespace oprig::fuzz
