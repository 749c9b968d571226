// An op's test plan (opsuite/<op>/plan.json): the harness knobs that are not
// part of the vendor spec formats — shapes, fills, parameter sweeps, type
// combinations, quantisation of test tensors, tolerances with their reasons,
// golden cases, bench shapes. harness/README.md documents every key.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace oprig::harness {

// How the elements of one input are made.
struct FillSpec {
  // "uniform": values in [low, high] (integers in it for integer types;
  //            random codes over the whole range for quantised types);
  // "small_int": integers in [low, high] with a share `zero_share` of zeros,
  //            exact in every float type, so sums do not cancel (benchdnn);
  // "edge": the symbolic `edge_values` in turn ("+0", "nan", "max", "1.5");
  // "all_codes": every code of a quantised type in turn;
  // "constant": every element `value`;
  // "distinct": a random permutation of evenly spaced values in [low, high]
  //            (no two equal: no ties for sorts and arg-max);
  // "ties": values from only `levels` distinct ones in [low, high];
  // "specials": a uniform fill in [low, high] with a share `value` of its
  //            elements replaced by `edge_values` chosen at random (NaN, ±inf,
  //            -0, huge, denormals scattered among ordinary values, so one
  //            slice's special value must not leak into its neighbours);
  // "boxes": boxes [y1, x1, y2, x2] (last dim 4) with corners in [low, high]
  //            and y1 <= y2, x1 <= x2; `value` > 0 makes that share identical
  //            to the box before.
  std::string kind;
  double low = 0, high = 0;
  double zero_share = 0;
  double value = 0;
  int levels = 4;
  bool exclude_zero = false;  // uniform: never 0 (divisors)
  std::vector<std::string> edge_values;
};

struct ShapeEntry;

struct Quantization {
  double scale = 0;
  int32_t zero_point = 0;
};

struct Fill {
  std::string name;
  FillSpec all;                               // inputs without their own
  std::map<std::string, FillSpec> by_input;   // by the spec's input name
  std::vector<ShapeEntry> shapes;             // non-empty: only these shapes for this fill
  std::vector<std::string> types;             // non-empty: only cases whose primary type is one of these
  // Non-null: tolerances (data type or output name -> tolerance, as the
  // plan's) for the cases of this fill, before the plan's: a fill of exact
  // small integers can demand exact sums where a uniform fill cannot.
  nlohmann::json tolerance;
  const FillSpec& for_input(const std::string& input_name) const;
};

// The shapes of one case. `inputs` has one entry per input the case passes
// (Repeated inputs may appear several times); nullopt leaves an optional
// input out. A plain array in plan.json (`[1, 3, 5, 7]`) gives that shape to
// every mandatory input and leaves optional ones out.
struct ShapeEntry {
  std::string name;  // for ids; empty: derived from the shapes
  std::vector<std::optional<std::vector<int64_t>>> inputs;
  bool every_input = false;     // the plain-array form
  nlohmann::json params = nlohmann::json::object();  // fixed parameters of this entry
  int num_outputs = -1;         // a Repeated output: how many; -1: one per output def
  std::string layout;           // non-empty: only where input 0's layout (per backend, from the spec) is this
  // This entry's quantisation of quantised inputs / outputs, replacing the
  // plan's (by position among the quantised tensors, the last repeats);
  // empty: the plan's. Lets one plan test several scales and zero points.
  std::vector<Quantization> input_quantization, output_quantization;
  // Terms summed into one output element in this entry's cases (a tolerance's
  // "accumulation" term grows with it; compare/tolerance.hpp); 1: none given.
  double reduction_length = 1;
};

struct ParamSweep {
  std::string name;
  std::vector<nlohmann::json> values;  // one variant per value
  bool every_enum_value = false;       // "values": "all": every Enumeration value of the spec
  double random_low = 0, random_high = 0;
  int random_count = 0;                // random values besides the spec default
  bool integer = false;                // random values rounded to integers
};

struct TypeCombination {
  std::vector<std::string> inputs, outputs;  // spec data type names per tensor def
};

struct GoldenLiteralTensor {
  std::vector<int64_t> shape;
  std::vector<double> values;
};

struct GoldenLiteral {
  std::string name;
  std::string dtype;  // canonical name of the driving type
  std::vector<std::optional<GoldenLiteralTensor>> inputs;
  nlohmann::json params = nlohmann::json::object();
  int num_outputs = -1;  // a Repeated output: how many; -1: one per output def
  std::vector<Quantization> input_quantization, output_quantization;  // empty: the plan's
};

// Outputs whose order along an axis the op leaves open (a top-k with
// sorted=false): a case this applies to compares each slice along `axis` of
// these outputs as a multiset of tuples (one element of each output, the
// listed order), e.g. values with their indices, not position by position.
struct OrderInsensitive {
  std::vector<std::string> outputs;
  nlohmann::json axis;  // an integer, or the name of the parameter that holds it
  nlohmann::json when = nlohmann::json::object();  // parameter -> value: applies only where all match
  std::string reason;
};

struct TestPlan {
  std::filesystem::path file;  // the plan.json
  std::filesystem::path dir;   // its folder (the op folder)
  std::string op;
  std::string spec;            // spec file name, relative to dir
  std::vector<ShapeEntry> shapes;
  std::vector<Fill> fills;            // for float and plain integer types
  std::vector<Fill> quantized_fills;  // for quantised types (a fill named "uniform" also applies)
  std::vector<ParamSweep> params;
  std::vector<TypeCombination> types;  // empty: derived from the spec
  std::vector<Quantization> input_quantization, output_quantization;  // by index; the last repeats
  nlohmann::json tolerance;  // by data type name or output name; parsed by harness/compare
  size_t golden_max_elements = 4096;
  size_t golden_shapes_per_variant = 0;  // 0: every shape within max_elements; else the first N per (types, fill, variant)
  std::vector<GoldenLiteral> golden_literals;
  std::vector<ShapeEntry> bench_shapes;
  int bench_repetitions = 9;
  // Outputs whose sign of zero is compared (-0 != +0): "signed_zero": true
  // (every output) or ["out", ...]; empty: none (+0 == -0).
  bool signed_zero_all = false;
  std::vector<std::string> signed_zero_outputs;
  std::vector<OrderInsensitive> order_insensitive;
  bool derived = false;  // made from the spec alone (no plan.json)
  // "integer_reference": {"rule": "..."}: the op's integer reference
  // (opsuite/common/integer_reference.hpp) judges its quantised cases at
  // 0 LSB beside the fp64 reference; the rule as a vendor reads it. Empty: none.
  std::string integer_rule;
};

// Throws std::runtime_error "<file>: <json path>: what is wrong".
TestPlan load_plan(const std::filesystem::path& plan_json);
TestPlan parse_plan(const nlohmann::json& j, const std::filesystem::path& file);

// Every opsuite/<op>/plan.json under `suite_dir`, sorted by folder name.
std::vector<std::filesystem::path> find_plans(const std::filesystem::path& suite_dir);

}  // namespace oprig::harness
