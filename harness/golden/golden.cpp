#include "golden/golden.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "cases/tensor_data.hpp"
#include "compare/comparator.hpp"
#include "core/dtype.hpp"
#include "core/npy.hpp"
#include "golden/golden_files.hpp"
#include "golden/golden_source.hpp"
#include "runner/case_tolerance.hpp"
#include "reports/atomic_file.hpp"

namespace oprig::harness {
namespace {

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

using GoldenCase = GoldenFiles;

GoldenCase build(const Case& c, const LoadedOp& op) {
  const std::vector<TensorData> inputs = make_inputs(c, op.plan);
  GoldenCase g = golden_files(c, inputs, reference_outputs(c, op.context, inputs));
  g.manifest["generator"] = std::string("oprig ") + OPRIG_VERSION + " golden generate";
  g.manifest["reference_fnv1a64"] = file_fnv1a64(op.plan.dir / "reference.cpp");
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
  if (auto p = installed_path("share/oprig/golden"); !p.empty()) return p;
  return OPRIG_SOURCE_GOLDEN_DIR;
}

GoldenReport generate_golden(const Suite& suite, const std::filesystem::path& root) {
  GoldenReport report;
  for (const auto& op : suite.ops) {
    const std::vector<Case> cases = golden_cases(op->space, op->plan);
    if (!cases.empty()) std::filesystem::remove_all(root / cases.front().package / op_key(op->plan.op));
    for (const Case& c : cases) {
      const GoldenCase g = build(c, *op);
      write_golden_files(case_dir(root, c), g);
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
        if (stored.value("seed", nlohmann::json()) != g.manifest["seed"] || manifest_params(stored) != c.params)
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

GoldenReport check_reference(const Suite& suite, const std::filesystem::path& root) {
  GoldenReport report;
  for (const auto& op : suite.ops) {
    if (op->context.reference == nullptr) continue;
    // One case per golden folder is enough (the reference does not depend on
    // the backend): the first backend whose types and layouts fit it.
    std::set<std::string> checked;
    for (const Case& c : golden_folder_cases(root, op->space, op->space.backends)) {
      if (!c.not_runnable.empty() || !checked.insert(c.golden_dir).second) continue;
      const std::string name = op->plan.op + " " + std::filesystem::path(c.golden_dir).filename().string();
      try {
        const std::vector<TensorData> inputs = make_inputs(c, op->plan);
        const std::vector<Expected> stored = expected_outputs(c, op->context, nullptr, inputs);
        const std::vector<Expected> ours = reference_outputs(c, op->context, inputs);
        std::string problem;
        for (size_t k = 0; k < stored.size() && problem.empty(); ++k) {
          if (ours[k].shape != stored[k].shape) {
            problem = "output " + std::to_string(k) + " shape " + shape_text(ours[k].shape) + ", stored " +
                      shape_text(stored[k].shape);
            break;
          }
          const CaseTensor& t = c.outputs[k];
          // The rule that judges the case in a run (the manifest's own, when it has one).
          const std::optional<JudgingTolerance> tol = judging_tolerance(c, op->context, t);
          if (!tol) {
            problem = "no tolerance for " + std::string(dtype_name(t.type.dtype));
            break;
          }
          // The reference's fp64 values rounded to the output type, judged like a kernel's.
          std::vector<std::byte> bytes(ours[k].values.size() * dtype_size(t.type.dtype));
          for (size_t i = 0; i < ours[k].values.size(); ++i)
            store_element(bytes, t.type.dtype, i, to_dtype_value(ours[k].values[i], t.type.dtype));
          compare::OutputTensor got{t.type.dtype, bytes, stored[k].shape, static_cast<float>(t.quant.scale),
                                    t.quant.zero_point};
          const compare::Comparison cmp = compare::compare_output(got, stored[k].values, tol->tolerance);
          if (cmp.verdict == Verdict::kFailed || cmp.verdict == Verdict::kQualityWarning)
            problem = "output " + t.name + ": " + cmp.message;
        }
        if (problem.empty()) report.matched.push_back(name);
        else report.problems.push_back(name + ": " + problem);
        ++report.verified;
      } catch (const std::exception& e) {
        report.problems.push_back(name + ": " + e.what());
      }
    }
  }
  return report;
}

}  // namespace oprig::harness
