// `oprig backends` lists every backend, and a backend whose driver is absent
// gives SKIPPED cases, never FAILED ones.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "oprig_cli.hpp"

namespace oprig_test {
namespace {

using ::testing::HasSubstr;

TEST_F(OprigCliTest, BackendsListsAllFour) {
  const OprigRun table = oprig({"backends"}, "");
  EXPECT_EQ(table.process.exit_code, 0) << table.process.err;
  for (const char* name : {"cpu", "opencl", "vulkan", "dsp"})
    EXPECT_THAT(table.process.out, ::testing::ContainsRegex(std::string("(^|\n)") + name + " ")) << name;

  const OprigRun json = oprig({"backends", "--json"}, "");
  EXPECT_EQ(json.process.exit_code, 0) << json.process.err;
  const nlohmann::json list = nlohmann::json::parse(json.process.out);
  std::vector<std::string> names;
  for (const nlohmann::json& b : list) names.push_back(b.at("name"));
  EXPECT_THAT(names, ::testing::UnorderedElementsAre("cpu", "opencl", "vulkan", "dsp"));
  for (const nlohmann::json& b : list) {
    if (b.at("name") == "cpu" || b.at("name") == "dsp") {
      EXPECT_TRUE(b.at("available")) << b.at("name");
    }
    // --json carries what the table shows: data types and the timer.
    if (!b.at("available")) continue;
    std::string dtypes;
    for (const nlohmann::json& d : b.at("dtypes")) dtypes += (dtypes.empty() ? "" : ",") + d.get<std::string>();
    EXPECT_THAT(table.process.out,
                HasSubstr("dtypes: " + dtypes + "; timer: " + b.at("timer").get<std::string>() + "\n"))
        << b.at("name");
    if (b.at("name") == "cpu") {
      EXPECT_THAT(b.at("dtypes"), ::testing::Contains("f32"));
      EXPECT_EQ(b.at("timer"), "host wall clock");
    }
    if (b.at("name") == "dsp") {
      EXPECT_EQ(b.at("timer"), "simulated cycles (cost model)");
    }
  }
}

// Runs the bundled Atan on `backend` with `env` hiding its driver: every case
// must be SKIPPED (with the reason), and the run says it tested nothing (exit 3).
void expect_all_skipped(const OprigRun& run, const std::string& backend) {
  EXPECT_EQ(run.process.exit_code, 3) << run.process.err;
  ASSERT_TRUE(run.results.is_object()) << run.process.err;
  EXPECT_EQ(run.cases().size(), count_cpu_cases_from_plan().cpu_cases)
      << "the GPU backends have cpu's dtypes (FLOAT_32, FLOAT_16) in atan.xml";
  for (const nlohmann::json& c : run.cases()) {
    EXPECT_EQ(c.at("backend"), backend);
    EXPECT_EQ(c.at("verdict"), "SKIPPED") << c.at("id") << ": " << c.at("message");
    EXPECT_THAT(c.at("message").get<std::string>(), HasSubstr("unavailable"));
  }
}

TEST_F(OprigCliTest, OpenclWithoutIcdIsSkipped) {
  const auto no_vendors = fresh_dir("empty_vendors");
  const OprigRun run = oprig({"run", "--spec", kAtanSpec.string(), "--backend", "opencl"}, "out",
                             {{"OCL_ICD_VENDORS", no_vendors.string()}, {"OCL_ICD_FILENAMES", ""}});
  expect_all_skipped(run, "opencl");
}

TEST_F(OprigCliTest, VulkanWithoutDriverIsSkipped) {
  const OprigRun run = oprig({"run", "--spec", kAtanSpec.string(), "--backend", "vulkan"}, "out",
                             {{"VK_ICD_FILENAMES", "/nonexistent.json"},
                              {"VK_DRIVER_FILES", "/nonexistent.json"},
                              {"VK_ADD_DRIVER_FILES", ""}});
  expect_all_skipped(run, "vulkan");
}

}  // namespace
}  // namespace oprig_test
