// report.html: self-contained, escaped, and carrying the sections a reader
// looks for. Checked on the text; the browser check renders it for real.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

#include "reports/html/html_reporter.hpp"
#include "sample_results.hpp"

namespace oprig::reports {
namespace {

using testing::make_sample_results;

size_t count_of(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

class Html : public ::testing::Test {
 protected:
  const std::string page = render_html(make_sample_results());
};

TEST_F(Html, DataNeverBecomesMarkup) {
  // The page has no script of its own, so any "<script" would come from data.
  EXPECT_EQ(lower(page).find("<script"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;double&quot; &#39;single&#39;"),
            std::string::npos);
  EXPECT_EQ(page.find("\"double\""), std::string::npos);
  EXPECT_EQ(page.find("'single'"), std::string::npos);
}

TEST_F(Html, HostileBackendAndOpNamesAreEscapedToo) {
  RunResults r = make_sample_results();
  r.cases[0].backend = "<img src=x onerror=alert(1)>";
  r.cases[0].op = "</table><script>";
  r.environment.cpu_model = "<b>cpu</b>";
  const std::string hostile = render_html(r);
  EXPECT_EQ(hostile.find("<img"), std::string::npos);
  EXPECT_EQ(lower(hostile).find("<script"), std::string::npos);
  EXPECT_EQ(hostile.find("<b>cpu"), std::string::npos);
  EXPECT_NE(hostile.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
}

TEST_F(Html, IncompleteRunSaysSoInTheBanner) {
  RunResults results = make_sample_results();
  EXPECT_EQ(render_html(results).find("INCOMPLETE"), std::string::npos);
  results.complete = false;
  results.incomplete_reason = "stopped <by> SIGINT";
  const std::string html = render_html(results);
  EXPECT_NE(html.find("<div class=\"banner v-failed\" id=\"incomplete\">INCOMPLETE: stopped &lt;by&gt; SIGINT</div>"),
            std::string::npos);
}

// The sample: cpu 2 PASSED + 1 FAILED; opencl 1 SKIPPED ("no OpenCL platform"),
// 1 UNIMPLEMENTED ("no f16 kernel"), 1 CRASH.
TEST_F(Html, BannerSaysWhatPassedFailedAndWasNotTested) {
  EXPECT_NE(page.find("<div class=\"banner v-failed\" id=\"verdict-banner\">FAILED: 2 of 6 cases failed (1 FAILED, "
                      "1 CRASH); 2 passed; 2 not tested (1 UNIMPLEMENTED, 1 SKIPPED)</div>"),
            std::string::npos);
  // Per backend: passed, warnings, failing, not tested, and why.
  EXPECT_NE(page.find("<tr><td><strong>cpu</strong></td><td class=\"num\">2</td><td class=\"num\">0</td>"
                      "<td class=\"num\">1</td><td class=\"num\">0</td><td>&mdash;"),
            std::string::npos);
  EXPECT_NE(page.find("<tr><td><strong>opencl</strong></td><td class=\"num\">0</td><td class=\"num\">0</td>"
                      "<td class=\"num\">1</td><td class=\"num\">2</td>"),
            std::string::npos);
  // Reasons that name no op say which ops gave them.
  EXPECT_NE(page.find("<li>1 <span class=\"badge v-skipped\">SKIPPED</span> no OpenCL platform "
                      "<span class=\"muted\">(atan)</span></li>"),
            std::string::npos);
  EXPECT_NE(page.find("<li>1 <span class=\"badge v-unimplemented\">UNIMPLEMENTED</span> no f16 kernel "
                      "<span class=\"muted\">(atan)</span></li>"),
            std::string::npos);
}

TEST(HtmlBanner, AGreenRunSaysHowManyCasesWereNotTested) {
  RunResults r = make_sample_results();
  std::erase_if(r.cases, [](const CaseResult& c) { return verdict_is_failure(c.verdict); });
  const std::string page = render_html(r);
  EXPECT_NE(page.find("<div class=\"banner v-passed\" id=\"verdict-banner\">PASSED: 2 of 4 cases passed, none failed; "
                      "2 not tested (1 UNIMPLEMENTED, 1 SKIPPED)</div>"),
            std::string::npos);
  std::erase_if(r.cases, [](const CaseResult& c) { return c.verdict == Verdict::kPassed; });
  EXPECT_NE(render_html(r).find("<div class=\"banner v-skipped\" id=\"verdict-banner\">NOTHING TESTED: none of the "
                                "2 cases ran a kernel to a verdict (1 UNIMPLEMENTED, 1 SKIPPED)</div>"),
            std::string::npos);
}

TEST(HtmlTolerances, EachRuleWithWhereItComesFromAndHowManyOutputsItJudged) {
  RunResults r = make_sample_results();
  for (CaseResult& c : r.cases)
    for (TensorRecord& t : c.outputs)
      if (t.stats) t.stats->tolerance_source = "plan FLOAT_32: within 3 ulp";
  CaseResult golden = r.cases.front();
  golden.id = "atan__golden__onnx_atan__cpu";
  golden.outputs[0].stats->tolerance = "atol<=1e-07 rtol<=0.001";
  golden.outputs[0].stats->tolerance_source = "golden manifest: ONNX's own rule";
  r.cases.push_back(golden);
  const std::string page = render_html(r);
  // The sample's three cpu cases have one judged output each; one of them is the FAILED case.
  EXPECT_NE(page.find("<tr><td>atan</td><td><code>ulp&lt;=3</code></td><td class=\"num\">3</td>"
                      "<td class=\"num\">1</td><td>plan FLOAT_32: within 3 ulp</td></tr>"),
            std::string::npos);
  EXPECT_NE(page.find("<tr><td>atan</td><td><code>atol&lt;=1e-07 rtol&lt;=0.001</code></td><td class=\"num\">1</td>"
                      "<td class=\"num\">0</td><td>golden manifest: ONNX&#39;s own rule</td></tr>"),
            std::string::npos);
}

TEST(HtmlKeptOutputs, TheFailureCardNamesTheFolder) {
  RunResults r = make_sample_results();
  r.cases[2].kept_dir = "/tmp/run/kept/atan__f32__1x3x5x7__edge__p0__cpu";
  r.cases[5].kept_note = "not kept: the --keep-outputs cap of 1.0 KiB is reached";
  const std::string page = render_html(r);
  EXPECT_NE(page.find("are kept in <code>/tmp/run/kept/atan__f32__1x3x5x7__edge__p0__cpu</code>"), std::string::npos);
  EXPECT_NE(page.find("Outputs not kept: the --keep-outputs cap of 1.0 KiB is reached"), std::string::npos);
}

TEST_F(Html, NeedsNoNetwork) {
  const std::string text = lower(page);
  EXPECT_EQ(text.find("http://"), std::string::npos);
  EXPECT_EQ(text.find("https://"), std::string::npos);
  EXPECT_EQ(text.find("<link"), std::string::npos);
  EXPECT_EQ(text.find("@import"), std::string::npos);
  EXPECT_EQ(text.find("url("), std::string::npos);
  EXPECT_EQ(text.find(" src="), std::string::npos);
  // And the page forbids loading anything even if something slipped through.
  EXPECT_NE(page.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
}

TEST_F(Html, IsOneDocumentWithInlineStyle) {
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count_of(page, "<style>"), 1u);
  EXPECT_EQ(count_of(page, "</html>"), 1u);
  EXPECT_NE(page.find(".v-failed {"), std::string::npos);
}

TEST_F(Html, EnvironmentHeader) {
  for (const char* text : {"0.1.0", "abc1234", "Test CPU", "testhost", "no OpenCL platform", "AuthenticAMD"})
    EXPECT_NE(page.find(text), std::string::npos) << text;
}

TEST_F(Html, SummaryMatrixRowsAndWorstVerdictColour) {
  EXPECT_EQ(count_of(page, "id=\"summary-matrix\""), 1u);
  // Rows are op x dtype: atan f32 and atan f16.
  EXPECT_EQ(count_of(page, "class=\"matrix-row\""), 2u);
  // atan f32 on cpu: PASSED, PASSED, FAILED -> coloured FAILED.
  EXPECT_NE(page.find("<td class=\"cell v-failed\" title=\"atan f32 on cpu: worst verdict FAILED\">"
                      "<span class=\"count\">1 FAILED</span><span class=\"count\">2 PASSED</span>"),
            std::string::npos);
  // atan f32 on opencl: SKIPPED, CRASH -> CRASH.
  EXPECT_NE(page.find("title=\"atan f32 on opencl: worst verdict CRASH\""), std::string::npos);
  // atan f16 has no cpu case.
  EXPECT_NE(page.find("<td class=\"empty\">&mdash;</td>"), std::string::npos);
}

TEST_F(Html, LegendHasEveryVerdictMeaning) {
  for (Verdict v : kAllVerdicts) {
    // The meanings use no markup characters except the apostrophe in "plan's".
    std::string meaning(verdict_meaning(v));
    if (auto at = meaning.find('\''); at != std::string::npos) meaning.replace(at, 1, "&#39;");
    EXPECT_NE(page.find(meaning), std::string::npos) << verdict_name(v);
  }
}

TEST_F(Html, FailuresShowMessageMismatchesAndRepro) {
  EXPECT_NE(page.find("<code>oprig run --case atan__f32__1x3x5x7__edge__p0__cpu # &lt;script&gt;"), std::string::npos);
  EXPECT_NE(page.find("2 of 105 elements outside tolerance"), std::string::npos);
  // First mismatch: index 7 at (0, 0, 1, 0), got 0, expected 1e-40, 16 ulp.
  EXPECT_NE(page.find("<td class=\"num\">7</td><td class=\"mono\">(0, 0, 1, 0)</td><td class=\"num\">0</td>"
                      "<td class=\"num\">1e-40</td><td class=\"num\">16</td>"),
            std::string::npos);
  EXPECT_NE(page.find("worker killed by signal 11 (SIGSEGV)"), std::string::npos);
  EXPECT_NE(page.find("id=\"not-tested\""), std::string::npos);
}

TEST_F(Html, PerfTableAndChart) {
  EXPECT_NE(page.find("id=\"perf-table\""), std::string::npos);
  // The row names its case (fill and variant too); 1 Mi elements in 1 ms:
  // 1.05 Gelem/s, 8.39 GB/s, host timer; 3 samples are only indicative.
  EXPECT_NE(page.find("<tr><td class=\"mono\">atan__f32__1x1024x1024__uniform__p0__cpu</td><td>atan</td><td>cpu</td>"
                      "<td>f32</td><td class=\"mono\">1x1024x1024</td><td>uniform</td><td>p0</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<td class=\"num\">1.00 ms</td><td class=\"num\">950 us</td>"
                      "<td class=\"num\">3 (indicative)</td><td class=\"num\">1.05</td>"
                      "<td class=\"num\">8.39</td><td>host</td><td class=\"num\">&mdash;</td>"),
            std::string::npos);
  EXPECT_EQ(count_of(page, "<svg class=\"chart\""), 1u);
  EXPECT_EQ(count_of(page, "<rect class=\"bar-cpu\""), 1u);
  EXPECT_NE(page.find("1.05 Gelem/s"), std::string::npos);
}

TEST(HtmlModelCases, TimedInTheTableButKeptOutOfTheThroughputChart) {
  RunResults results = make_sample_results();
  CaseResult model = results.cases.front();
  model.id = "controlflow__while_fibonacci__bound_100__cpu";
  model.op = "controlflow";
  model.dtype = "INT_32";
  PerfStats p;
  p.compute_ns_median = p.compute_ns_min = 2'000'000;  // 2 ms for the whole graph, no element count
  p.loop_iterations = 101;
  model.perf = p;
  results.cases.push_back(model);
  const std::string page = render_html(results);
  EXPECT_NE(page.find("<td>controlflow</td><td>" + model.backend + "</td><td>INT_32</td>"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"num\">2.00 ms</td><td class=\"num\">2.00 ms</td>"
                      "<td class=\"num\">0 (indicative)</td><td class=\"num\">&mdash;</td>"
                      "<td class=\"num\">&mdash;</td><td>host</td><td class=\"num\">&mdash;</td>"
                      "<td class=\"num\">&mdash;</td><td class=\"num\">101</td></tr>"),
            std::string::npos);
  EXPECT_EQ(count_of(page, "<rect class=\"bar-"), 1u);  // the sample's one Atan bar, none for the model
  EXPECT_EQ(page.find("controlflow \xC2\xB7 INT_32"), std::string::npos);
}

TEST(HtmlPerf, BenchRepetitionsAreNotIndicative) {
  RunResults results = make_sample_results();
  for (CaseResult& c : results.cases)
    if (c.perf) c.perf->compute_ns_samples.assign(9, 1'000'000);
  const std::string page = render_html(results);
  EXPECT_NE(page.find("<td class=\"num\">9</td>"), std::string::npos);
  EXPECT_EQ(page.find("9 (indicative)"), std::string::npos);
}

TEST(HtmlPerf, SimulatedDspTimeStaysOffTheRealTimeAxis) {
  RunResults results = make_sample_results();
  CaseResult dsp = results.cases.front();
  dsp.id = "atan__u8__1x1024x1024__uniform__p0__dsp";
  dsp.backend = "dsp";
  dsp.dtype = "u8";
  PerfStats p;
  p.device_timer = true;  // the cost model's time
  p.compute_ns_median = p.compute_ns_min = 262'144;
  p.sim_cycles = 262'144;
  p.elements = 1 << 20;
  p.gelem_per_s = 4;
  dsp.perf = p;
  results.cases.push_back(dsp);
  const std::string page = render_html(results);
  // Real-time columns empty, the simulated time in its own column, no bar.
  EXPECT_NE(page.find("<td class=\"num\">&mdash;</td><td class=\"num\">&mdash;</td><td class=\"num\">0 (indicative)"
                      "</td><td class=\"num\">&mdash;</td><td class=\"num\">&mdash;</td><td>dsp cost model</td>"
                      "<td class=\"num\">262 us</td><td class=\"num\">262144</td>"),
            std::string::npos);
  EXPECT_EQ(count_of(page, "<rect class=\"bar-"), 1u);  // the cpu row's only
}

TEST(HtmlEmpty, EmptyRunRendersAndSaysSo) {
  const std::string page = render_html(RunResults{});
  EXPECT_NE(page.find("No cases in this run"), std::string::npos);
  EXPECT_NE(page.find("No performance measurements"), std::string::npos);
}

}  // namespace
}  // namespace oprig::reports

namespace oprig::reports {
namespace {

// A failing case with two outputs: each output's comparison appears under its
// name, and the tensors table lists inputs (one left out) and outputs.
RunResults two_output_failure() {
  RunResults r = testing::make_sample_results();
  CaseResult& c = r.cases.at(2);
  c.oracle = "golden";
  c.inputs = {TensorRecord{"x", "FLOAT_32", {4, 8}, 0, 0, true, false, std::nullopt},
              TensorRecord{"mask", "BOOL_8", {}, 0, 0, false, false, std::nullopt}};
  CompareStats values{8, 0, 0, 0, 0, 0, "ulp<=1", {}};
  CompareStats indices{8, 3, 2, 1, 2, 0, "lsb<=0", {{1, {0, 1}, 5, 3, 2}}};
  c.outputs = {TensorRecord{"values", "FLOAT_32", {4, 2}, 0, 0, true, false, values},
               TensorRecord{"indices_out", "INT_32", {4, 2}, 0, 0, true, false, indices}};
  c.stats = indices;
  return r;
}

TEST(HtmlTensors, EachOutputIsComparedUnderItsNameAndTheOracleIsNamed) {
  const std::string page = render_html(two_output_failure());
  EXPECT_NE(page.find("judged by: golden"), std::string::npos);
  EXPECT_NE(page.find("output <code>values</code>"), std::string::npos);
  EXPECT_NE(page.find("output <code>indices_out</code>"), std::string::npos);
  EXPECT_NE(page.find("3 of 8 elements outside tolerance"), std::string::npos);
  EXPECT_NE(page.find("left out (optional)"), std::string::npos);
  EXPECT_NE(page.find("<code>mask</code>"), std::string::npos);
}

// With a baseline the perf table says how each case changed and puts the
// worst regression first, whatever the op order would be.
TEST(HtmlBaseline, RowsComeWorstRegressionFirstWithTheirRatioAndInterval) {
  RunResults r = testing::make_sample_results();
  CaseResult second = r.cases.at(1);
  second.id = "atan__f32__2x1024x1024__uniform__p0__cpu";  // sorts after the first by op, dtype and size
  second.perf->elements *= 2;
  r.cases.push_back(second);
  PerfBaseline baseline;
  baseline.label = "nightly/<base>";
  baseline.rule = "alpha 0.05";
  baseline.rows["atan__f32__1x1024x1024__uniform__p0__cpu"] = {"SAME", 1.01, 0.99, 1.03, 990'000, 11, ""};
  baseline.rows["atan__f32__2x1024x1024__uniform__p0__cpu"] = {"REGRESSED", 1.4, 1.3, 1.5, 700'000, 11, ""};
  baseline.only_in_baseline = 2;
  const std::string page = render_html(r, &baseline);
  const size_t worse = page.find("<td class=\"mono\">atan__f32__2x1024x1024__uniform__p0__cpu");
  const size_t same = page.find("<td class=\"mono\">atan__f32__1x1024x1024__uniform__p0__cpu");
  ASSERT_NE(worse, std::string::npos);
  ASSERT_NE(same, std::string::npos);
  EXPECT_LT(worse, same);
  EXPECT_NE(page.find("1.4 [1.3, 1.5]"), std::string::npos);
  EXPECT_NE(page.find("<span class=\"badge v-failed\">REGRESSED</span>"), std::string::npos);
  EXPECT_NE(page.find("1 regressed, 0 improved, 1 unchanged"), std::string::npos);
  EXPECT_NE(page.find("2 timed only in the baseline"), std::string::npos);
  EXPECT_NE(page.find("nightly/&lt;base&gt;"), std::string::npos);  // the label is escaped
  // Without a baseline the table has no baseline columns.
  EXPECT_EQ(render_html(r).find("new / base"), std::string::npos);
}

}  // namespace
}  // namespace oprig::reports
