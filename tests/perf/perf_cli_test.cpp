// `oprig compare`, `oprig history` and `oprig calibrate` end to end: the real
// binary on files written by the real libbenchmark (oprig_gbench_fixture),
// checking exit codes, messages and the files written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "subprocess.hpp"

namespace {

using oprig_test::ProcessResult;

const std::string kOprig = OPRIG_BINARY;
const std::string kFixture = OPRIG_GBENCH_FIXTURE;

std::string join(const std::vector<double>& v, double factor = 1) {
  std::ostringstream s;
  for (size_t i = 0; i < v.size(); ++i) s << (i ? "," : "") << v[i] * factor;
  return s.str();
}

const std::vector<double> kBase = {4.91, 5.02, 4.87, 5.10, 4.95, 4.99, 5.31, 4.90, 5.05};
const std::vector<double> kSame = {4.93, 5.08, 4.85, 4.97, 5.12, 4.89, 5.01, 5.40, 4.96};

class PerfCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = oprig_test::make_temp_dir("oprig_perf_cli"); }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  ProcessResult oprig(std::vector<std::string> args, double limit_s = 120) {
    args.insert(args.begin(), kOprig);
    return oprig_test::run_process(args, {}, dir_, limit_s);
  }
  std::string fixture(const std::string& name, const std::vector<std::string>& series) {
    const std::string path = (dir_ / name).string();
    std::vector<std::string> args = {kFixture, path};
    args.insert(args.end(), series.begin(), series.end());
    const ProcessResult r = oprig_test::run_process(args, {}, dir_, 60);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(PerfCliTest, CompareUnchangedExits0) {
  const auto base = fixture("base.json", {"atan_cpu=" + join(kBase), "copy_cpu=" + join(kBase, 2)});
  const auto next = fixture("new.json", {"atan_cpu=" + join(kSame), "copy_cpu=" + join(kSame, 2)});
  const ProcessResult r = oprig({"compare", base, next});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 REGRESSED, 0 IMPROVED, 2 SAME"), std::string::npos) << r.out;
}

TEST_F(PerfCliTest, CompareSlowdownExits1AndWritesJson) {
  const auto base = fixture("base.json", {"atan_cpu=" + join(kBase), "copy_cpu=" + join(kBase), "gone=" + join(kBase)});
  const auto next = fixture("new.json", {"atan_cpu=" + join(kBase, 1.15), "copy_cpu=" + join(kSame), "added=" + join(kBase)});
  const std::string out = (dir_ / "compare.json").string();
  const ProcessResult r = oprig({"compare", base, next, "--out", out});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("REGRESSED"), std::string::npos);
  EXPECT_NE(r.out.find("only in BASE (1):\n  gone"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("only in NEW (1):\n  added"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(oprig_test::read_text(out));
  EXPECT_EQ(j["exit_code"], 1);
  ASSERT_EQ(j["benchmarks"].size(), 2u);
  EXPECT_EQ(j["benchmarks"][0]["name"], "atan_cpu/iterations:1/manual_time");
  EXPECT_EQ(j["benchmarks"][0]["verdict"], "REGRESSED");
  EXPECT_NEAR(j["benchmarks"][0]["ratio"].get<double>(), 1.15, 1e-9);
  // A 15 % slowdown is not beyond a 15 % minimum effect.
  EXPECT_EQ(oprig({"compare", base, next, "--min-effect", "0.15"}).exit_code, 0);
}

// The gate's second look (scripts/perf/nightly_gate.sh): --rerun-filter names
// the flagged benchmarks for bench --filter; --confirm clears a slowdown the
// rerun does not find again and keeps one it does.
TEST_F(PerfCliTest, CompareConfirmsARegressionWithARerun) {
  const auto base = fixture("base.json", {"atan_cpu=" + join(kBase), "copy_cpu=" + join(kBase)});
  const auto next = fixture("new.json", {"atan_cpu=" + join(kBase, 1.3), "copy_cpu=" + join(kSame)});
  const std::string filter = (dir_ / "filter.txt").string();
  EXPECT_EQ(oprig({"compare", base, next, "--rerun-filter", filter}).exit_code, 1);
  EXPECT_EQ(oprig_test::read_text(filter), "^(atan_cpu)(/|$)\n");
  const auto spell_gone = fixture("rerun_fast.json", {"atan_cpu=" + join(kSame)});
  const ProcessResult cleared = oprig({"compare", base, next, "--confirm", spell_gone});
  EXPECT_EQ(cleared.exit_code, 0) << cleared.out << cleared.err;
  EXPECT_NE(cleared.out.find("SAME (NEW's REGRESSED not confirmed)"), std::string::npos) << cleared.out;
  const auto still_slow = fixture("rerun_slow.json", {"atan_cpu=" + join(kBase, 1.25)});
  const ProcessResult confirmed = oprig({"compare", base, next, "--confirm", spell_gone, "--confirm", still_slow});
  EXPECT_EQ(confirmed.exit_code, 0) << "one rerun that clears it clears it\n" << confirmed.out;
  EXPECT_EQ(oprig({"compare", base, next, "--confirm", still_slow}).exit_code, 1);
  const ProcessResult missing = oprig({"compare", base, next, "--confirm", (dir_ / "nope.json").string()});
  EXPECT_EQ(missing.exit_code, 2) << missing.out;
  EXPECT_NE(missing.err.find("nope.json"), std::string::npos) << missing.err;
}

TEST_F(PerfCliTest, CompareJsonOnStdoutAndBenchFolders) {
  std::filesystem::create_directories(dir_ / "night1");
  std::filesystem::create_directories(dir_ / "night2");
  fixture("night1/benchmark.json", {"k=" + join(kBase)});
  fixture("night2/benchmark.json", {"k=" + join(kBase, 0.8)});
  const ProcessResult r = oprig({"compare", (dir_ / "night1").string(), (dir_ / "night2").string(), "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["benchmarks"][0]["verdict"], "IMPROVED");
}

TEST_F(PerfCliTest, CompareBadInputExits2) {
  const auto base = fixture("base.json", {"a=" + join(kBase)});
  const auto other = fixture("other.json", {"b=" + join(kBase)});
  ProcessResult r = oprig({"compare", base, other});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no benchmark is in both"), std::string::npos) << r.err;
  std::ofstream(dir_ / "broken.json") << "{\"benchmarks\": 3}";
  r = oprig({"compare", base, (dir_ / "broken.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("broken.json: no \"benchmarks\" array"), std::string::npos) << r.err;
  r = oprig({"compare", base, (dir_ / "absent.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("absent.json: does not exist"), std::string::npos) << r.err;
  EXPECT_EQ(oprig({"compare", base, base, "--alpha", "0.7"}).exit_code, 2);
  EXPECT_EQ(oprig({"compare", base, base, "--metric", "wall"}).exit_code, 2);
  // Three repetitions a side: nothing can be tested.
  const auto few = fixture("few.json", {"a=5,5.1,5.2"});
  r = oprig({"compare", few, few});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("NOT_ENOUGH_SAMPLES"), std::string::npos);
}

TEST_F(PerfCliTest, HelpDocumentsExitCodes) {
  for (const char* command : {"compare", "history", "calibrate"}) {
    const ProcessResult r = oprig({command, "--help"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("Exit codes"), std::string::npos) << command;
  }
  const ProcessResult top = oprig({"--help"});
  for (const char* command : {"compare", "history", "calibrate"})
    EXPECT_NE(top.out.find(command), std::string::npos) << command;
}

// A bench output with a given date and machine, written as JSON directly: the
// history needs dates across nights, which a real run cannot fake.
std::string night(const std::filesystem::path& dir, int day, double level, const nlohmann::json& machine = nullptr) {
  nlohmann::json doc = {{"context", {{"date", "2026-11-" + std::string(day < 10 ? "0" : "") + std::to_string(day) +
                                                   "T03:00:00+01:00"}}},
                        {"benchmarks", nlohmann::json::array()}};
  if (!machine.is_null()) doc["context"]["oprig_machine"] = machine.dump();
  const double wiggle[] = {0.0, 0.004, -0.003, 0.002, -0.001};
  for (int r = 0; r < 9; ++r)
    doc["benchmarks"].push_back({{"name", "k"}, {"run_name", "k"}, {"run_type", "iteration"}, {"repetition_index", r},
                                 {"iterations", 1}, {"real_time", 5.0 * level * (1 + wiggle[(day + r) % 5])},
                                 {"cpu_time", 0.1}, {"time_unit", "ms"}});
  const auto path = dir / ("night" + std::to_string(day) + ".json");
  std::ofstream(path) << doc.dump();
  return path.string();
}

TEST_F(PerfCliTest, HistoryAddAndShowFindTheStep) {
  const std::string hist = (dir_ / "hist").string();
  for (int day = 1; day <= 12; ++day) {
    const ProcessResult r = oprig({"history", "add", "--dir", hist, "--git-rev", "rev" + std::to_string(day),
                                   night(dir_, day, day >= 9 ? 1.10 : 1.0)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  // The run's date in UTC names the file.
  EXPECT_TRUE(std::filesystem::exists(dir_ / "hist"));
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(hist)) {
    EXPECT_EQ(e.path().filename().string().rfind("2026-11-", 0), 0u) << e.path();
    ++files;
  }
  EXPECT_EQ(files, 12u);
  // A same-night second run gets a new file.
  EXPECT_EQ(oprig({"history", "add", "--dir", hist, "--git-rev", "rev12", night(dir_, 12, 1.1)}).exit_code, 0);
  files = 0;
  for (const auto& e : std::filesystem::directory_iterator(hist)) files += e.is_regular_file();
  EXPECT_EQ(files, 13u);

  const std::string html = (dir_ / "trend.html").string();
  const ProcessResult show = oprig({"history", "show", "--dir", hist, "--html", html});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("STEPS"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("at 2026-11-09 (rev9)"), std::string::npos) << show.out;
  const std::string page = oprig_test::read_text(html);
  EXPECT_NE(page.find("<svg"), std::string::npos);
  EXPECT_NE(page.find("trend-marker"), std::string::npos);
}

TEST_F(PerfCliTest, HistoryShowKeepsMachinesApart) {
  const std::string hist = (dir_ / "hist").string();
  nlohmann::json other = {{"fingerprint", "0123456789ab"}, {"cpu_model", "Other CPU"}, {"logical_cpus", 64}};
  ASSERT_EQ(oprig({"history", "add", "--dir", hist, night(dir_, 1, 1.0, other)}).exit_code, 0);
  ASSERT_EQ(oprig({"history", "add", "--dir", hist, night(dir_, 2, 1.0)}).exit_code, 0);
  ProcessResult r = oprig({"history", "show", "--dir", hist});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1 records of other machines left out"), std::string::npos) << r.out;
  r = oprig({"history", "show", "--dir", hist, "--machine", "0123456789ab"});
  EXPECT_NE(r.out.find("Other CPU"), std::string::npos) << r.out;
  r = oprig({"history", "show", "--dir", hist, "--any-machine"});
  EXPECT_NE(r.out.find("2 nights of any machine"), std::string::npos) << r.out;
}

TEST_F(PerfCliTest, HistoryBadInputExits2) {
  std::filesystem::create_directories(dir_ / "empty");
  ProcessResult r = oprig({"history", "show", "--dir", (dir_ / "empty").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no history records"), std::string::npos) << r.err;
  EXPECT_EQ(oprig({"history", "show", "--dir", (dir_ / "missing").string()}).exit_code, 2);
  std::ofstream(dir_ / "aggregates.json")
      << R"({"benchmarks": [{"name": "k_mean", "run_name": "k", "run_type": "aggregate", "aggregate_name": "mean",
             "real_time": 5, "cpu_time": 5, "time_unit": "ms"}]})";
  r = oprig({"history", "add", "--dir", (dir_ / "h").string(), (dir_ / "aggregates.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no benchmark with per-repetition entries"), std::string::npos) << r.err;
}

TEST_F(PerfCliTest, CalibrateQuickWritesPeaksAndNeverOverwrites) {
  const std::string out = (dir_ / "calibration.json").string();
  const std::vector<std::string> args = {"calibrate", "--quick", "--backend", "cpu,dsp", "--repetitions", "3",
                                         "--batch-ms", "1", "--out", out};
  ProcessResult r = oprig(args, 300);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(oprig_test::read_text(out));
  EXPECT_EQ(j["schema"], "oprig-calibration/1");
  EXPECT_EQ(j["machine"]["fingerprint"].get<std::string>().size(), 12u);
  ASSERT_EQ(j["backends"].size(), 2u);
  const nlohmann::json& cpu = j["backends"][0];
  EXPECT_EQ(cpu["backend"], "cpu");
  EXPECT_FALSE(cpu["simulated"].get<bool>());
  EXPECT_EQ(cpu["timer"], "host wall");
  ASSERT_FALSE(cpu["bandwidth"].empty());
  for (const auto& p : cpu["bandwidth"]) {
    ASSERT_TRUE(p.contains("copy_gbps")) << p.dump();
    EXPECT_EQ(p["copy_gbps"]["samples"].size(), 3u);
    EXPECT_GT(p["copy_gbps"]["median"].get<double>(), 0);
    EXPECT_LE(p["working_set_bytes"].get<uint64_t>(), 16u << 20);
  }
  EXPECT_GT(cpu["fma_gflops"]["median"].get<double>(), 0);
  EXPECT_GT(cpu["launch_host_us"]["median"].get<double>(), 0);
  const nlohmann::json& dsp = j["backends"][1];
  EXPECT_TRUE(dsp["simulated"].get<bool>());
  EXPECT_EQ(dsp["timer"], "simulated cycles");
  EXPECT_EQ(dsp["bandwidth"][0]["copy_gbps"]["median"], 64.0);  // 64 B/cycle at 1 GHz (cost_model.md)
  EXPECT_FALSE(dsp.contains("launch_host_us"));

  r = oprig(args, 300);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("exists already"), std::string::npos) << r.err;
  r = oprig({"calibrate", "--backend", "tpu", "--out", (dir_ / "x.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown backend \"tpu\""), std::string::npos) << r.err;
}

}  // namespace
