// results.json: the round trip is exact, the schema has its fields, and bad
// input is rejected with the path of the offending field.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "reports/json/json_reporter.hpp"
#include "reports/results.hpp"
#include "sample_results.hpp"

namespace oprig::reports {
namespace {

using nlohmann::json;
using testing::make_sample_results;

std::string error_of(const json& j) {
  try {
    (void)j.get<RunResults>();
  } catch (const ResultsFormatError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ResultsJson, RoundTripThroughTextIsExact) {
  const RunResults original = make_sample_results();
  const std::string text = render_results_json(original);
  const RunResults back = json::parse(text).get<RunResults>();
  EXPECT_EQ(back, original);
}

TEST(ResultsJson, CaseRoundTripsAlone) {
  const CaseResult original = make_sample_results().cases[2];
  EXPECT_EQ(json(original).get<CaseResult>(), original);
}

TEST(ResultsJson, JudgingRuleAndKeptOutputsRoundTripAndAreLeftOutWhenEmpty) {
  CaseResult c = make_sample_results().cases[2];
  EXPECT_FALSE(json(c).contains("kept_dir"));
  EXPECT_FALSE(json(c).at("stats").contains("tolerance_source"));
  c.stats->tolerance_source = "golden manifest: ONNX's own rule";
  c.outputs[0].stats->tolerance_source = "plan FLOAT_32: within 3 ulp";
  c.kept_dir = "/tmp/out/kept/" + c.id;
  c.kept_note = "";
  const json j = c;
  EXPECT_EQ(j.at("stats").at("tolerance_source"), "golden manifest: ONNX's own rule");
  EXPECT_EQ(j.at("outputs")[0].at("stats").at("tolerance_source"), "plan FLOAT_32: within 3 ulp");
  EXPECT_EQ(j.at("kept_dir"), "/tmp/out/kept/" + c.id);
  EXPECT_FALSE(j.contains("kept_note"));
  EXPECT_EQ(j.get<CaseResult>(), c);
}

TEST(ResultsJson, NonFiniteNumbersTravelAsStrings) {
  Mismatch m{3, {0, 3}, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
             -std::numeric_limits<double>::infinity()};
  const json j = m;
  EXPECT_EQ(j["got"], "NaN");
  EXPECT_EQ(j["expected"], "Infinity");
  EXPECT_EQ(j["ulp"], "-Infinity");
  const Mismatch back = json::parse(j.dump()).get<Mismatch>();
  EXPECT_TRUE(std::isnan(back.got));
  EXPECT_EQ(back.expected, std::numeric_limits<double>::infinity());
  EXPECT_EQ(back.ulp, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(back.coords, (std::vector<int64_t>{0, 3}));
}

TEST(ResultsJson, NegativeZeroKeepsItsSign) {
  Mismatch m{0, {}, -0.0, 0.0, 0};
  const Mismatch back = json::parse(json(m).dump()).get<Mismatch>();
  EXPECT_TRUE(std::signbit(back.got));
}

TEST(ResultsJson, SeedTravelsAsADecimalStringAndSchemaOneNumbersStillRead) {
  CaseResult c = make_sample_results().cases.at(0);
  c.seed = 0xfedcba9876543210ull;  // above 2^53: a JSON number would round in jq and JavaScript
  const json j = c;
  EXPECT_EQ(j.at("seed"), "18364758544493064720");
  EXPECT_EQ(json::parse(j.dump()).get<CaseResult>().seed, 0xfedcba9876543210ull);
  json old = j;
  old["seed"] = 12345;  // schema 1 wrote a number
  EXPECT_EQ(old.get<CaseResult>().seed, 12345u);
  old["seed"] = "12x";
  EXPECT_THROW(old.get<CaseResult>(), ResultsFormatError);
}

TEST(ResultsJson, TensorRecordsCarryTheirOwnStats) {
  const json j = make_sample_results().cases.at(0);
  ASSERT_EQ(j.at("outputs").size(), 1u);
  EXPECT_EQ(j.at("outputs").at(0).at("name"), "out");
  EXPECT_EQ(j.at("outputs").at(0).at("stats").at("tolerance"), "ulp<=3");
  EXPECT_TRUE(j.at("inputs").at(0).at("stats").is_null());
  EXPECT_EQ(j.at("inputs").at(0).at("shape"), (json{1, 3, 5, 7}));
  json bad = j;
  bad["outputs"][0]["dtype"] = 7;
  EXPECT_THROW(bad.get<CaseResult>(), ResultsFormatError);
}

TEST(ResultsJson, SchemaFieldsPresent) {
  const json j = json::parse(render_results_json(make_sample_results()));
  EXPECT_EQ(j.at("schema_version"), 2);
  for (const char* key : {"oprig_version", "git_revision", "cpu_model", "os", "hostname", "command_line",
                          "started_at", "finished_at", "cores", "backends", "build_type", "packages"})
    EXPECT_TRUE(j.at("environment").contains(key)) << key;
  EXPECT_EQ(j.at("complete"), true);
  // The summary block repeats the headline: 2 PASSED, 1 FAILED, 1 SKIPPED, 1 UNIMPLEMENTED, 1 CRASH.
  EXPECT_EQ(j.at("summary").at("headline"),
            "FAILED: 2 of 6 cases failed (1 FAILED, 1 CRASH); 2 passed; 2 not tested (1 UNIMPLEMENTED, 1 SKIPPED)");
  for (const char* key : {"name", "available", "reason", "device", "vendor", "driver_version", "api_version"})
    EXPECT_TRUE(j.at("environment").at("backends").at(0).contains(key)) << key;
  const json& failed = j.at("cases").at(2);
  for (const char* key : {"id", "golden_id", "package", "op", "backend", "dtype", "shape", "fill", "params",
                          "seed", "verdict", "message", "repro", "stats", "perf", "wall_ms"})
    EXPECT_TRUE(failed.contains(key)) << key;
  EXPECT_EQ(failed.at("verdict"), "FAILED");
  EXPECT_TRUE(failed.at("perf").is_null());
  for (const char* key : {"count", "mismatches", "max_abs", "max_rel", "max_ulp", "zero_fraction", "tolerance",
                          "first_mismatches"})
    EXPECT_TRUE(failed.at("stats").contains(key)) << key;
  EXPECT_EQ(failed.at("stats").at("first_mismatches").size(), 2u);
  const json& perf = j.at("cases").at(1).at("perf");
  for (const char* key : {"device_timer", "compute_ns_median", "compute_ns_min", "compute_ns_samples", "create_ns",
                          "prepare_ns", "h2d_ns", "d2h_ns", "sim_cycles", "elements", "loop_iterations", "bytes", "gelem_per_s",
                          "gbytes_per_s", "sim_cycles_per_element"})
    EXPECT_TRUE(perf.contains(key)) << key;
  // The derived summary: 6 cases, FAILED and CRASH fail the run.
  EXPECT_EQ(j.at("summary").at("total"), 6);
  EXPECT_EQ(j.at("summary").at("exit_code"), 1);
  EXPECT_EQ(j.at("summary").at("verdicts").at("PASSED"), 2);
  EXPECT_EQ(j.at("summary").at("verdicts").at("CRASH"), 1);
}

// The dsp's cycles per output element beside its cycles: 2^18 cycles for
// 2^20 elements is a quarter cycle each; a case that simulated nothing says 0.
TEST(ResultsJson, PerfCarriesSimulatedCyclesPerElement) {
  PerfStats p;
  p.sim_cycles = 262'144;
  p.elements = 1 << 20;
  EXPECT_DOUBLE_EQ(json(p).at("sim_cycles_per_element").get<double>(), 0.25);
  p.sim_cycles = 0;
  EXPECT_DOUBLE_EQ(json(p).at("sim_cycles_per_element").get<double>(), 0.0);
}

TEST(ResultsJson, EveryVerdictSerialisesByName) {
  CaseResult c = make_sample_results().cases[0];
  for (Verdict v : kAllVerdicts) {
    c.verdict = v;
    const json j = c;
    EXPECT_EQ(j.at("verdict"), std::string(verdict_name(v)));
    EXPECT_EQ(j.get<CaseResult>().verdict, v);
  }
}

TEST(ResultsJson, MissingRequiredFieldNamesItsPath) {
  json j = make_sample_results();
  j["cases"][2].erase("verdict");
  EXPECT_EQ(error_of(j), "cases[2].verdict: missing required field");
}

TEST(ResultsJson, WrongTypeNamesItsPath) {
  json j = make_sample_results();
  j["cases"][0]["stats"]["max_ulp"] = true;
  EXPECT_EQ(error_of(j).rfind("cases[0].stats.max_ulp: expected a number", 0), 0u) << error_of(j);
  j = make_sample_results();
  j["cases"][2]["stats"]["first_mismatches"][1]["coords"][2] = "x";
  EXPECT_EQ(error_of(j), "cases[2].stats.first_mismatches[1].coords[2]: expected an integer, got string");
  j = make_sample_results();
  j["environment"]["backends"][1]["available"] = "no";
  EXPECT_EQ(error_of(j), "environment.backends[1].available: expected true or false, got string");
}

TEST(ResultsJson, NegativeCountIsRejected) {
  json j = make_sample_results();
  j["cases"][0]["stats"]["count"] = -1;
  EXPECT_EQ(error_of(j), "cases[0].stats.count: expected a non-negative integer, got -1");
}

TEST(ResultsJson, UnknownVerdictListsTheKnownOnes) {
  json j = make_sample_results();
  j["cases"][1]["verdict"] = "MAYBE";
  const std::string error = error_of(j);
  EXPECT_NE(error.find("cases[1].verdict: unknown verdict \"MAYBE\""), std::string::npos) << error;
  EXPECT_NE(error.find("QUALITY_WARNING"), std::string::npos) << error;
}

TEST(ResultsJson, TopLevelMustBeAnObjectWithASupportedSchema) {
  EXPECT_EQ(error_of(json::array()), "(top level): expected an object, got array");
  json j = make_sample_results();
  j["schema_version"] = 3;
  EXPECT_NE(error_of(j).find("schema_version: 3 is not a schema this oprig reads"), std::string::npos);
  j.erase("schema_version");
  EXPECT_EQ(error_of(j), "schema_version: missing required field");
}

TEST(ResultsJson, UnknownFieldsAreIgnoredAndOptionalOnesDefault) {
  const json j = json::parse(R"({"schema_version": 1, "future_field": [1, 2],
      "cases": [{"id": "x", "op": "atan", "backend": "cpu", "dtype": "f32", "verdict": "SKIPPED", "extra": {}}]})");
  const RunResults r = j.get<RunResults>();
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].verdict, Verdict::kSkipped);
  EXPECT_FALSE(r.cases[0].stats.has_value());
  EXPECT_TRUE(r.cases[0].params.is_object());
  EXPECT_TRUE(r.environment.backends.empty());
}

TEST(ResultsJson, ReadsTheSampleFile) {
  const RunResults r = read_results_file(testing::data_file("sample_results.json"));
  ASSERT_EQ(r.cases.size(), 14u);
  EXPECT_EQ(r.environment.backends.size(), 5u);
  EXPECT_FALSE(r.environment.backends[4].available);
  const CaseResult& failed = r.cases[9];
  EXPECT_EQ(failed.verdict, Verdict::kFailed);
  EXPECT_EQ(failed.backend, "vulkan");
  ASSERT_TRUE(failed.stats.has_value());
  EXPECT_TRUE(std::isinf(failed.stats->max_ulp));
  ASSERT_EQ(failed.stats->first_mismatches.size(), 3u);
  EXPECT_TRUE(std::isnan(failed.stats->first_mismatches[2].got));
  EXPECT_EQ(failed.stats->first_mismatches[1].coords, (std::vector<int64_t>{0, 0, 3, 4}));
}

TEST(ResultsJson, BadFilesNameTheFileAndTheField) {
  try {
    read_results_file(testing::data_file("bad_verdict.json"));
    FAIL() << "accepted a bad verdict";
  } catch (const ResultsFormatError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad_verdict.json: cases[2].verdict: unknown verdict \"MAYBE\""), std::string::npos) << what;
  }
  try {
    read_results_file(testing::data_file("not_json.json"));
    FAIL() << "accepted truncated JSON";
  } catch (const ResultsFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("not_json.json: not valid JSON"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_results_file(testing::data_file("does_not_exist.json")), ResultsFormatError);
}

// Found by fuzz/results_json_fuzzer (fuzz/regressions/): a number too large
// for a double is nlohmann's out_of_range, not parse_error, and escaped.
TEST(ResultsJson, ANumberTooLargeIsInvalidJson) {
  const auto file = std::filesystem::temp_directory_path() / ("oprig_results_overflow_" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << "-9223e72037209";
  try {
    read_results_file(file);
    FAIL() << "accepted a number no double holds";
  } catch (const ResultsFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON ([json.exception.out_of_range.406]"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace oprig::reports
