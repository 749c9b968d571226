#include "oprig_cli.hpp"

#include <cstdlib>
#include <fstream>

namespace oprig_test {

const nlohmann::json& OprigRun::case_by_id(const std::string& id) const {
  static const nlohmann::json kNull;
  if (results.is_object())
    for (const nlohmann::json& c : results.at("cases"))
      if (c.at("id") == id) return c;
  ADD_FAILURE() << "no case " << id << " in " << (out / "results.json");
  return kNull;
}

void OprigCliTest::SetUp() { root_ = make_temp_dir("oprig_cli"); }

void OprigCliTest::TearDown() {
  if (HasFailure()) {
    std::cerr << "kept for inspection: " << root_ << "\n";
    return;
  }
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

std::filesystem::path OprigCliTest::fresh_dir(const std::string& name) {
  const auto dir = root_ / name;
  std::filesystem::create_directories(dir);
  return dir;
}

OprigRun OprigCliTest::finish(ProcessResult process, const std::filesystem::path& out) {
  OprigRun run{std::move(process), out, nullptr};
  if (!out.empty() && std::filesystem::exists(out / "results.json"))
    run.results = nlohmann::json::parse(read_text(out / "results.json"));
  return run;
}

OprigRun OprigCliTest::oprig(std::vector<std::string> args, const std::string& out_name,
                             const std::map<std::string, std::string>& env, double limit_s) {
  std::filesystem::path out;
  if (!out_name.empty()) {
    out = root_ / out_name;
    args.insert(args.end(), {"--out", out.string()});
  }
  args.insert(args.begin(), OPRIG_BINARY);
  const auto scratch = root_ / ("process_" + std::to_string(++runs_));
  return finish(run_process(args, env, scratch, limit_s), out);
}

OprigRun OprigCliTest::repro(const std::string& line, const std::string& out_name,
                             const std::map<std::string, std::string>& env, double limit_s) {
  EXPECT_EQ(line.rfind("oprig ", 0), 0u) << "a repro line starts with 'oprig ': " << line;
  const auto out = root_ / out_name;
  const std::string command = std::string("'") + OPRIG_BINARY + "'" + line.substr(5) + " --out '" + out.string() + "'";
  const auto scratch = root_ / ("process_" + std::to_string(++runs_));
  return finish(run_process({"/bin/sh", "-c", command}, env, scratch, limit_s), out);
}

int64_t element_count(const nlohmann::json& c) {
  int64_t n = 1;
  for (const auto& d : c.at("shape")) n *= d.get<int64_t>();
  return n;
}

PlanCounts count_cpu_cases_from_plan() {
  const nlohmann::json plan = nlohmann::json::parse(read_text(kAtanPlan));
  const size_t cpu_dtypes = 2;  // FLOAT_32, FLOAT_16
  size_t variants = 1;
  for (const auto& [name, sweep] : plan.at("params").items())
    variants = std::max(variants, 1 + sweep.value("random_count", size_t{0}));
  size_t shapes = 0, shapes_of_7 = 0;
  for (const auto& shape : plan.at("shapes")) {
    int64_t n = 1;
    for (const auto& d : shape) n *= d.get<int64_t>();
    ++shapes;
    shapes_of_7 += n == 7;
  }
  size_t per_dtype = 0, per_dtype_of_7 = 0;
  for (const auto& [name, fill] : plan.at("fills").items()) {
    if (fill.at("kind") == "uniform") {
      per_dtype += shapes * variants;
      per_dtype_of_7 += shapes_of_7 * variants;
    } else if (fill.at("kind") == "edge") {
      per_dtype += variants;
      per_dtype_of_7 += fill.at("values").size() == 7 ? variants : 0;
    }
  }
  PlanCounts counts{cpu_dtypes * per_dtype, cpu_dtypes * per_dtype_of_7};
  for (const auto& literal : plan.at("golden").at("cases")) {
    const std::string dtype = literal.at("dtype");
    if (dtype != "FLOAT_32" && dtype != "FLOAT_16") continue;
    ++counts.cpu_cases;
    counts.cpu_cases_with_7_elements += literal.at("inputs").at(0).size() == 7;
  }
  return counts;
}

std::map<std::string, std::string> let_signals_through() {
  auto with = [](const char* name, const std::string& extra) {
    const char* existing = std::getenv(name);
    return existing && *existing ? std::string(existing) + ":" + extra : extra;
  };
  return {{"ASAN_OPTIONS", with("ASAN_OPTIONS", "handle_segv=0:handle_abort=0")},
          {"UBSAN_OPTIONS", with("UBSAN_OPTIONS", "handle_segv=0:handle_abort=0")}};
}

}  // namespace oprig_test
