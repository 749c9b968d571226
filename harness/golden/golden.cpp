#include "golden/golden.hpp"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "reports/atomic_file.hpp"
#include "cases/tensor_data.hpp"
#include "core/dtype.hpp"
#include "core/npy.hpp"

namespace oprig::harness {
namespace {

constexpr const char* kRounding =
    "quantised outputs: q = clamp(round_half_away_from_zero(y / scale) + zero_point, qmin, qmax); "
    "float outputs: the fp64 reference value itself";

std::string file_fnv1a64(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  uint64_t h = 0xcbf29ce484222325ull;
  for (char ch; in.get(ch);) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ull;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

struct GoldenCase {
  nlohmann::json manifest;
  std::vector<NpyArray> inputs, outputs;
};

GoldenCase build(const Case& c, const LoadedOp& op) {
  GoldenCase g;
  const std::vector<TensorData> inputs = make_inputs(c, op.plan, op.context.num_inputs);
  const Expected expected = reference_output(c, op.context, inputs);
  nlohmann::json m;
  m["schema"] = 1;
  m["generator"] = std::string("oprig ") + OPRIG_VERSION + " golden generate";
  m["reference_fnv1a64"] = file_fnv1a64(op.plan.dir / "reference.cpp");
  m["package"] = c.package;
  m["op"] = c.op;
  m["case"] = c.golden_id;
  m["seed"] = c.seed;
  m["params"] = nlohmann::json::object();
  for (const auto& [name, value] : c.params) m["params"][name] = {{"dtype", "FLOAT_32"}, {"value", value}};
  m["inputs"] = nlohmann::json::array();
  for (size_t k = 0; k < inputs.size(); ++k) {
    m["inputs"].push_back({{"name", "in" + std::to_string(k)}, {"file", "in" + std::to_string(k) + ".npy"},
                           {"dtype", dtype_name(inputs[k].dtype)}, {"shape", inputs[k].shape},
                           {"scale", inputs[k].quant.scale}, {"zero_point", inputs[k].quant.zero_point}});
    g.inputs.push_back({inputs[k].dtype, inputs[k].shape, inputs[k].bytes});
  }
  NpyArray out;
  out.shape = expected.shape;
  Quantization q;
  if (c.quantized) {
    q = c.output_quant.at(0);
    out.dtype = c.dtype;
    out.data.resize(expected.values.size() * dtype_size(c.dtype));
    for (size_t i = 0; i < expected.values.size(); ++i) store_element(out.data, c.dtype, i, expected.values[i]);
  } else {
    out.dtype = OPRIG_DTYPE_FLOAT_64;
    out.data.resize(expected.values.size() * sizeof(double));
    if (!expected.values.empty()) std::memcpy(out.data.data(), expected.values.data(), out.data.size());
  }
  m["outputs"] = nlohmann::json::array({{{"name", "out0"}, {"file", "out0.npy"}, {"dtype", dtype_name(out.dtype)},
                                         {"of_dtype", dtype_name(c.dtype)}, {"shape", out.shape},
                                         {"scale", q.scale}, {"zero_point", q.zero_point}}});
  m["rounding"] = kRounding;
  g.outputs.push_back(std::move(out));
  g.manifest = std::move(m);
  return g;
}

std::filesystem::path case_dir(const std::filesystem::path& root, const Case& c) {
  return root / c.package / op_key(c.op) / c.golden_id;
}

// Bitwise for inputs and codes; for fp64 reference values a 4-ulp margin, so a
// different libm's last bits do not read as a changed reference.
bool same_values(const NpyArray& a, const NpyArray& b) {
  if (a.dtype != b.dtype || a.shape != b.shape || a.data.size() != b.data.size()) return false;
  if (a.dtype != OPRIG_DTYPE_FLOAT_64) return a.data == b.data;
  for (size_t i = 0; i < a.data.size() / 8; ++i) {
    double x, y;
    std::memcpy(&x, a.data.data() + 8 * i, 8);
    std::memcpy(&y, b.data.data() + 8 * i, 8);
    if (std::isnan(x) && std::isnan(y)) continue;
    if (x == y) continue;
    if (std::isinf(x) || std::isinf(y)) return false;
    const double ulp = std::nextafter(std::fabs(x), INFINITY) - std::fabs(x);
    if (std::fabs(x - y) > 4 * ulp) return false;
  }
  return true;
}

}  // namespace

std::filesystem::path default_golden_dir() {
  if (const char* env = std::getenv("OPRIG_GOLDEN_DIR")) return env;
  return OPRIG_SOURCE_GOLDEN_DIR;
}

GoldenReport generate_golden(const Suite& suite, const std::filesystem::path& root) {
  GoldenReport report;
  for (const auto& op : suite.ops) {
    const std::vector<Case> cases = golden_cases(op->space, op->plan);
    if (!cases.empty()) std::filesystem::remove_all(root / cases.front().package / op_key(op->plan.op));
    for (const Case& c : cases) {
      const GoldenCase g = build(c, *op);
      const auto dir = case_dir(root, c);
      std::filesystem::create_directories(dir);
      for (size_t k = 0; k < g.inputs.size(); ++k) write_npy(dir / ("in" + std::to_string(k) + ".npy"), g.inputs[k]);
      for (size_t k = 0; k < g.outputs.size(); ++k) write_npy(dir / ("out" + std::to_string(k) + ".npy"), g.outputs[k]);
      reports::write_file_atomically(dir / "manifest.json", g.manifest.dump(2) + "\n");
      ++report.written;
    }
  }
  return report;
}

GoldenReport verify_golden(const Suite& suite, const std::filesystem::path& root) {
  GoldenReport report;
  for (const auto& op : suite.ops) {
    const std::vector<Case> cases = golden_cases(op->space, op->plan);
    std::set<std::string> expected_dirs;
    for (const Case& c : cases) {
      const auto dir = case_dir(root, c);
      expected_dirs.insert(dir.filename().string());
      if (!std::filesystem::exists(dir / "manifest.json")) {
        report.problems.push_back(dir.string() + ": missing (run `oprig golden generate`)");
        continue;
      }
      try {
        const GoldenCase g = build(c, *op);
        std::ifstream in(dir / "manifest.json");
        const nlohmann::json stored = nlohmann::json::parse(in);
        if (stored.value("reference_fnv1a64", "") != g.manifest["reference_fnv1a64"])
          report.problems.push_back(dir.string() + ": made from another reference.cpp (hash " +
                                    stored.value("reference_fnv1a64", "?") + ", now " +
                                    g.manifest["reference_fnv1a64"].get<std::string>() + "): regenerate");
        if (stored.value("seed", uint64_t{0}) != c.seed || stored.value("params", nlohmann::json{}) != g.manifest["params"])
          report.problems.push_back(dir.string() + ": seed or params differ from the generator's");
        for (size_t k = 0; k < g.inputs.size(); ++k)
          if (!same_values(read_npy(dir / ("in" + std::to_string(k) + ".npy")), g.inputs[k]))
            report.problems.push_back(dir.string() + ": in" + std::to_string(k) + ".npy differs from the generated input");
        for (size_t k = 0; k < g.outputs.size(); ++k)
          if (!same_values(read_npy(dir / ("out" + std::to_string(k) + ".npy")), g.outputs[k]))
            report.problems.push_back(dir.string() + ": out" + std::to_string(k) +
                                      ".npy differs from the fp64 reference");
        ++report.verified;
      } catch (const std::exception& e) {
        report.problems.push_back(dir.string() + ": " + e.what());
      }
    }
    if (!cases.empty()) {
      const auto op_dir = root / cases.front().package / op_key(op->plan.op);
      if (std::filesystem::is_directory(op_dir))
        for (const auto& entry : std::filesystem::directory_iterator(op_dir))
          if (!expected_dirs.count(entry.path().filename().string()))
            report.problems.push_back(entry.path().string() + ": no such case any more (stale golden)");
    }
  }
  return report;
}

}  // namespace oprig::harness
