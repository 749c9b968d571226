// Bad input: exit code 2, a message that says what is wrong (naming the file
// where there is one), and nothing run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;

class BadInput : public OprigCliTest {
 protected:
  // Runs `oprig run <args> --backend cpu` and checks that it was refused
  // before anything ran; returns stderr.
  std::string refused(std::vector<std::string> args) {
    args.insert(args.begin(), "run");
    const OprigRun run = oprig(args, "out");
    EXPECT_EQ(run.process.exit_code, 2) << run.process.out << run.process.err;
    EXPECT_FALSE(std::filesystem::exists(run.out / "results.json"));
    EXPECT_FALSE(std::filesystem::exists(run.out / "results.jsonl"));
    EXPECT_THAT(run.process.out, ::testing::Not(HasSubstr("ran ")));
    EXPECT_FALSE(run.process.err.empty());
    return run.process.err;
  }

  // A copy of atan.xml with `from` replaced by `to`, beside a copy of plan.json.
  std::filesystem::path broken_spec(const std::string& from, const std::string& to) {
    const auto dir = fresh_dir("broken_spec");
    std::string xml = read_text(kAtanSpec);
    const size_t at = xml.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) xml.replace(at, from.size(), to);
    std::ofstream(dir / "atan.xml") << xml;
    std::filesystem::copy_file(kAtanPlan, dir / "plan.json");
    return dir / "atan.xml";
  }
};

TEST_F(BadInput, NonexistentSpec) {
  const std::string err = refused({"--spec", "/nonexistent/atan.xml", "--backend", "cpu"});
  EXPECT_THAT(err, HasSubstr("/nonexistent/atan.xml"));
}

TEST_F(BadInput, SpecThatIsNotWellFormedXml) {
  const auto spec = broken_spec("</OpDefList>", "</OpDefLis>");
  const std::string err = refused({"--spec", spec.string(), "--backend", "cpu"});
  EXPECT_THAT(err, HasSubstr(spec.string()));
}

TEST_F(BadInput, SpecWithAnInvalidElementValue) {
  const auto spec = broken_spec("<Rank>ND</Rank>", "<Rank>ELEVEN</Rank>");
  const std::string err = refused({"--spec", spec.string(), "--backend", "cpu"});
  EXPECT_THAT(err, HasSubstr(spec.string()));
  EXPECT_THAT(err, HasSubstr("ELEVEN"));
}

TEST_F(BadInput, SignedZeroOfAnOutputTheSpecLacks) {
  const auto spec = broken_spec("<Name>offset</Name>", "<Name>offset</Name>");  // the spec as it is
  std::string plan = read_text(spec.parent_path() / "plan.json");
  plan.insert(plan.find('{') + 1, R"("signed_zero": ["outt"],)");
  std::ofstream(spec.parent_path() / "plan.json") << plan;
  const std::string err = refused({"--spec", spec.string(), "--backend", "cpu"});
  EXPECT_THAT(err, HasSubstr("/signed_zero: \"outt\" is not an output of Atan"));
}

TEST_F(BadInput, UnknownBackend) {
  const std::string err = refused({"--spec", kAtanSpec.string(), "--backend", "cpu,tpu"});
  EXPECT_THAT(err, HasSubstr("unknown backend 'tpu'"));
}

TEST_F(BadInput, UnknownCaseId) {
  const std::string err = refused({"--spec", kAtanSpec.string(), "--case", "atan__f32__3x3__nosuch__p0__cpu"});
  EXPECT_THAT(err, HasSubstr("atan__f32__3x3__nosuch__p0__cpu"));
}

TEST_F(BadInput, PackageWithWrongAbi) {
  const std::string err =
      refused({"--spec", kAtanSpec.string(), "--package", OPRIG_TEST_PACKAGE_WRONG_ABI, "--backend", "cpu"});
  EXPECT_THAT(err, HasSubstr(OPRIG_TEST_PACKAGE_WRONG_ABI));
  EXPECT_THAT(err, HasSubstr("ABI version 99"));
}

TEST_F(BadInput, PackageWithoutEntryPoint) {
  const std::string err =
      refused({"--spec", kAtanSpec.string(), "--package", OPRIG_TEST_PACKAGE_NO_QUERY, "--backend", "cpu"});
  EXPECT_THAT(err, HasSubstr(OPRIG_TEST_PACKAGE_NO_QUERY));
  EXPECT_THAT(err, HasSubstr("oprig_package_query"));
}

TEST_F(BadInput, PackageWhoseOpHasTwoInputs) {
  const std::string err =
      refused({"--spec", kAtanSpec.string(), "--package", OPRIG_TEST_PACKAGE_TWO_INPUTS, "--backend", "cpu"});
  EXPECT_THAT(err, HasSubstr(OPRIG_TEST_PACKAGE_TWO_INPUTS));
  EXPECT_THAT(err, HasSubstr("2 inputs"));
}

TEST_F(BadInput, PackageWithAParamTheSpecLacks) {
  const std::string err =
      refused({"--spec", kAtanSpec.string(), "--package", OPRIG_TEST_PACKAGE_EXTRA_PARAM, "--backend", "cpu"});
  EXPECT_THAT(err, HasSubstr("'scale'"));
}

// A package that claims a cpu kernel whose library is missing is broken: its
// cases are INVALID_SPEC with the loader's reason, and the run fails.
TEST_F(OprigCliTest, MissingImplementationLibraryIsADefectOfThePackage) {
  const OprigRun run = oprig(
      {"run", "--spec", kAtanSpec.string(), "--package", OPRIG_TEST_PACKAGE_MISSING_IMPL, "--backend", "cpu"}, "out");
  EXPECT_EQ(run.process.exit_code, 1) << run.process.err;
  ASSERT_TRUE(run.results.is_object()) << run.process.err;
  EXPECT_EQ(run.cases().size(), count_cpu_cases_from_plan().cpu_cases);
  for (const nlohmann::json& c : run.cases()) {
    EXPECT_EQ(c.at("verdict"), "INVALID_SPEC") << c.at("id");
    EXPECT_THAT(c.at("message").get<std::string>(), HasSubstr("claims a cpu kernel"));
    EXPECT_THAT(c.at("message").get<std::string>(), HasSubstr("liboprig_test_package_does_not_exist.so"));
  }
}

}  // namespace
}  // namespace oprig_test
