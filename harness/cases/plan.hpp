// An op's test plan (opsuite/<op>/plan.json): the harness knobs that are not
// part of the vendor spec formats — shapes, fills, parameter sweeps,
// quantisation of test tensors, tolerances with their reasons, golden cases.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace oprig::harness {

struct Fill {
  std::string name;
  std::string kind;  // "uniform", "edge", "all_codes"
  double low = 0, high = 0;
  std::vector<std::string> edge_values;  // symbolic: "+0", "nan", "denorm_min", "max", "1", ...
};

struct ParamSweep {
  std::string name;
  double random_low = 0, random_high = 0;
  int random_count = 0;  // random values besides the spec default
};

struct Quantization {
  double scale = 0;
  int32_t zero_point = 0;
};

struct GoldenLiteral {
  std::string name;
  std::string dtype;  // canonical dtype name
  std::vector<std::vector<double>> inputs;
  std::map<std::string, double> params;
};

struct TestPlan {
  std::filesystem::path file;  // the plan.json
  std::filesystem::path dir;   // its folder (the op folder)
  std::string op;
  std::string spec;            // spec file name, relative to dir
  std::vector<std::vector<int64_t>> shapes;
  std::vector<Fill> fills;            // for float dtypes
  std::vector<Fill> quantized_fills;  // for quantised dtypes (uniform fills also apply)
  std::vector<ParamSweep> params;
  std::vector<Quantization> input_quantization, output_quantization;
  nlohmann::json tolerance;  // per canonical dtype name; parsed by harness/compare
  size_t golden_max_elements = 4096;
  std::vector<GoldenLiteral> golden_literals;
  std::vector<std::vector<int64_t>> bench_shapes;
  int bench_repetitions = 9;
};

// Throws std::runtime_error "<file>: <json path>: what is wrong".
TestPlan load_plan(const std::filesystem::path& plan_json);

// Every opsuite/<op>/plan.json under `suite_dir`, sorted by folder name.
std::vector<std::filesystem::path> find_plans(const std::filesystem::path& suite_dir);

}  // namespace oprig::harness
