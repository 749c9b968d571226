// What `oprig run` says at the end, and what it keeps, end to end on the
// planted test packages (tests/data/packages, plans in tests/data/planted):
//  - reproducer lines only for cases someone must act on; UNIMPLEMENTED
//    cases summed up in one line per op x backend x type with their count;
//    the headline, report.html's banner and junit.xml never call them passed;
//  - --keep-outputs writes each kept case as a golden case (inputs, the
//    kernel's outputs, the expected ones) that --golden runs again, bounded
//    by --keep-outputs-cap, and report.html's failure card names the folder.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::filesystem::path kPlantedAtan = kSourceDir / "tests" / "data" / "planted" / "atan" / "atan.xml";

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The refuses_fp16 package answers UNSUPPORTED in prepare() for FLOAT_16: a
// plain run makes every f16 case UNIMPLEMENTED and passes every f32 one.
TEST_F(OprigCliTest, UnimplementedCasesAreSummedUpNotReproducedAndNeverCalledPassed) {
  const OprigRun run = oprig({"run", "--spec", kPlantedAtan.string(), "--package", OPRIG_TEST_PACKAGE_REFUSES_FP16,
                              "--backend", "cpu"},
                             "run");
  ASSERT_TRUE(run.results.is_object()) << run.process.err;
  EXPECT_EQ(run.process.exit_code, 0) << run.process.out << run.process.err;
  size_t passed = 0, unimplemented = 0;
  for (const nlohmann::json& c : run.cases()) {
    passed += c.at("verdict") == "PASSED";
    unimplemented += c.at("verdict") == "UNIMPLEMENTED";
  }
  ASSERT_GT(unimplemented, 1u);
  ASSERT_GT(passed, 0u);
  EXPECT_EQ(passed + unimplemented, run.cases().size());

  EXPECT_THAT(run.process.err, Not(HasSubstr("repro:"))) << "no case here needs anyone to act";
  const std::string group = "UNIMPLEMENTED   Atan on cpu, FLOAT_16: " + std::to_string(unimplemented) +
                            " cases: prepare() does not support these data types or shapes\n";
  EXPECT_EQ(count_of(run.process.out, group), 1u) << run.process.out;
  const std::string headline = "PASSED: " + std::to_string(passed) + " of " + std::to_string(run.cases().size()) +
                               " cases passed, none failed; " + std::to_string(unimplemented) + " not tested (" +
                               std::to_string(unimplemented) + " UNIMPLEMENTED)";
  EXPECT_THAT(run.process.out, HasSubstr(headline));
  EXPECT_THAT(read_text(run.out / "report.html"), HasSubstr("id=\"verdict-banner\">" + headline + "</div>"));
  // junit.xml: each one a skipped test case with its reason.
  EXPECT_EQ(count_of(read_text(run.out / "junit.xml"),
                     "<skipped message=\"UNIMPLEMENTED: prepare() does not support these data types or shapes\""),
            unimplemented);
}

// The flips_zero_sign package turns -0 into +0: the edge cases under offset -0 fail.
TEST_F(OprigCliTest, ActionableCasesKeepTheirReproducer) {
  const OprigRun run = oprig({"run", "--spec", kPlantedAtan.string(), "--package", OPRIG_TEST_PACKAGE_FLIPS_ZERO_SIGN,
                              "--backend", "cpu"},
                             "run");
  ASSERT_TRUE(run.results.is_object()) << run.process.err;
  size_t failed = 0;
  for (const nlohmann::json& c : run.cases()) failed += c.at("verdict") == "FAILED";
  ASSERT_GT(failed, 0u);
  EXPECT_EQ(count_of(run.process.err, "    repro: oprig run "), failed) << run.process.err;
}

std::string npy_data(const std::filesystem::path& npy) {
  const std::string bytes = read_text(npy);
  const size_t header = 10 + static_cast<unsigned char>(bytes.at(8)) + 256u * static_cast<unsigned char>(bytes.at(9));
  return bytes.substr(header);
}

TEST_F(OprigCliTest, KeepOutputsWritesEachFailedCaseAsAGoldenCaseThatRunsAgain) {
  const std::vector<std::string> args = {"run", "--spec", kPlantedAtan.string(), "--package",
                                         OPRIG_TEST_PACKAGE_FLIPS_ZERO_SIGN, "--backend", "cpu"};
  std::vector<std::string> keep = args;
  keep.push_back("--keep-outputs");
  const OprigRun run = oprig(keep, "run");
  ASSERT_TRUE(run.results.is_object()) << run.process.err;
  EXPECT_EQ(run.process.exit_code, 1);
  std::vector<std::string> failed_ids;
  for (const nlohmann::json& c : run.cases()) {
    const std::string id = c.at("id");
    if (c.at("verdict") != "FAILED") {
      EXPECT_FALSE(c.contains("kept_dir")) << id << ": only failed cases are kept by default";
      continue;
    }
    failed_ids.push_back(id);
    ASSERT_TRUE(c.contains("kept_dir")) << id;
    const std::filesystem::path dir = c.at("kept_dir").get<std::string>();
    EXPECT_EQ(dir, run.out / "kept" / id);
    for (const char* file : {"manifest.json", "in0.npy", "out0.npy", "got0.npy"})
      EXPECT_TRUE(std::filesystem::exists(dir / file)) << dir / file;
    // The edge fill's values under offset -0 hold -0 at index 1 (tests/data/planted/atan/plan.json);
    // expected atan(-0) = -0 stored as fp64, the kernel's output +0 in the case's own type.
    const std::string expected = npy_data(dir / "out0.npy");
    ASSERT_GE(expected.size(), 16u);
    EXPECT_EQ(static_cast<unsigned char>(expected[15]), 0x80) << id << ": expected -0 at index 1 (sign bit set)";
    const std::string got = npy_data(dir / "got0.npy");
    const size_t width = c.at("dtype") == "FLOAT_16" ? 2 : 4;
    ASSERT_GE(got.size(), 2 * width);
    EXPECT_EQ(static_cast<unsigned char>(got[2 * width - 1]), 0x00) << id << ": the kernel's +0 at index 1";
    const nlohmann::json manifest = nlohmann::json::parse(read_text(dir / "manifest.json"));
    EXPECT_EQ(manifest.at("op"), "Atan");
    EXPECT_EQ(manifest.at("verdict"), "FAILED");
    EXPECT_EQ(manifest.at("kernel_outputs")[0].at("file"), "got0.npy");
    EXPECT_THAT(read_text(run.out / "report.html"), HasSubstr("are kept in <code>" + dir.string() + "</code>"));
  }
  ASSERT_FALSE(failed_ids.empty());
  EXPECT_THAT(run.process.out,
              HasSubstr("kept outputs (--keep-outputs failed): " + std::to_string(failed_ids.size()) + " case(s) in " +
                        (run.out / "kept").string()));

  // The kept folders are golden cases: run again, the same kernel fails them the same way.
  std::vector<std::string> again = args;
  again.insert(again.end(), {"--golden", (run.out / "kept").string(), "--golden-only"});
  const OprigRun rerun = oprig(again, "rerun");
  ASSERT_TRUE(rerun.results.is_object()) << rerun.process.err;
  ASSERT_EQ(rerun.cases().size(), failed_ids.size());
  for (const nlohmann::json& c : rerun.cases()) {
    EXPECT_EQ(c.at("verdict"), "FAILED") << c.at("id");
    EXPECT_THAT(c.at("message").get<std::string>(), HasSubstr("the wrong sign of zero"));
  }
}

// validate judges a claimed kernel refusing a declared type as FAILED (refuses_fp16): nothing was
// computed, so the kept case holds its inputs and expected outputs, and says why there is no got0.npy.
TEST_F(OprigCliTest, ValidateKeepsARefusedCaseWithItsInputsAndExpectedOutputs) {
  const OprigRun run = oprig({"validate", "--spec", kPlantedAtan.string(), "--package", OPRIG_TEST_PACKAGE_REFUSES_FP16,
                              "--keep-outputs"},
                             "run");
  ASSERT_TRUE(run.results.is_object()) << run.process.err;
  EXPECT_EQ(run.process.exit_code, 1);
  size_t kept = 0;
  for (const nlohmann::json& c : run.cases()) {
    if (c.at("verdict") != "FAILED") continue;
    ASSERT_TRUE(c.contains("kept_dir")) << c.at("id");
    const std::filesystem::path dir = c.at("kept_dir").get<std::string>();
    EXPECT_TRUE(std::filesystem::exists(dir / "in0.npy"));
    EXPECT_TRUE(std::filesystem::exists(dir / "out0.npy"));
    EXPECT_FALSE(std::filesystem::exists(dir / "got0.npy"));
    const nlohmann::json manifest = nlohmann::json::parse(read_text(dir / "manifest.json"));
    EXPECT_THAT(manifest.at("note").get<std::string>(),
                HasSubstr("no kernel outputs: the case ended before the kernel executed (prepare() refused FLOAT_16"));
    ++kept;
  }
  EXPECT_GT(kept, 0u);
}

TEST_F(OprigCliTest, KeepOutputsStopsAtItsCapAndSaysSo) {
  // all: every case would be kept; 4 KiB hold a 7-element case (about 2 KiB with its manifest), never a
  // 16384-element one (about 200 KiB).
  const OprigRun run = oprig({"run", "--spec", kPlantedAtan.string(), "--package", OPRIG_TEST_PACKAGE_GOOD_ALL_BACKENDS,
                              "--backend", "cpu", "--keep-outputs", "all", "--keep-outputs-cap", "0.00390625"},
                             "run");
  ASSERT_TRUE(run.results.is_object()) << run.process.err;
  EXPECT_EQ(run.process.exit_code, 0) << "a cap never fails a run";
  size_t kept = 0, capped = 0;
  for (const nlohmann::json& c : run.cases()) {
    kept += c.contains("kept_dir");
    if (c.contains("kept_note")) {
      ++capped;
      EXPECT_THAT(c.at("kept_note").get<std::string>(), HasSubstr("not kept: the --keep-outputs cap of 4.0 KiB is reached"));
    }
  }
  EXPECT_GE(kept, 1u);
  EXPECT_GE(capped, 1u);
  EXPECT_EQ(kept + capped, run.cases().size());
  EXPECT_THAT(run.process.out, HasSubstr("kept outputs: the cap of 4.0 KiB was reached; " + std::to_string(capped) +
                                         " more case(s) not kept (--keep-outputs-cap MIB raises it)"));
}

TEST_F(OprigCliTest, KeepOutputsTakesFailedOrAllOnly) {
  const OprigRun run = oprig({"run", "--op", "atan", "--backend", "cpu", "--keep-outputs", "some"}, "run");
  EXPECT_EQ(run.process.exit_code, 2);
  EXPECT_THAT(run.process.err, HasSubstr("some not in {failed,all}"));
}

}  // namespace
}  // namespace oprig_test
