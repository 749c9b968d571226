// `oprig plan init` and `oprig package new`, the real binary: what they write,
// that what they write is usable, and that they never overwrite silently.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::filesystem::path kWalkthroughSpec = kSourceDir / "tests" / "walkthrough" / "leaky_relu.xml";

class Scaffold : public OprigCliTest {};

TEST_F(Scaffold, PlanInitWritesAPlanThatRunAcceptsAndRefusesToOverwriteWithoutForce) {
  const auto dir = fresh_dir("spec_only");
  std::filesystem::copy_file(kAtanSpec, dir / "atan.xml");
  const OprigRun init = oprig({"plan", "init", "--spec", (dir / "atan.xml").string()}, "");
  ASSERT_EQ(init.process.exit_code, 0) << init.process.out << init.process.err;
  ASSERT_TRUE(std::filesystem::exists(dir / "plan.json"));
  const auto plan = nlohmann::json::parse(read_text(dir / "plan.json"));
  EXPECT_EQ(plan.at("op"), "Atan");
  EXPECT_EQ(plan.at("spec"), "atan.xml");

  // `oprig run` takes the plan beside the spec and judges cases with it.
  const OprigRun run = oprig({"run", "--spec", (dir / "atan.xml").string(), "--backend", "cpu"}, "out");
  EXPECT_EQ(run.process.exit_code, 0) << run.process.out << run.process.err;
  ASSERT_FALSE(run.results.is_null());
  EXPECT_GT(run.cases().size(), 0u);
  // MISTRUSTED: within tolerance but with too many zeros to prove much (the small_int fill); never a failure.
  size_t passed = 0;
  for (const auto& c : run.cases()) {
    EXPECT_THAT(c.at("verdict").get<std::string>(), ::testing::AnyOf("PASSED", "MISTRUSTED"))
        << c.at("id") << ": " << c.at("message");
    passed += c.at("verdict") == "PASSED";
  }
  EXPECT_GT(passed, run.cases().size() / 2);

  // An edited plan is never replaced silently.
  std::ofstream(dir / "plan.json") << "{\"edited\": true}\n";
  const OprigRun again = oprig({"plan", "init", "--spec", (dir / "atan.xml").string()}, "");
  EXPECT_EQ(again.process.exit_code, 2);
  EXPECT_THAT(again.process.err, HasSubstr("--force"));
  EXPECT_EQ(read_text(dir / "plan.json"), "{\"edited\": true}\n");
  const OprigRun forced = oprig({"plan", "init", "--spec", (dir / "atan.xml").string(), "--force"}, "");
  EXPECT_EQ(forced.process.exit_code, 0) << forced.process.err;
  EXPECT_EQ(nlohmann::json::parse(read_text(dir / "plan.json")).at("op"), "Atan");
}

TEST_F(Scaffold, PackageNewRefusesANonEmptyFolder) {
  const auto dir = fresh_dir("taken");
  std::ofstream(dir / "mine.cpp") << "// the user's\n";
  const OprigRun run = oprig({"package", "new", "--spec", kWalkthroughSpec.string(), "-o", dir.string()}, "");
  EXPECT_EQ(run.process.exit_code, 2);
  EXPECT_THAT(run.process.err, HasSubstr("not empty"));
  EXPECT_EQ(read_text(dir / "mine.cpp"), "// the user's\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

TEST_F(Scaffold, PackageNewWritesTheFilesOfEveryBackendOfTheSpec) {
  const auto dir = fresh_dir("pkg_parent") / "acme";
  const OprigRun run = oprig({"package", "new", "--spec", kWalkthroughSpec.string(), "-o", dir.string()}, "");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.out << run.process.err;
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.insert(e.path().filename().string());
  // LeakyRelu on CPU and GPU: the spec's GPU is both opencl and vulkan.
  EXPECT_EQ(files, (std::set<std::string>{"leaky_relu.xml", "CMakeLists.txt", "registration.cpp", "cpu.cpp",
                                          "opencl.cpp", "acmeops.cl", "vulkan.cpp", "acmeops.comp", "plan.json",
                                          "make_golden.py", "README.md"}));
  EXPECT_EQ(read_text(dir / "leaky_relu.xml"), read_text(kWalkthroughSpec));
  EXPECT_THAT(read_text(dir / "CMakeLists.txt"), HasSubstr("find_package(oprig REQUIRED)"));
  EXPECT_THAT(read_text(dir / "cpu.cpp"), HasSubstr("return OPRIG_STATUS_UNSUPPORTED"));
  EXPECT_EQ(nlohmann::json::parse(read_text(dir / "plan.json")).at("op"), "LeakyRelu");
  // The package's README names the kernel files that were written, and no dsp.cpp: the spec lists no DSP.
  const std::string readme = read_text(dir / "README.md");
  EXPECT_THAT(readme, HasSubstr("`cpu.cpp`, `opencl.cpp` (+ `acmeops.cl`), `vulkan.cpp` (+ `acmeops.comp`)"));
  EXPECT_THAT(readme, Not(HasSubstr("dsp")));
}

TEST_F(Scaffold, PackageNewWritesADspStubWhenTheSpecListsDsp) {
  const auto dir = fresh_dir("atan_parent") / "atanpkg";
  const OprigRun run = oprig({"package", "new", "--spec", kAtanSpec.string(), "-o", dir.string()}, "");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.out << run.process.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "dsp.cpp"));
  EXPECT_THAT(read_text(dir / "CMakeLists.txt"), HasSubstr("DSP dsp.cpp"));
  EXPECT_THAT(read_text(dir / "README.md"), HasSubstr("`vulkan.cpp` (+ `oprigopsuite.comp`), `dsp.cpp`"));
  EXPECT_THAT(read_text(dir / "README.md"), HasSubstr("<oprig/oprig_dsp.h>"));
  // The stub is HVX code on the public DSP header, not a host loop: the
  // simulator's begin/end around a loop of vector loads and stores, and
  // UNSUPPORTED (so UNIMPLEMENTED cases) until the vendor says it is written.
  const std::string dsp = read_text(dir / "dsp.cpp");
  EXPECT_THAT(dsp, HasSubstr("#include <oprig/oprig_dsp.h>"));
  EXPECT_THAT(dsp, HasSubstr("oprig_dsp_begin(k->ctx)"));
  EXPECT_THAT(dsp, HasSubstr("const HVX_Vector x = oprig_dsp_load_bytes("));
  EXPECT_THAT(dsp, HasSubstr("oprig_dsp_store_bytes(out + i"));
  EXPECT_THAT(dsp, HasSubstr("return oprig_dsp_end(info);"));
  EXPECT_THAT(dsp, HasSubstr("constexpr bool kKernelWritten = false;"));
  EXPECT_THAT(dsp, HasSubstr("if (!kKernelWritten || !oprig_dsp_available(ctx)) return OPRIG_STATUS_UNSUPPORTED;"));
  EXPECT_THAT(read_text(dir / "cpu.cpp"), Not(HasSubstr("oprig_dsp")));
}

}  // namespace
}  // namespace oprig_test
