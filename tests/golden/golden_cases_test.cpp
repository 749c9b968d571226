// Golden cases never vanish or change meaning silently, end to end through the
// real `oprig`: cases copied from the bundled golden/ folder (made from the
// fp64 references and checked by golden_verify), edited the way a vendor with
// vectors of another suite would write them:
//  - a case whose layout (or type, or op) the spec does not declare on a
//    selected backend is a SKIPPED case saying why, never dropped;
//  - a case without "layout" for an op whose layout differs between backends
//    is refused (exit 2) naming the case and the field;
//  - a manifest's own "tolerance" judges its case instead of the plan's, and
//    the results name the rule that judged.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "../harness/oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;

const std::filesystem::path kBundled = kSourceDir / "golden" / "OprigOpsuite";

class GoldenCases : public OprigCliTest {
 protected:
  // Copies bundled case `name` of `op` to a fresh golden folder; returns the case's folder.
  std::filesystem::path copy_case(const std::string& op, const std::string& name, const std::string& folder) {
    const auto dir = fresh_dir(folder) / name;
    std::filesystem::copy(kBundled / op / name, dir, std::filesystem::copy_options::recursive);
    return dir;
  }
  static nlohmann::json manifest(const std::filesystem::path& dir) {
    return nlohmann::json::parse(read_text(dir / "manifest.json"));
  }
  static void write_manifest(const std::filesystem::path& dir, const nlohmann::json& m) {
    std::ofstream(dir / "manifest.json") << m.dump(2);
  }
  bool available(const OprigRun& run, const std::string& backend) {
    for (const nlohmann::json& b : run.results.at("environment").at("backends"))
      if (b.at("name") == backend) return b.at("available").get<bool>();
    return false;
  }
};

// The line of `text` that starts with `start` ("" when none does).
std::string console_line(const std::string& text, const std::string& start) {
  const size_t at = text.find("\n" + start);
  if (at == std::string::npos) return "";
  return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

// Conv2D declares NHWC on CPU and NCHW on GPU (conv2d.xml's supplemental lists).
TEST_F(GoldenCases, ACaseInALayoutABackendDoesNotDeclareIsSkippedThereWithTheReason) {
  const auto nhwc = copy_case("conv2d", "f32__nhwc_basic__uniform__valid_p0", "vectors");
  copy_case("conv2d", "f32__nchw_basic__uniform__valid_p0", "vectors");
  const OprigRun run = oprig({"run", "--golden", nhwc.parent_path().string(), "--golden-only", "--op", "Conv2D",
                              "--backend", "cpu,opencl"},
                             "run");
  ASSERT_TRUE(run.results.is_object()) << run.process.err;
  ASSERT_EQ(run.cases().size(), 4u) << "each case on each backend, none dropped";
  EXPECT_EQ(run.case_by_id("conv2d__golden__f32__nhwc_basic__uniform__valid_p0__cpu").at("verdict"), "PASSED");
  const nlohmann::json& nhwc_on_gpu = run.case_by_id("conv2d__golden__f32__nhwc_basic__uniform__valid_p0__opencl");
  EXPECT_EQ(nhwc_on_gpu.at("verdict"), "SKIPPED");
  EXPECT_EQ(nhwc_on_gpu.at("message"),
            "golden case: input in is in layout NHWC, but the spec declares NCHW for it on opencl");
  const nlohmann::json& nchw_on_cpu = run.case_by_id("conv2d__golden__f32__nchw_basic__uniform__valid_p0__cpu");
  EXPECT_EQ(nchw_on_cpu.at("verdict"), "SKIPPED");
  EXPECT_EQ(nchw_on_cpu.at("message"), "golden case: input in is in layout NCHW, but the spec declares NHWC for it on cpu");
  // The console counts it and says why, once per op x backend x type (where opencl is not here, the
  // line also counts the NCHW case, SKIPPED for that).
  EXPECT_THAT(console_line(run.process.out, "SKIPPED         Conv2D on opencl, FLOAT_32: "),
              HasSubstr("golden case: input in is in layout NHWC, but the spec declares NCHW for it on opencl"));
  EXPECT_EQ(console_line(run.process.out, "SKIPPED         Conv2D on cpu, FLOAT_32: "),
            "SKIPPED         Conv2D on cpu, FLOAT_32: 1 case: golden case: input in is in layout NCHW, but the spec "
            "declares NHWC for it on cpu");
  // Where its layout is declared the NCHW case runs (PASSED, or UNIMPLEMENTED while opencl has no Conv2D kernel).
  if (available(run, "opencl")) {
    EXPECT_THAT(run.case_by_id("conv2d__golden__f32__nchw_basic__uniform__valid_p0__opencl").at("verdict").get<std::string>(),
                ::testing::AnyOf("PASSED", "UNIMPLEMENTED"));
  }
}

TEST_F(GoldenCases, OnlyNhwcCasesOnTheGpuTestNothingAndSayWhy) {
  const auto nhwc = copy_case("conv2d", "f32__nhwc_basic__uniform__valid_p0", "vectors");
  const OprigRun run = oprig({"run", "--golden", nhwc.parent_path().string(), "--golden-only", "--op", "Conv2D",
                              "--backend", "opencl"},
                             "run");
  EXPECT_EQ(run.process.exit_code, 3) << run.process.out << run.process.err;
  ASSERT_TRUE(run.results.is_object()) << run.process.err;
  ASSERT_EQ(run.cases().size(), 1u);
  EXPECT_EQ(run.cases()[0].at("verdict"), "SKIPPED");
  EXPECT_THAT(run.process.out, HasSubstr("NOTHING TESTED: none of the 1 case ran a kernel to a verdict (1 SKIPPED)"));
  EXPECT_THAT(read_text(run.out / "report.html"), HasSubstr("layout NHWC, but the spec declares NCHW for it on opencl"));
}

// Atan on DSP declares UFIXED_POINT_8 only (atan.xml).
TEST_F(GoldenCases, ACaseOfATypeABackendDoesNotDeclareIsSkippedThereWithTheReason) {
  const auto dir = copy_case("atan", "f32__0__uniform__p0", "vectors");
  const OprigRun run =
      oprig({"run", "--golden", dir.parent_path().string(), "--golden-only", "--op", "Atan", "--backend", "cpu,dsp"}, "run");
  ASSERT_TRUE(run.results.is_object()) << run.process.err;
  EXPECT_EQ(run.process.exit_code, 0) << run.process.out;
  EXPECT_EQ(run.case_by_id("atan__golden__f32__0__uniform__p0__cpu").at("verdict"), "PASSED");
  const nlohmann::json& dsp = run.case_by_id("atan__golden__f32__0__uniform__p0__dsp");
  EXPECT_EQ(dsp.at("verdict"), "SKIPPED");
  EXPECT_THAT(dsp.at("message").get<std::string>(),
              HasSubstr("input in is FLOAT_32, which the spec does not declare for dsp (it declares UINT_8 (quantised))"));
}

TEST_F(GoldenCases, ACaseWithoutALayoutWhereBackendsDifferIsRefusedNamingTheCaseAndTheField) {
  const auto dir = copy_case("conv2d", "f32__nhwc_basic__uniform__valid_p0", "vectors");
  nlohmann::json m = manifest(dir);
  m.at("inputs")[0].erase("layout");
  write_manifest(dir, m);
  const OprigRun run = oprig({"run", "--golden", dir.parent_path().string(), "--golden-only", "--op", "Conv2D",
                              "--backend", "cpu"},
                             "run");
  EXPECT_EQ(run.process.exit_code, 2) << run.process.out;
  EXPECT_THAT(run.process.err, HasSubstr((dir / "manifest.json").string()));
  EXPECT_THAT(run.process.err, HasSubstr("golden case f32__nhwc_basic__uniform__valid_p0: inputs[0] (in) has no "
                                         "\"layout\", but Conv2D's spec declares NHWC on cpu, dsp, NCHW on opencl, vulkan"));
}

// The bundled Atan case's expected values (fp64) scaled by 1 + 1e-4: about
// 840 fp32 ulp off, far outside the plan's 3 ulp, inside a relative 1e-3.
void scale_expected(const std::filesystem::path& npy, double factor) {
  std::string bytes = read_text(npy);
  ASSERT_EQ(bytes.compare(0, 6, "\x93NUMPY"), 0);
  ASSERT_EQ(bytes[6], 1) << "version 1.0 header expected";
  const size_t header = 10 + static_cast<unsigned char>(bytes[8]) + 256u * static_cast<unsigned char>(bytes[9]);
  ASSERT_NE(bytes.substr(0, header).find("'<f8'"), std::string::npos) << "fp64 expected values";
  for (size_t at = header; at + 8 <= bytes.size(); at += 8) {
    double v;
    std::memcpy(&v, bytes.data() + at, 8);
    v *= factor;
    std::memcpy(bytes.data() + at, &v, 8);
  }
  std::ofstream(npy, std::ios::binary) << bytes;
}

TEST_F(GoldenCases, AManifestToleranceJudgesItsCaseAndTheResultsNameIt) {
  const auto dir = copy_case("atan", "f32__127__uniform__p0", "vectors");
  scale_expected(dir / "out0.npy", 1 + 1e-4);
  const std::vector<std::string> args = {"run", "--golden", dir.parent_path().string(), "--golden-only",
                                         "--op", "Atan", "--backend", "cpu"};
  const std::string id = "atan__golden__f32__127__uniform__p0__cpu";

  // Under the plan's rule (3 ulp) the suite's rounder values fail ...
  const OprigRun plan = oprig(args, "plan");
  ASSERT_TRUE(plan.results.is_object()) << plan.process.err;
  EXPECT_EQ(plan.case_by_id(id).at("verdict"), "FAILED");
  const nlohmann::json plan_stats = plan.case_by_id(id).at("outputs")[0].at("stats");
  EXPECT_EQ(plan_stats.at("tolerance"), "ulp<=3");
  EXPECT_THAT(plan_stats.at("tolerance_source").get<std::string>(), HasSubstr("plan FLOAT_32: "));

  // ... under the manifest's own rule they pass, and the results say which rule judged.
  nlohmann::json m = manifest(dir);
  m["tolerance"] = {{"rtol", 1e-3}, {"atol", 0}, {"reason", "the suite's own rule: relative 1e-3"}};
  write_manifest(dir, m);
  const OprigRun own = oprig(args, "own");
  ASSERT_TRUE(own.results.is_object()) << own.process.err;
  EXPECT_EQ(own.case_by_id(id).at("verdict"), "PASSED") << own.case_by_id(id).at("message");
  const nlohmann::json stats = own.case_by_id(id).at("outputs")[0].at("stats");
  EXPECT_EQ(stats.at("tolerance"), "atol<=0 rtol<=0.001");
  EXPECT_EQ(stats.at("tolerance_source"), "golden manifest: the suite's own rule: relative 1e-3");
  EXPECT_THAT(read_text(own.out / "report.html"), HasSubstr("golden manifest: the suite&#39;s own rule: relative 1e-3"));

  // The plan's vocabulary as a table by data type or output name works too.
  m["tolerance"] = {{"out", {{"rtol", 1e-3}, {"reason", "by output name"}}}};
  write_manifest(dir, m);
  const OprigRun table = oprig(args, "table");
  ASSERT_TRUE(table.results.is_object()) << table.process.err;
  EXPECT_EQ(table.case_by_id(id).at("verdict"), "PASSED");
  EXPECT_EQ(table.case_by_id(id).at("outputs")[0].at("stats").at("tolerance_source"),
            "golden manifest output out: by output name");
}

TEST_F(GoldenCases, AManifestToleranceWithoutAReasonIsRefused) {
  const auto dir = copy_case("atan", "f32__127__uniform__p0", "vectors");
  nlohmann::json m = manifest(dir);
  m["tolerance"] = {{"rtol", 1e-3}};
  write_manifest(dir, m);
  const OprigRun run =
      oprig({"run", "--golden", dir.parent_path().string(), "--golden-only", "--op", "Atan", "--backend", "cpu"}, "run");
  EXPECT_EQ(run.process.exit_code, 2) << run.process.out;
  EXPECT_THAT(run.process.err, HasSubstr((dir / "manifest.json").string() + ": tolerance: "));
  EXPECT_THAT(run.process.err, HasSubstr("\"reason\""));
}

}  // namespace
}  // namespace oprig_test
