// History records: file names, never overwriting, dates in UTC, the JSON
// round trip, malformed records, and series chosen by machine fingerprint.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "perf/history.hpp"
#include "perf/history_report.hpp"
#include "perf/perf_error.hpp"

namespace oprig::perf {
namespace {

class HistoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("oprig_history_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

MachineInfo machine(const std::string& model) {
  MachineInfo m;
  m.cpu_model = model;
  m.cpu_signature = "AuthenticAMD family 26 model 2 stepping 1";
  m.logical_cpus = 2;
  m.cpu_isa = "AVX-512";
  m.isa_flags = {"avx2", "avx512f", "fma"};
  m.backends = {{"cpu", true, model + " (2 threads)", "Eigen 3.4.0 thread pool, AVX-512"},
                {"opencl", false, "", ""}};
  m.fingerprint = compute_fingerprint(m);
  return m;
}

BenchmarkFile run(const std::string& date, const std::vector<std::pair<std::string, std::vector<double>>>& ms) {
  nlohmann::json doc = {{"context", {{"date", date}}}, {"benchmarks", nlohmann::json::array()}};
  for (const auto& [name, values] : ms)
    for (size_t i = 0; i < values.size(); ++i)
      doc["benchmarks"].push_back({{"name", name},
                                   {"run_name", name},
                                   {"run_type", "iteration"},
                                   {"repetition_index", i},
                                   {"real_time", values[i]},
                                   {"cpu_time", values[i] / 2},
                                   {"time_unit", "ms"},
                                   {"bytes_per_second", 1e9},
                                   {"sim_cycles", 42}});
  return parse_benchmark_json(doc, "night/benchmark.json");
}

TEST(HistoryDates, ConvertedToUtc) {
  EXPECT_EQ(to_utc_iso8601("2026-11-23T08:49:48+01:00"), "2026-11-23T07:49:48Z");
  EXPECT_EQ(to_utc_iso8601("2026-11-23T01:30:00-05:30"), "2026-11-23T07:00:00Z");
  EXPECT_EQ(to_utc_iso8601("2026-01-01T00:10:00+02:00"), "2025-12-31T22:10:00Z");
  EXPECT_EQ(to_utc_iso8601("2016-08-02 17:44:46"), "2016-08-02T17:44:46Z");
  EXPECT_EQ(to_utc_iso8601("2026-11-23T07:49:48.123Z"), "2026-11-23T07:49:48Z");
  EXPECT_EQ(to_utc_iso8601("yesterday"), "");
}

TEST(MachineFingerprint, HashesSpeedFactsOnly) {
  const MachineInfo a = machine("AMD EPYC");
  MachineInfo b = a;
  b.hostname = "another-runner";
  b.os = "Linux 6.2";
  b.l3_bytes = 32 << 20;
  EXPECT_EQ(compute_fingerprint(b), a.fingerprint);
  b.backends[0].driver = "Eigen 3.4.0 thread pool, AVX2+FMA (capped from AVX-512)";
  EXPECT_NE(compute_fingerprint(b), a.fingerprint);
  b = a;
  b.cpu_signature = "AuthenticAMD family 25 model 1 stepping 1";  // Zen 3 under the same model name
  EXPECT_NE(compute_fingerprint(b), a.fingerprint);
  EXPECT_EQ(a.fingerprint.size(), 12u);
  EXPECT_EQ(machine_from_json(machine_to_json(a), "x").backends[0].device, "AMD EPYC (2 threads)");
  EXPECT_THROW(machine_from_json(nlohmann::json{{"cpu_model", "x"}}, "x"), PerfInputError);
}

TEST_F(HistoryTest, FileNamesAndNoOverwrite) {
  const HistoryRecord r = make_history_record(run("2026-11-23T08:49:48+01:00", {{"a", {1, 2, 3}}}),
                                              machine("AMD EPYC"), "test", "1a2b/c", "--git-rev",
                                              "2026-11-23T09:00:00Z");
  EXPECT_EQ(r.run_date, "2026-11-23T07:49:48Z");
  EXPECT_EQ(history_file_stem(r), "2026-11-23_1a2b-c_" + r.machine.fingerprint);
  const auto first = write_history_record(dir_, r);
  const auto second = write_history_record(dir_, r);
  const auto third = write_history_record(dir_, r);
  EXPECT_EQ(first.filename().string(), history_file_stem(r) + ".json");
  EXPECT_EQ(second.filename().string(), history_file_stem(r) + "_2.json");
  EXPECT_EQ(third.filename().string(), history_file_stem(r) + "_3.json");
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir_)) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 3u);  // no temporary left behind
}

TEST_F(HistoryTest, RoundTripKeepsEveryRepetition) {
  const HistoryRecord r = make_history_record(run("2026-11-23T07:00:00+00:00", {{"a", {1, 2, 3}}, {"b", {4, 5}}}),
                                              machine("AMD EPYC"), "test", "abc", "--git-rev", "now");
  write_history_record(dir_, r);
  const std::vector<HistoryRecord> read = read_history(dir_);
  ASSERT_EQ(read.size(), 1u);
  const HistoryRecord& back = read[0];
  EXPECT_EQ(back.git_revision, "abc");
  EXPECT_EQ(back.machine.fingerprint, r.machine.fingerprint);
  ASSERT_EQ(back.benchmarks.size(), 2u);
  EXPECT_EQ(back.benchmarks[0].real_ns, (std::vector<double>{1e6, 2e6, 3e6}));
  EXPECT_EQ(back.benchmarks[0].cpu_ns, (std::vector<double>{5e5, 1e6, 1.5e6}));
  EXPECT_EQ(back.benchmarks[1].counters.at("sim_cycles"), 42);
  EXPECT_EQ(back.gbench_context.at("date"), "2026-11-23T07:00:00+00:00");
}

TEST_F(HistoryTest, MalformedRecordsAreNamed) {
  std::filesystem::create_directories(dir_);
  std::ofstream(dir_ / "bad.json") << "{\"schema\": \"something-else\"}";
  try {
    read_history(dir_);
    FAIL() << "no error";
  } catch (const PerfInputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json: schema \"something-else\""), std::string::npos) << e.what();
  }
  std::ofstream(dir_ / "bad.json") << "{not json";
  EXPECT_THROW(read_history(dir_), PerfInputError);
  EXPECT_THROW(read_history(dir_ / "missing"), PerfInputError);
}

TEST_F(HistoryTest, SeriesComeFromOneMachineOldestFirst) {
  const MachineInfo here = machine("AMD EPYC"), there = machine("Other CPU");
  // Written out of order: read_history sorts by run date.
  write_history_record(dir_, make_history_record(run("2026-11-03T02:00:00+00:00", {{"a", {3, 3.2, 2.8}}}), here,
                                                 "t", "r3", "t", "now"));
  write_history_record(dir_, make_history_record(run("2026-11-01T02:00:00+00:00", {{"a", {1, 1.5, 0.5}}}), here,
                                                 "t", "r1", "t", "now"));
  write_history_record(dir_, make_history_record(run("2026-11-02T02:00:00+00:00", {{"a", {9, 9, 9}}}), there,
                                                 "t", "r2", "t", "now"));
  write_history_record(dir_, make_history_record(run("2026-11-04T02:00:00+00:00", {{"a", {4, 4, 4}}}), here,
                                                 "t", "r4", "t", "now"));
  const std::vector<HistoryRecord> records = read_history(dir_);
  ASSERT_EQ(records.size(), 4u);
  const SeriesSelection mine = select_series(records, TimeMetric::kRealTime, "", false, 0);
  EXPECT_EQ(mine.fingerprint, here.fingerprint);  // the newest record's machine
  EXPECT_EQ(mine.records_used, 3u);
  EXPECT_EQ(mine.records_other_machines, 1u);
  ASSERT_EQ(mine.series.size(), 1u);
  const auto& p = mine.series[0].points;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].git_revision, "r1");
  EXPECT_EQ(p[0].median_ns, 1e6);
  EXPECT_EQ(p[0].min_ns, 0.5e6);
  EXPECT_EQ(p[0].max_ns, 1.5e6);
  EXPECT_EQ(p[1].git_revision, "r3");
  EXPECT_EQ(p[2].git_revision, "r4");
  EXPECT_EQ(select_series(records, TimeMetric::kRealTime, there.fingerprint, false, 0).records_used, 1u);
  EXPECT_EQ(select_series(records, TimeMetric::kRealTime, "", true, 0).records_used, 4u);
  EXPECT_EQ(select_series(records, TimeMetric::kRealTime, "", false, 2).series[0].points[0].git_revision, "r3");
  EXPECT_EQ(select_series(records, TimeMetric::kCpuTime, "", false, 0).series[0].points[0].median_ns, 0.5e6);
}

TEST_F(HistoryTest, ReportAndPageNameTheStep) {
  const MachineInfo here = machine("AMD EPYC <script>");
  for (int night = 1; night <= 12; ++night) {
    const double level = night >= 9 ? 1.10 : 1.0;
    const double wiggle = (night % 3) * 0.002;
    const std::string date = std::string("2026-11-") + (night < 10 ? "0" : "") + std::to_string(night) + "T02:00:00+00:00";
    write_history_record(dir_, make_history_record(run(date, {{"k<1>", {level * (5 + wiggle), level * (5.01 + wiggle),
                                                                         level * (4.99 + wiggle)}}}),
                                                   here, "t", "rev" + std::to_string(night), "t", "now"));
  }
  const std::vector<HistoryRecord> records = read_history(dir_);
  const SeriesSelection s = select_series(records, TimeMetric::kRealTime, "", false, 0);
  const HistoryReport report = analyse_history("hist", records, s, TimeMetric::kRealTime, {});
  ASSERT_EQ(report.benchmarks.size(), 1u);
  ASSERT_EQ(report.benchmarks[0].steps.size(), 1u);
  EXPECT_EQ(report.benchmarks[0].steps[0].git_revision, "rev9");
  const std::string text = render_history_text(report);
  EXPECT_NE(text.find("STEPS"), std::string::npos) << text;
  EXPECT_NE(text.find("at 2026-11-09 (rev9)"), std::string::npos) << text;
  const std::string html = render_history_html(report);
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
  EXPECT_EQ(html.find("<script>"), std::string::npos);  // escaped
  EXPECT_NE(html.find("k&lt;1&gt;"), std::string::npos);
  EXPECT_NE(html.find("trend-marker"), std::string::npos);
  EXPECT_EQ(html.find("://"), std::string::npos);  // no URL: nothing to fetch
}

}  // namespace
}  // namespace oprig::perf
