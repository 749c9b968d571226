#include "cases/plan.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

namespace oprig::harness {
namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& where,
                       const std::string& what) {
  throw std::runtime_error(file.string() + ": " + where + ": " + what);
}

Fill parse_fill(const std::filesystem::path& file, const std::string& name,
                const nlohmann::json& j) {
  Fill fill;
  fill.name = name;
  const std::string where = "/fills/" + name;
  if (!j.is_object() || !j.contains("kind")) fail(file, where, "a fill needs a \"kind\"");
  fill.kind = j.at("kind").get<std::string>();
  if (fill.kind == "uniform") {
    fill.low = j.at("low").get<double>();
    fill.high = j.at("high").get<double>();
    if (!(fill.low < fill.high)) fail(file, where, "low must be below high");
  } else if (fill.kind == "edge") {
    fill.edge_values = j.at("values").get<std::vector<std::string>>();
    if (fill.edge_values.empty()) fail(file, where, "an edge fill needs values");
  } else if (fill.kind != "all_codes") {
    fail(file, where, "unknown fill kind '" + fill.kind + "' (uniform, edge, all_codes)");
  }
  return fill;
}

std::vector<Quantization> parse_quant(const nlohmann::json& list) {
  std::vector<Quantization> out;
  for (const nlohmann::json& q : list)
    out.push_back({q.at("scale").get<double>(), q.at("zero_point").get<int32_t>()});
  return out;
}

}  // namespace

TestPlan load_plan(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path.string() + ": cannot open test plan");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(path.string() + ": not valid JSON: " + e.what());
  }
  TestPlan plan;
  plan.file = path;
  plan.dir = path.parent_path();
  try {
    plan.op = j.at("op").get<std::string>();
    plan.spec = j.at("spec").get<std::string>();
    plan.shapes = j.at("shapes").get<std::vector<std::vector<int64_t>>>();
    for (const auto& [name, f] : j.at("fills").items()) plan.fills.push_back(parse_fill(path, name, f));
    if (j.contains("quantized_fills"))
      for (const auto& [name, f] : j.at("quantized_fills").items())
        plan.quantized_fills.push_back(parse_fill(path, name, f));
    if (j.contains("params")) {
      for (const auto& [name, p] : j.at("params").items()) {
        ParamSweep sweep{name, p.value("random_low", 0.0), p.value("random_high", 0.0),
                         p.value("random_count", 0)};
        plan.params.push_back(sweep);
      }
    }
    if (j.contains("quantization")) {
      plan.input_quantization = parse_quant(j.at("quantization").at("inputs"));
      plan.output_quantization = parse_quant(j.at("quantization").at("outputs"));
    }
    plan.tolerance = j.at("tolerance");
    for (const auto& [dtype, tol] : plan.tolerance.items())
      if (!tol.contains("reason") || tol.at("reason").get<std::string>().empty())
        fail(path, "/tolerance/" + dtype, "every tolerance needs a \"reason\"");
    if (j.contains("golden")) {
      const nlohmann::json& g = j.at("golden");
      plan.golden_max_elements = g.value("max_elements", size_t{4096});
      for (const nlohmann::json& c : g.value("cases", nlohmann::json::array())) {
        GoldenLiteral lit;
        lit.name = c.at("name").get<std::string>();
        lit.dtype = c.at("dtype").get<std::string>();
        lit.inputs = c.at("inputs").get<std::vector<std::vector<double>>>();
        if (c.contains("params")) lit.params = c.at("params").get<std::map<std::string, double>>();
        plan.golden_literals.push_back(std::move(lit));
      }
    }
    if (j.contains("bench")) {
      plan.bench_shapes = j.at("bench").at("shapes").get<std::vector<std::vector<int64_t>>>();
      plan.bench_repetitions = j.at("bench").value("repetitions", 9);
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
  for (const auto& shape : plan.shapes)
    for (int64_t d : shape)
      if (d < 0) fail(path, "/shapes", "negative dimension");
  return plan;
}

std::vector<std::filesystem::path> find_plans(const std::filesystem::path& suite_dir) {
  std::vector<std::filesystem::path> plans;
  if (!std::filesystem::is_directory(suite_dir))
    throw std::runtime_error(suite_dir.string() + ": not a directory");
  for (const auto& entry : std::filesystem::directory_iterator(suite_dir)) {
    const auto plan = entry.path() / "plan.json";
    if (entry.is_directory() && std::filesystem::exists(plan)) plans.push_back(plan);
  }
  std::sort(plans.begin(), plans.end());
  return plans;
}

}  // namespace oprig::harness
