// Reading Google Benchmark JSON: the real output of Debian's libbenchmark
// 1.7.1 (data/gbench/libbenchmark_1_7_1_output.json, see data/README.md),
// the pre-1.5 schema without run_type, time units, and malformed files.
#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include <fstream>

#include "perf/gbench_json.hpp"
#include "perf/perf_error.hpp"

namespace oprig::perf {
namespace {

const std::filesystem::path kData = std::filesystem::path(OPRIG_PERF_TEST_DATA) / "gbench";

std::string error_of(const std::filesystem::path& path) {
  try {
    read_benchmark_file(path);
  } catch (const PerfInputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(GbenchJson, ReadsRepetitionsOfRealOutput) {
  const BenchmarkFile file = read_benchmark_file(kData / "libbenchmark_1_7_1_output.json");
  ASSERT_EQ(file.benchmarks.size(), 2u);
  const BenchmarkSamples& bm = file.benchmarks[0];
  EXPECT_EQ(bm.name, "BM/iterations:1/manual_time");  // "/repeats:3" is how, not what
  EXPECT_EQ(bm.run_name, "BM/iterations:1/repeats:3/manual_time");
  EXPECT_EQ(bm.time_unit, "ms");
  EXPECT_EQ(bm.real_ns, (std::vector<double>{1e6, 2e6, 3e6}));
  ASSERT_EQ(bm.cpu_ns.size(), 3u);
  EXPECT_NEAR(bm.cpu_ns[0], 2.925999999998583e-03 * 1e6, 1e-6);
  EXPECT_EQ(bm.aggregates_real_ns.at("mean"), 2e6);
  EXPECT_EQ(bm.aggregates_real_ns.at("median"), 2e6);
  EXPECT_EQ(bm.aggregates_real_ns.count("cv"), 0u);  // a percentage, not a time
  EXPECT_EQ(bm.counters.at("x"), 1.0);
  EXPECT_TRUE(bm.errors.empty());
  const BenchmarkSamples& be = file.benchmarks[1];
  EXPECT_EQ(be.name, "BE");
  EXPECT_TRUE(be.real_ns.empty());
  EXPECT_EQ(be.errors, (std::vector<std::string>{"boom", "boom"}));
  EXPECT_EQ(file.context.at("library_build_type"), "debug");
  EXPECT_EQ(file.find("BE"), &file.benchmarks[1]);
  EXPECT_EQ(file.find("nothing"), nullptr);
}

TEST(GbenchJson, ReadsABenchOutputFolder) {
  const auto dir = std::filesystem::temp_directory_path() / ("oprig_perf_gbench_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(kData / "libbenchmark_1_7_1_output.json", dir / "benchmark.json",
                             std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(read_benchmark_file(dir).benchmarks.size(), 2u);
  std::filesystem::remove(dir / "benchmark.json");
  EXPECT_NE(error_of(dir).find("folder without benchmark.json"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(GbenchJson, OldSchemaWithoutRunTypeAndUnitsAreConverted) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"benchmarks": [
    {"name": "BM_s", "iterations": 1, "real_time": 0.5, "cpu_time": 0.25, "time_unit": "s"},
    {"name": "BM_s", "iterations": 1, "real_time": 0.75, "cpu_time": 0.5, "time_unit": "s"},
    {"name": "BM_us", "iterations": 1, "real_time": 3, "cpu_time": 3, "time_unit": "us"},
    {"name": "BM_ns", "iterations": 1, "real_time": 7, "cpu_time": 6, "time_unit": "ns"},
    {"name": "Fit_BigO", "run_name": "Fit", "run_type": "aggregate", "aggregate_name": "BigO",
     "cpu_coefficient": 4.2, "real_coefficient": 6.4, "big_o": "N", "time_unit": "ns"},
    {"name": "Fit_RMS", "run_name": "Fit", "run_type": "aggregate", "aggregate_name": "RMS", "rms": 0.004}
  ]})");
  const BenchmarkFile file = parse_benchmark_json(doc, "inline.json");
  ASSERT_EQ(file.benchmarks.size(), 4u);
  EXPECT_EQ(file.benchmarks[0].real_ns, (std::vector<double>{5e8, 7.5e8}));
  EXPECT_EQ(file.benchmarks[0].cpu_ns, (std::vector<double>{2.5e8, 5e8}));
  EXPECT_EQ(file.benchmarks[1].real_ns, (std::vector<double>{3000}));
  EXPECT_EQ(file.benchmarks[2].real_ns, (std::vector<double>{7}));
  EXPECT_TRUE(file.benchmarks[3].real_ns.empty());  // complexity fits are no times
}

TEST(GbenchJson, RepetitionsAreOrderedByIndex) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"benchmarks": [
    {"name": "B", "run_name": "B", "run_type": "iteration", "repetition_index": 2, "real_time": 3, "cpu_time": 3, "time_unit": "ns"},
    {"name": "B", "run_name": "B", "run_type": "iteration", "repetition_index": 0, "real_time": 1, "cpu_time": 1, "time_unit": "ns"},
    {"name": "B", "run_name": "B", "run_type": "iteration", "repetition_index": 1, "real_time": 2, "cpu_time": 2, "time_unit": "ns"}
  ]})");
  EXPECT_EQ(parse_benchmark_json(doc, "x.json").benchmarks[0].real_ns, (std::vector<double>{1, 2, 3}));
}

TEST(GbenchJson, IdentityDropsOnlyTheRepetitionCount) {
  EXPECT_EQ(benchmark_identity("a__cpu/repeats:9/manual_time"), "a__cpu/manual_time");
  EXPECT_EQ(benchmark_identity("a__cpu/repeats:15"), "a__cpu");
  EXPECT_EQ(benchmark_identity("a/repeats:/x"), "a/repeats:/x");
  EXPECT_EQ(benchmark_identity("plain"), "plain");
}

// Found by fuzz/results_json_fuzzer (the same parse in every JSON reader): a
// number too large for a double is nlohmann's out_of_range, not parse_error,
// and escaped the reader as an undocumented exception.
TEST(GbenchJson, ANumberTooLargeIsInvalidJson) {
  const auto file = std::filesystem::temp_directory_path() / ("oprig_perf_overflow_" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << R"({"benchmarks": [], "context": 1e999})";
  const std::string error = error_of(file);
  std::filesystem::remove(file);
  EXPECT_NE(error.find("not valid JSON: [json.exception.out_of_range.406] number overflow"), std::string::npos) << error;
}

TEST(GbenchJson, MalformedFilesNameTheFileAndTheProblem) {
  EXPECT_NE(error_of(kData / "not_json.json").find("not_json.json: not valid JSON"), std::string::npos);
  EXPECT_NE(error_of(kData / "no_benchmarks_array.json").find("no \"benchmarks\" array"), std::string::npos);
  const std::string unit = error_of(kData / "bad_time_unit.json");
  EXPECT_NE(unit.find("benchmarks[1] (\"BM_a\"): unknown time_unit \"minutes\""), std::string::npos) << unit;
  EXPECT_NE(error_of(kData / "missing_real_time.json").find("\"real_time\" is missing"), std::string::npos);
  EXPECT_NE(error_of(kData / "entry_without_name.json").find("benchmarks[0] has no \"name\""), std::string::npos);
  EXPECT_NE(error_of(kData / "does_not_exist.json").find("does not exist"), std::string::npos);
}

TEST(GbenchJson, TimeUnits) {
  EXPECT_EQ(nanoseconds_per("ns"), 1);
  EXPECT_EQ(nanoseconds_per("us"), 1e3);
  EXPECT_EQ(nanoseconds_per("ms"), 1e6);
  EXPECT_EQ(nanoseconds_per("s"), 1e9);
  EXPECT_EQ(nanoseconds_per("min"), 0);
}

}  // namespace
}  // namespace oprig::perf
