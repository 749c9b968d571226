// `oprig bench` against kernels that pass the correctness run and then cheat
// the clock (tests/data/packages, built against the public header only):
//  - cheat_cache copies its first result whatever the inputs: caught by the
//    execute on fresh input contents after the timed loop;
//  - cheat_warmup stops computing after 8 executes (it detects the warm-up):
//    caught by the execute on the timed inputs after the timed loop;
//  - cheat_throughput computes only when its output holds the harness's NaN
//    poison, so every check passes but its timed loop does no work: caught by
//    the calibrated roofline (MISTRUSTED timing);
// and an honest kernel (busy, with no busy loop) gets none of these marks.
// Plus the option checks: --min-time -1, nan and 0 exit 2; and an op whose
// output shapes depend on the input values (MultiClassNms) is timed, with
// resolve_shapes() before every execute as the ABI asks (bench set it up
// without it once, and every execute failed).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "subprocess.hpp"

namespace {

using oprig_test::ProcessResult;

const std::string kOprig = OPRIG_BINARY;
const std::filesystem::path kAtanDir = std::filesystem::path(OPRIG_SOURCE_DIR) / "opsuite" / "atan";

class BenchCheatsTest : public ::testing::Test {
 protected:
  // One spec folder (Atan with a 256K-element bench shape: cheap to judge)
  // and one calibration of this machine for every test.
  static void SetUpTestSuite() {
    dir_ = oprig_test::make_temp_dir("oprig_bench_cheats");
    std::filesystem::copy_file(kAtanDir / "atan.xml", dir_ / "atan.xml");
    nlohmann::json plan = nlohmann::json::parse(oprig_test::read_text(kAtanDir / "plan.json"));
    plan["bench"] = {{"shapes", {{262144}}}, {"repetitions", 9}};
    std::ofstream(dir_ / "plan.json") << plan.dump(2);
    const ProcessResult r = oprig_test::run_process(
        {kOprig, "calibrate", "--quick", "--backend", "cpu", "--repetitions", "3", "--out",
         (dir_ / "calibration.json").string()},
        {}, dir_, 120);
    calibrated_ = r.exit_code == 0;
    calibrate_log_ = r.out + r.err;
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }

  // The f32 bench row of one package's bench run, and the run's exit code.
  struct Row {
    int exit_code = -1;
    nlohmann::json row;
    std::string log;
  };
  static Row bench(const std::string& package, const std::string& name,
                   const std::map<std::string, std::string>& env = {}) {
    const std::filesystem::path out = dir_ / name;
    const ProcessResult r = oprig_test::run_process(
        {kOprig, "bench", "--spec", (dir_ / "atan.xml").string(), "--package", package, "--backend", "cpu", "--out",
         out.string(), "--min-time", "0.01", "--calibration", (dir_ / "calibration.json").string(), "--filter",
         "f32__262144"},
        env, dir_, 120);
    Row row;
    row.exit_code = r.exit_code;
    row.log = r.out + r.err;
    if (!std::filesystem::exists(out / "results.json")) return row;
    const nlohmann::json results = nlohmann::json::parse(oprig_test::read_text(out / "results.json"));
    for (const nlohmann::json& c : results.at("cases"))
      if (c.at("id") == "atan__f32__262144__uniform__p0__cpu") row.row = c;
    return row;
  }
  static std::filesystem::path dir_;
  static bool calibrated_;
  static std::string calibrate_log_;
};

std::filesystem::path BenchCheatsTest::dir_;
bool BenchCheatsTest::calibrated_ = false;
std::string BenchCheatsTest::calibrate_log_;

TEST_F(BenchCheatsTest, CachedOutputIsCaughtOnFreshInputs) {
  const Row r = bench(OPRIG_TEST_PACKAGE_CHEAT_CACHE, "cache");
  ASSERT_TRUE(r.row.is_object()) << r.log;
  EXPECT_EQ(r.exit_code, 1) << r.log;
  EXPECT_EQ(r.row.at("verdict"), "FAILED") << r.row.dump(2);
  EXPECT_NE(r.row.at("message").get<std::string>().find("it caches outputs across executes"), std::string::npos)
      << r.row.dump(2);
}

TEST_F(BenchCheatsTest, KernelThatStopsComputingAfterWarmupIsCaught) {
  const Row r = bench(OPRIG_TEST_PACKAGE_CHEAT_WARMUP, "warmup");
  ASSERT_TRUE(r.row.is_object()) << r.log;
  EXPECT_EQ(r.exit_code, 1) << r.log;
  EXPECT_EQ(r.row.at("verdict"), "FAILED") << r.row.dump(2);
  EXPECT_NE(r.row.at("message").get<std::string>().find("behaves differently after the warm-up"), std::string::npos)
      << r.row.dump(2);
}

TEST_F(BenchCheatsTest, ThroughputAboveTheRooflineIsMistrusted) {
  ASSERT_TRUE(calibrated_) << calibrate_log_;
  const Row r = bench(OPRIG_TEST_PACKAGE_CHEAT_THROUGHPUT, "throughput");
  ASSERT_TRUE(r.row.is_object()) << r.log;
  EXPECT_EQ(r.row.at("verdict"), "MISTRUSTED") << r.row.dump(2);
  const std::string message = r.row.at("message");
  EXPECT_NE(message.find("MISTRUSTED timing"), std::string::npos) << message;
  EXPECT_NE(message.find("faster than this machine's calibrated roofline allows"), std::string::npos) << message;
}

TEST_F(BenchCheatsTest, HonestKernelIsNeitherFailedNorMistrusted) {
  ASSERT_TRUE(calibrated_) << calibrate_log_;
  const Row r = bench(OPRIG_TEST_PACKAGE_BUSY, "honest");
  ASSERT_TRUE(r.row.is_object()) << r.log;
  EXPECT_EQ(r.exit_code, 0) << r.log;
  EXPECT_EQ(r.row.at("verdict"), "PASSED") << r.row.dump(2);
  EXPECT_EQ(r.row.at("message").get<std::string>().find("MISTRUSTED"), std::string::npos) << r.row.dump(2);
  // Atan allows other input contents: the timed loop alternated two.
  EXPECT_EQ(r.row.at("message").get<std::string>().find("inputs not varied"), std::string::npos) << r.row.dump(2);
  // Every repetition is kept: 9 samples, each the mean of a repetition.
  EXPECT_EQ(r.row.at("perf").at("compute_ns_samples").size(), 9u) << r.row.dump(2);
}

// Where a buffer lands moves a memory-bound kernel's time between processes;
// bench allocates every repetition's inputs and outputs anew so that its
// repetitions sample that spread (op_bench.hpp). The busy kernel logs the
// addresses it executes on: the output moves at least once per repetition.
TEST_F(BenchCheatsTest, EveryRepetitionRunsOnNewlyAllocatedMemory) {
  const std::filesystem::path log = dir_ / "addresses.log";
  const Row r = bench(OPRIG_TEST_PACKAGE_BUSY, "relocated", {{"OPRIG_TEST_ADDRESS_LOG", log.string()}});
  ASSERT_EQ(r.exit_code, 0) << r.log;
  std::ifstream in(log);
  std::string input, output, last_output;
  size_t executes = 0, moves = 0;
  while (in >> input >> output) {
    ++executes;
    if (!last_output.empty() && output != last_output) ++moves;
    last_output = output;
  }
  ASSERT_GT(executes, 9u);
  EXPECT_GE(moves, 9u) << executes << " executes";
}

// A kernel too slow for 9 repetitions in --max-seconds-per-benchmark: the
// repetitions past the cap are skipped and said, the others kept, and the
// mix of timed and skipped repetitions is still valid libbenchmark output
// (its own check aborts when their iteration counts differ).
TEST_F(BenchCheatsTest, RepetitionsPastThePerBenchmarkCapAreSkippedAndSaid) {
  const std::filesystem::path out = dir_ / "capped";
  const ProcessResult r = oprig_test::run_process(
      {kOprig, "bench", "--spec", (dir_ / "atan.xml").string(), "--package", OPRIG_TEST_PACKAGE_BUSY, "--backend",
       "cpu", "--out", out.string(), "--min-time", "0.3", "--max-seconds-per-benchmark", "2", "--filter",
       "f32__262144"},
      {{"OPRIG_TEST_BUSY_US", "50000"}}, dir_, 120);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json bench = nlohmann::json::parse(oprig_test::read_text(out / "benchmark.json"));
  size_t timed = 0, skipped = 0;
  for (const nlohmann::json& e : bench.at("benchmarks")) {
    if (e.at("run_type") != "iteration") continue;
    if (e.value("error_occurred", false)) {
      ++skipped;
      EXPECT_EQ(e.at("error_message"), "skipped: --max-seconds-per-benchmark 2 s ran out");
    } else {
      ++timed;
    }
  }
  EXPECT_GE(timed, 2u);  // the warm-up (at most 1 s) leaves at least 1 s: 3 repetitions of 0.3 s, 2 under load
  EXPECT_GE(skipped, 1u);
  EXPECT_EQ(timed + skipped, 9u);
  EXPECT_NE(r.err.find("not fully timed"), std::string::npos) << r.err;
}

TEST_F(BenchCheatsTest, ValueDependentOutputShapesAreTimedThroughResolveShapes) {
  const std::filesystem::path out = dir_ / "nms";
  const ProcessResult r = oprig_test::run_process(
      {kOprig, "bench", "--op", "multiclassnms", "--backend", "cpu", "--out", out.string(), "--min-time", "0.01",
       "--filter", "center_size_iou_threshold1p0_p0__cpu"},
      {}, dir_, 120);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json results = nlohmann::json::parse(oprig_test::read_text(out / "results.json"));
  size_t timed = 0;
  for (const nlohmann::json& c : results.at("cases")) {
    if (c.at("id").get<std::string>().find("center_size_iou_threshold1p0_p0__cpu") == std::string::npos) continue;
    ++timed;
    EXPECT_EQ(c.at("verdict"), "PASSED") << c.at("message");
    EXPECT_GE(c.at("perf").at("compute_ns_samples").size(), 9u) << c.at("message");
    EXPECT_NE(c.at("message").get<std::string>().find(
                  "inputs not varied between timed iterations: the outputs' shapes depend on the input values"),
              std::string::npos)
        << c.at("message");
  }
  EXPECT_EQ(timed, 1u) << r.out;
}

// --interleave: every benchmark is still set up, timed 9 times and checked
// after its loop, though its repetitions alternate with the others'.
TEST_F(BenchCheatsTest, InterleavedRepetitionsAreAllKeptAndChecked) {
  const std::filesystem::path out = dir_ / "interleaved";
  const ProcessResult r = oprig_test::run_process(
      {kOprig, "bench", "--spec", (dir_ / "atan.xml").string(), "--backend", "cpu", "--out", out.string(),
       "--min-time", "0.01", "--interleave"},
      {}, dir_, 120);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json bench = nlohmann::json::parse(oprig_test::read_text(out / "benchmark.json"));
  std::map<std::string, size_t> repetitions;
  for (const nlohmann::json& e : bench.at("benchmarks"))
    if (e.at("run_type") == "iteration" && !e.value("error_occurred", false)) ++repetitions[e.at("run_name")];
  ASSERT_GE(repetitions.size(), 2u) << r.out;
  for (const auto& [name, n] : repetitions) EXPECT_EQ(n, 9u) << name;
  const nlohmann::json results = nlohmann::json::parse(oprig_test::read_text(out / "results.json"));
  size_t timed = 0;
  for (const nlohmann::json& c : results.at("cases")) {
    if (!c.contains("perf") || c.at("perf").at("compute_ns_samples").size() < 9) continue;
    ++timed;
    EXPECT_EQ(c.at("verdict"), "PASSED") << c.at("message");
  }
  EXPECT_EQ(timed, repetitions.size());
}

// The machine controls cost about 10 ms per libbenchmark call: timed only
// with --machine-controls, and then beside every repetition.
TEST_F(BenchCheatsTest, MachineControlsAreTimedOnlyWhenAskedFor) {
  for (const bool asked : {false, true}) {
    const std::filesystem::path out = dir_ / (asked ? "controls" : "no_controls");
    std::vector<std::string> args = {kOprig,         "bench",      "--spec", (dir_ / "atan.xml").string(),
                                     "--backend",    "cpu",        "--out",  out.string(),
                                     "--min-time",   "0.01",       "--filter", "f32__262144"};
    if (asked) args.push_back("--machine-controls");
    const ProcessResult r = oprig_test::run_process(args, {}, dir_, 120);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const nlohmann::json bench = nlohmann::json::parse(oprig_test::read_text(out / "benchmark.json"));
    size_t repetitions = 0, with_controls = 0;
    for (const nlohmann::json& e : bench.at("benchmarks")) {
      if (e.at("run_type") != "iteration") continue;
      ++repetitions;
      if (e.contains("control_copy_ns") && e.at("control_copy_ns").get<double>() > 0 &&
          e.contains("control_compute_ns") && e.at("control_compute_ns").get<double>() > 0)
        ++with_controls;
    }
    ASSERT_EQ(repetitions, 9u) << r.out;
    EXPECT_EQ(with_controls, asked ? 9u : 0u);
  }
}

// A/B (--base-package): the baseline build's kernel is timed in the same
// process, and its repetitions go to OUT/base/benchmark.json under the same
// names. The busy package slows only the library $OPRIG_TEST_SLOWDOWN_PACKAGE
// names, so slowing one side at a time shows which file holds which side.
class BenchAbTest : public BenchCheatsTest {
 protected:
  // Atan of 1024 elements: the busy loop is nearly all of the kernel's time.
  // Under ctest's load a repetition is still stretched now and then (the
  // process descheduled: 2 ms of CPU in 4 ms of wall time was seen), so the
  // slowed side spins 3x as long and each side has 15 repetitions.
  static void SetUpTestSuite() {
    BenchCheatsTest::SetUpTestSuite();
    std::filesystem::create_directories(dir_ / "small");
    std::filesystem::copy_file(kAtanDir / "atan.xml", dir_ / "small" / "atan.xml");
    nlohmann::json plan = nlohmann::json::parse(oprig_test::read_text(kAtanDir / "plan.json"));
    plan["bench"] = {{"shapes", {{1024}}}, {"repetitions", 9}};
    std::ofstream(dir_ / "small" / "plan.json") << plan.dump(2);
  }
  struct Side {
    std::vector<double> repetitions_ms;  // real_time of each iteration entry
    std::string run_name, bench_side;
    bool labelled = false;  // an entry still carries bench's internal label
  };
  static Side read_side(const std::filesystem::path& file) {
    const nlohmann::json j = nlohmann::json::parse(oprig_test::read_text(file));
    Side side;
    side.bench_side = j.at("context").value("oprig_bench_side", "");
    for (const nlohmann::json& e : j.at("benchmarks")) {
      if (e.contains("label")) side.labelled = true;
      if (e.at("run_type") != "iteration") continue;
      side.run_name = e.at("run_name");
      side.repetitions_ms.push_back(e.at("real_time").get<double>());
    }
    return side;
  }
  static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
  }
  // The busy package and a copy of it (the "first build") in one bench.
  static ProcessResult ab_bench(const std::filesystem::path& out, const std::string& base_package,
                                const std::string& slowed_package) {
    return oprig_test::run_process(
        {kOprig, "bench", "--spec", (dir_ / "small" / "atan.xml").string(), "--package", OPRIG_TEST_PACKAGE_BUSY,
         "--base-package", base_package, "--backend", "cpu", "--out", out.string(), "--min-time", "0.02",
         "--repetitions", "15", "--filter", "f32__1024"},
        {{"OPRIG_TEST_BUSY_US", "2000"}, {"OPRIG_TEST_SLOWDOWN_PERCENT", "200"},
         {"OPRIG_TEST_SLOWDOWN_PACKAGE", slowed_package}},
        dir_, 180);
  }
};

TEST_F(BenchAbTest, BaseSideIsTimedInTheSameRunAndWrittenApart) {
  const std::filesystem::path copy = dir_ / "first_build" / "liboprig_test_package_busy.so";
  std::filesystem::create_directories(copy.parent_path());
  std::filesystem::copy_file(OPRIG_TEST_PACKAGE_BUSY, copy, std::filesystem::copy_options::overwrite_existing);
  for (const bool new_is_slowed : {true, false}) {
    const std::filesystem::path out = dir_ / (new_is_slowed ? "ab_new_slowed" : "ab_base_slowed");
    const ProcessResult r = ab_bench(out, copy.string(), new_is_slowed ? OPRIG_TEST_PACKAGE_BUSY : copy.string());
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("base side: "), std::string::npos) << r.out;
    // report.html's table takes the base side as its baseline.
    EXPECT_NE(r.out.find(new_is_slowed ? "baseline:  1 regressed, 0 improved" : "baseline:  0 regressed, 1 improved"),
              std::string::npos)
        << r.out;
    const Side base = read_side(out / "base" / "benchmark.json"), now = read_side(out / "benchmark.json");
    EXPECT_EQ(base.bench_side, "base");
    EXPECT_EQ(now.bench_side, "new");
    EXPECT_FALSE(base.labelled || now.labelled);
    ASSERT_EQ(base.repetitions_ms.size(), 15u) << r.out;
    ASSERT_EQ(now.repetitions_ms.size(), 15u) << r.out;
    EXPECT_EQ(base.run_name, now.run_name);
    // The slowed side's busy loop is 4 ms longer (200 % of 2 ms); the little atan work beside it is the same.
    // The margin tells a 4 ms difference from none and from the sides swapped; it is wider than the
    // loop's precision because under a loaded machine (ctest -j, 2 cores) preemption stretched one side's
    // median by 0.3-0.4 ms in 3 of 7 runs.
    const double slower_by_ms = median(now.repetitions_ms) - median(base.repetitions_ms);
    EXPECT_NEAR(slower_by_ms, new_is_slowed ? 4.0 : -4.0, 1.5) << r.out;
    const ProcessResult cmp = oprig_test::run_process({kOprig, "compare", (out / "base").string(), out.string()}, {},
                                                      dir_, 60);
    EXPECT_EQ(cmp.exit_code, new_is_slowed ? 1 : 0) << cmp.out << cmp.err;
  }
}

// A baseline kernel that fails the checks after its timed loop is no
// baseline: its timings are left out of base/benchmark.json (compare then
// lists the benchmark as in NEW only, exit 2), and bench says why.
TEST_F(BenchAbTest, CheatingBaseKernelLeavesNoBaseline) {
  const std::filesystem::path out = dir_ / "ab_cheating_base";
  const ProcessResult r = ab_bench(out, OPRIG_TEST_PACKAGE_CHEAT_CACHE, "");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;  // this build's kernel is honest
  EXPECT_NE(r.err.find("base side of atan__f32__1024__uniform__p0__cpu: FAILED"), std::string::npos) << r.err;
  EXPECT_TRUE(read_side(out / "base" / "benchmark.json").repetitions_ms.empty());
  EXPECT_EQ(read_side(out / "benchmark.json").repetitions_ms.size(), 15u);
  const ProcessResult cmp = oprig_test::run_process({kOprig, "compare", (out / "base").string(), out.string()}, {},
                                                    dir_, 60);
  EXPECT_EQ(cmp.exit_code, 2) << cmp.out << cmp.err;
}

TEST_F(BenchCheatsTest, NonPositiveOrNanMinTimeIsBadInput) {
  for (const char* value : {"-1", "nan", "0"}) {
    const ProcessResult r = oprig_test::run_process(
        {kOprig, "bench", "--spec", (dir_ / "atan.xml").string(), "--backend", "cpu", "--out",
         (dir_ / "bad").string(), std::string("--min-time=") + value},
        {}, dir_, 60);
    EXPECT_EQ(r.exit_code, 2) << value << "\n" << r.err;
    // The CLI rejects the value before anything runs, naming the option and the value.
    EXPECT_NE(r.err.find(std::string("--min-time: '") + value + "' is not a number of seconds greater than 0"),
              std::string::npos)
        << r.err;
  }
}

// A GPU figure that is mostly launch cost is labelled so (issue 20): Atan
// over 16 elements on opencl takes a few microseconds of device time, under
// 1.5x PoCL's calibrated launch-plus-readback overhead; the same op over
// 262144 elements on the cpu is far above the cpu's. The label reaches
// results.json (perf.launch_bound, and the message says why) and every
// libbenchmark row of that benchmark in benchmark.json.
TEST(BenchLaunchBoundTest, SmallDeviceKernelIsLabelledLaunchBound) {
  const std::filesystem::path dir = oprig_test::make_temp_dir("oprig_bench_launch_bound");
  std::filesystem::copy_file(kAtanDir / "atan.xml", dir / "atan.xml");
  nlohmann::json plan = nlohmann::json::parse(oprig_test::read_text(kAtanDir / "plan.json"));
  plan["bench"] = {{"shapes", {{16}, {262144}}}, {"repetitions", 5}};
  std::ofstream(dir / "plan.json") << plan.dump(2);
  const ProcessResult cal = oprig_test::run_process(
      {kOprig, "calibrate", "--quick", "--backend", "cpu,opencl", "--repetitions", "3", "--out",
       (dir / "calibration.json").string()},
      {}, dir, 120);
  const nlohmann::json calibration = nlohmann::json::parse(oprig_test::read_text(dir / "calibration.json"));
  bool opencl = false;
  for (const nlohmann::json& b : calibration.at("backends"))
    if (b.at("backend") == "opencl" && b.value("available", false)) opencl = true;
  if (!opencl) GTEST_SKIP() << "no OpenCL device here: " << cal.out << cal.err;
  const ProcessResult r = oprig_test::run_process(
      {kOprig, "bench", "--spec", (dir / "atan.xml").string(), "--backend", "cpu,opencl", "--out",
       (dir / "out").string(), "--min-time", "0.01", "--calibration", (dir / "calibration.json").string(),
       "--filter", "(f32__16__.*opencl|f32__262144__.*cpu)"},
      {}, dir, 300);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json results = nlohmann::json::parse(oprig_test::read_text(dir / "out" / "results.json"));
  const std::string small = "atan__f32__16__uniform__p0__opencl", large = "atan__f32__262144__uniform__p0__cpu";
  std::map<std::string, nlohmann::json> rows;
  for (const nlohmann::json& c : results.at("cases")) rows[c.at("id")] = c;
  ASSERT_TRUE(rows.count(small) && rows.count(large)) << results.dump(2);
  EXPECT_TRUE(rows[small].at("perf").at("launch_bound").get<bool>()) << rows[small].dump(2);
  EXPECT_GT(rows[small].at("perf").at("launch_overhead_ns").get<double>(), 0.0) << rows[small].dump(2);
  EXPECT_NE(rows[small].at("message").get<std::string>().find("launch-bound: the median"), std::string::npos)
      << rows[small].dump(2);
  EXPECT_FALSE(rows[large].at("perf").at("launch_bound").get<bool>()) << rows[large].dump(2);
  EXPECT_EQ(rows[large].at("message").get<std::string>().find("launch-bound"), std::string::npos)
      << rows[large].dump(2);
  const nlohmann::json gbench = nlohmann::json::parse(oprig_test::read_text(dir / "out" / "benchmark.json"));
  size_t small_rows = 0, large_rows = 0;
  for (const nlohmann::json& e : gbench.at("benchmarks")) {
    const std::string name = e.at("name");
    if (name.starts_with(small + "/")) {
      ++small_rows;
      EXPECT_TRUE(e.value("oprig_launch_bound", false)) << e.dump(2);
    } else if (name.starts_with(large + "/")) {
      ++large_rows;
      EXPECT_FALSE(e.contains("oprig_launch_bound")) << e.dump(2);
    }
  }
  EXPECT_GT(small_rows, 0u);
  EXPECT_GT(large_rows, 0u);
  const std::string html = oprig_test::read_text(dir / "out" / "report.html");
  EXPECT_NE(html.find("class=\"launch-bound\""), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
