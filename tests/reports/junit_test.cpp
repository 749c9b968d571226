// junit.xml parses as XML and carries the right counts, texts and escapes.
#include <gtest/gtest.h>

#include <pugixml.hpp>

#include "reports/junit/junit_reporter.hpp"
#include "sample_results.hpp"

namespace oprig::reports {
namespace {

using testing::kHostileText;
using testing::make_sample_results;

pugi::xml_document parse(const std::string& xml) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_string(xml.c_str());
  EXPECT_TRUE(parsed) << parsed.description() << " at offset " << parsed.offset;
  return doc;
}

pugi::xml_node suite_named(const pugi::xml_node& root, const char* name) {
  return root.find_child_by_attribute("testsuite", "name", name);
}

// An unfinished run fails in CI even when every case it ran passed.
TEST(JUnit, IncompleteRunIsAFailingTestCase) {
  RunResults results = make_sample_results();
  EXPECT_EQ(parse(render_junit_xml(results)).select_nodes("//failure[@type='INCOMPLETE']").size(), 0u);
  results.complete = false;
  results.incomplete_reason = "3 of 9 planned cases have no result";
  const pugi::xml_document doc = parse(render_junit_xml(results));
  const pugi::xml_node root = doc.child("testsuites");
  EXPECT_EQ(root.attribute("tests").as_int(), 7);
  EXPECT_EQ(root.attribute("failures").as_int(), 3);
  const pugi::xml_node failure = doc.select_node("//testcase[@name='run_complete']/failure[@type='INCOMPLETE']").node();
  ASSERT_TRUE(failure);
  EXPECT_STREQ(failure.attribute("message").value(), "INCOMPLETE: 3 of 9 planned cases have no result");
  EXPECT_EQ(suite_named(root, "oprig.run").attribute("failures").as_int(), 1);
}

TEST(JUnit, TotalsMatchTheVerdicts) {
  const pugi::xml_document doc = parse(render_junit_xml(make_sample_results()));
  const pugi::xml_node root = doc.child("testsuites");
  ASSERT_TRUE(root);
  // 6 cases; FAILED + CRASH are failures; SKIPPED + UNIMPLEMENTED are skipped.
  EXPECT_EQ(root.attribute("tests").as_int(), 6);
  EXPECT_EQ(root.attribute("failures").as_int(), 2);
  EXPECT_EQ(root.attribute("skipped").as_int(), 2);
  EXPECT_EQ(root.attribute("errors").as_int(), 0);
  EXPECT_EQ(doc.select_nodes("//testcase").size(), 6u);
  EXPECT_EQ(doc.select_nodes("//testcase/failure").size(), 2u);
  EXPECT_EQ(doc.select_nodes("//testcase/skipped").size(), 2u);
  EXPECT_EQ(doc.select_nodes("//testcase/system-out").size(), 6u);
}

TEST(JUnit, OneSuitePerOpAndBackend) {
  const pugi::xml_document doc = parse(render_junit_xml(make_sample_results()));
  const pugi::xml_node root = doc.child("testsuites");
  EXPECT_EQ(root.select_nodes("testsuite").size(), 2u);
  const pugi::xml_node cpu = suite_named(root, "atan.cpu");
  ASSERT_TRUE(cpu);
  EXPECT_EQ(cpu.attribute("tests").as_int(), 3);
  EXPECT_EQ(cpu.attribute("failures").as_int(), 1);
  EXPECT_EQ(cpu.attribute("skipped").as_int(), 0);
  EXPECT_EQ(cpu.attribute("hostname").as_string(), std::string("testhost"));
  // Wall times 1.25 + 40 + 2 ms.
  EXPECT_STREQ(cpu.attribute("time").as_string(), "0.043");
  const pugi::xml_node opencl = suite_named(root, "atan.opencl");
  ASSERT_TRUE(opencl);
  EXPECT_EQ(opencl.attribute("tests").as_int(), 3);
  EXPECT_EQ(opencl.attribute("failures").as_int(), 1);
  EXPECT_EQ(opencl.attribute("skipped").as_int(), 2);
}

TEST(JUnit, FailureCarriesMessageAndRepro) {
  const pugi::xml_document doc = parse(render_junit_xml(make_sample_results()));
  const pugi::xml_node failed =
      doc.select_node("//testcase[@name='atan__f32__1x3x5x7__edge__p0__cpu']").node();
  ASSERT_TRUE(failed);
  EXPECT_STREQ(failed.attribute("classname").as_string(), "atan.cpu");
  const pugi::xml_node failure = failed.child("failure");
  ASSERT_TRUE(failure);
  EXPECT_STREQ(failure.attribute("type").as_string(), "FAILED");
  // The hostile text survives escaping and parsing unchanged.
  EXPECT_EQ(std::string(failure.attribute("message").as_string()),
            std::string("FAILED: 2 of 105 outside ulp<=3; ") + kHostileText);
  const std::string body = failure.text().as_string();
  EXPECT_NE(body.find(std::string("repro: oprig run --case atan__f32__1x3x5x7__edge__p0__cpu # ") + kHostileText),
            std::string::npos)
      << body;
  const std::string out = failed.child("system-out").text().as_string();
  EXPECT_NE(out.find("compare: 2/105 mismatches"), std::string::npos) << out;
  EXPECT_NE(out.find("tolerance ulp<=3"), std::string::npos) << out;

  const pugi::xml_node crash =
      doc.select_node("//testcase[@name='atan__f32__1x1__uniform__p0__opencl']/failure").node();
  EXPECT_STREQ(crash.attribute("type").as_string(), "CRASH");
}

TEST(JUnit, SkippedAndPassedCases) {
  const pugi::xml_document doc = parse(render_junit_xml(make_sample_results()));
  const pugi::xml_node skipped =
      doc.select_node("//testcase[@name='atan__f16__1x3x5x7__uniform__p0__opencl']/skipped").node();
  EXPECT_STREQ(skipped.attribute("message").as_string(), "UNIMPLEMENTED: no f16 kernel");
  const pugi::xml_node perf = doc.select_node("//testcase[@name='atan__f32__1x1024x1024__uniform__p0__cpu']").node();
  ASSERT_TRUE(perf);
  EXPECT_FALSE(perf.child("failure"));
  EXPECT_FALSE(perf.child("skipped"));
  const std::string out = perf.child("system-out").text().as_string();
  EXPECT_NE(out.find("perf: median 1.00 ms (host timer)"), std::string::npos) << out;
}

// A dsp case's device time is the cost model's: the output calls it simulated,
// never a timer's reading.
TEST(JUnit, DspTimeIsCalledSimulated) {
  RunResults r = make_sample_results();
  CaseResult& c = r.cases[1];
  c.id = "atan__f32__1x1024x1024__uniform__p0__dsp";
  c.backend = "dsp";
  c.perf->device_timer = true;
  c.perf->sim_cycles = 1'000'000;
  const pugi::xml_document doc = parse(render_junit_xml(r));
  const std::string out =
      doc.select_node("//testcase[@name='atan__f32__1x1024x1024__uniform__p0__dsp']/system-out")
          .node().text().as_string();
  EXPECT_NE(out.find("perf: median 1.00 ms (simulated: dsp cost model)"), std::string::npos) << out;
  EXPECT_NE(out.find("1000000 simulated cycles"), std::string::npos) << out;
  EXPECT_EQ(out.find("timer"), std::string::npos) << out;
}

TEST(JUnit, TheRuleThatJudgedAndTheKeptFolderAreInTheCaseOutput) {
  RunResults r = make_sample_results();
  r.cases[2].stats->tolerance_source = "golden manifest: ONNX's own rule";
  r.cases[2].kept_dir = "/tmp/out/kept/atan__f32__1x3x5x7__edge__p0__cpu";
  const pugi::xml_document doc = parse(render_junit_xml(r));
  const std::string out =
      doc.select_node("//testcase[@name='atan__f32__1x3x5x7__edge__p0__cpu']/system-out").node().text().as_string();
  EXPECT_NE(out.find("tolerance ulp<=3 (golden manifest: ONNX's own rule)"), std::string::npos) << out;
  EXPECT_NE(out.find("outputs kept in: /tmp/out/kept/atan__f32__1x3x5x7__edge__p0__cpu"), std::string::npos) << out;
}

TEST(JUnit, ControlCharactersAndBadUtf8StayWellFormed) {
  RunResults r = make_sample_results();
  r.cases[2].message = std::string("bell\x07 nul") + '\0' + "tail \xc3\x28 ]]> end";
  const std::string xml = render_junit_xml(r);
  const pugi::xml_document doc = parse(xml);
  const std::string message =
      doc.select_node("//testcase[@name='atan__f32__1x3x5x7__edge__p0__cpu']/failure").node().attribute("message").as_string();
  EXPECT_EQ(message, "FAILED: bell\xEF\xBF\xBD nul\xEF\xBF\xBDtail \xEF\xBF\xBD( ]]> end");
}

TEST(JUnit, EmptyRunIsAValidDocument) {
  const pugi::xml_document doc = parse(render_junit_xml(RunResults{}));
  EXPECT_EQ(doc.child("testsuites").attribute("tests").as_int(), 0);
}

}  // namespace
}  // namespace oprig::reports

namespace oprig::reports {
namespace {

TEST(JUnitTensors, EveryOutputsComparisonIsInTheLog) {
  RunResults r = testing::make_sample_results();
  CaseResult& c = r.cases.at(2);
  c.outputs = {TensorRecord{"values", "FLOAT_32", {2}, 0, 0, true, false, CompareStats{2, 0, 0, 0, 0, 0, "ulp<=1", {}}},
               TensorRecord{"indices", "INT_32", {2}, 0, 0, true, false, CompareStats{2, 1, 1, 1, 1, 0, "lsb<=0", {}}}};
  const pugi::xml_document doc = parse(render_junit_xml(r));
  const std::string out =
      doc.select_node("//testcase[@name='atan__f32__1x3x5x7__edge__p0__cpu']/system-out").node().text().as_string();
  EXPECT_NE(out.find("compare (output values): 0/2 mismatches"), std::string::npos) << out;
  EXPECT_NE(out.find("compare (output indices): 1/2 mismatches"), std::string::npos) << out;
}

}  // namespace
}  // namespace oprig::reports
