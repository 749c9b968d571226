#include "models/model_case.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/dtype.hpp"
#include "core/half.hpp"
#include "graph/model.hpp"
#include "graph/prepared_model.hpp"

namespace oprig::harness::models {
namespace {

int64_t ordered_bits(float f) {
  int32_t i;
  std::memcpy(&i, &f, sizeof i);
  return i < 0 ? static_cast<int64_t>(std::numeric_limits<int32_t>::min()) - i : static_cast<int64_t>(i);
}

template <typename T>
T element(const graph::HostTensor& t, size_t i) {
  T v;
  std::memcpy(&v, t.data.data() + i * sizeof(T), sizeof v);
  return v;
}

double element_as_double(const graph::HostTensor& t, size_t i) {
  switch (t.dtype) {
    case OPRIG_DTYPE_FLOAT_32: return element<float>(t, i);
    case OPRIG_DTYPE_INT_32: return element<int32_t>(t, i);
    case OPRIG_DTYPE_UINT_8: case OPRIG_DTYPE_BOOL_8: return element<uint8_t>(t, i);
    case OPRIG_DTYPE_INT_8: return element<int8_t>(t, i);
    case OPRIG_DTYPE_INT_64: return static_cast<double>(element<int64_t>(t, i));
    case OPRIG_DTYPE_FLOAT_16: return half_to_float(element<uint16_t>(t, i));
    default: return std::nan("");
  }
}

std::string dims_text(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

std::string repro(const LoadedModelSuite& s, const std::string& id) {
  return "oprig run --suite " + s.file.parent_path().parent_path().string() + " --op " + s.name + " --case " + id;
}

}  // namespace

std::string case_id(const LoadedModelSuite& s, const SuiteCase& c, const std::string& backend) {
  return s.name + "__" + c.model_id + "__" + c.case_id + "__" + backend;
}

reports::CaseResult case_record(const LoadedModelSuite& s, const SuiteCase& c, const std::string& backend) {
  reports::CaseResult r;
  r.id = case_id(s, c, backend);
  r.golden_id = c.model_id + "__" + c.case_id;
  r.package = "models";
  r.op = s.name;
  r.backend = backend;
  r.dtype = c.outputs.empty() ? "none" : std::string(dtype_name(c.outputs[0].dtype));
  if (!c.outputs.empty()) r.shape = c.outputs[0].dims;
  r.fill = c.model_id;
  r.params = {{"case", c.case_id}, {"expected_status", c.expected_status}};
  if (c.loop_timeout_ms) r.params["loop_timeout_ms"] = *c.loop_timeout_ms;
  r.repro = repro(s, r.id);
  return r;
}

std::string mismatch(const graph::HostTensor& got, const ExpectedTensor& want, double* max_ulp) {
  const std::string what = "output '" + want.name + "'";
  if (got.dtype != want.dtype)
    return what + " is " + std::string(dtype_name(got.dtype)) + ", expected " + std::string(dtype_name(want.dtype));
  if (got.shape != want.dims) return what + " has shape " + dims_text(got.shape) + ", expected " + dims_text(want.dims);
  if (want.scale != 0 && (got.scale != want.scale || got.zero_point != want.zero_point))
    return what + " has quantisation (" + std::to_string(got.scale) + ", " + std::to_string(got.zero_point) +
           "), expected (" + std::to_string(want.scale) + ", " + std::to_string(want.zero_point) + ")";
  if (got.data.size() != want.values.size() * dtype_size(want.dtype))
    return what + " holds " + std::to_string(got.data.size()) + " bytes";
  for (size_t i = 0; i < want.values.size(); ++i) {
    bool ok = false;
    std::string got_text;
    if (want.dtype == OPRIG_DTYPE_UINT_64) {
      const uint64_t g = element<uint64_t>(got, i), w = want.u64_values[i];
      const uint64_t diff = g > w ? g - w : w - g;
      ok = want.tolerance.kind == Tolerance::Kind::kLsb ? diff <= static_cast<uint64_t>(want.tolerance.amount) : diff == 0;
      got_text = std::to_string(g);
    } else if (want.tolerance.kind == Tolerance::Kind::kAbsRel) {
      const double g = element_as_double(got, i), w = want.values[i];
      ok = std::fabs(g - w) <= want.tolerance.atol + want.tolerance.rtol * std::fabs(w);
      got_text = std::to_string(g) + " (allowed " + std::to_string(want.tolerance.atol) + " + " +
                 std::to_string(want.tolerance.rtol) + " * |expected|)";
    } else if (want.dtype == OPRIG_DTYPE_FLOAT_32) {
      const float g = element<float>(got, i), w = static_cast<float>(want.values[i]);
      const double ulp = static_cast<double>(std::llabs(ordered_bits(g) - ordered_bits(w)));
      *max_ulp = std::max(*max_ulp, ulp);
      ok = want.tolerance.kind == Tolerance::Kind::kUlp ? ulp <= static_cast<double>(want.tolerance.amount) : g == w;
      got_text = std::to_string(g) + " (" + std::to_string(static_cast<int64_t>(ulp)) + " ulp)";
    } else {
      const double g = element_as_double(got, i), w = want.values[i];
      ok = want.tolerance.kind == Tolerance::Kind::kLsb ? std::fabs(g - w) <= static_cast<double>(want.tolerance.amount)
                                                        : g == w;
      got_text = std::to_string(g);
    }
    if (!ok) return what + "[" + std::to_string(i) + "] = " + got_text + ", expected " + std::to_string(want.values[i]);
  }
  return {};
}

std::string placement_summary(const std::vector<graph::OperationPlacement>& placements, const std::string& target) {
  size_t total = 0, on_target = 0;
  for (const graph::OperationPlacement& p : placements) {
    if (p.op_name == "IF" || p.op_name == "WHILE") continue;
    ++total;
    on_target += p.backend == target;
  }
  if (total == 0) return "no operation but control flow";
  if (on_target == total) return total == 1 ? "its one operation ran on " + target
                                            : "all " + std::to_string(total) + " operations ran on " + target;
  if (on_target == 0) return "every operation ran on cpu, none on " + target;
  return std::to_string(on_target) + " of " + std::to_string(total) + " operations ran on " + target + ", " +
         std::to_string(total - on_target) + " on cpu";
}

reports::CaseResult run_model_case(const LoadedModelSuite& s, const SuiteCase& c, const std::string& backend,
                                   Backend* target, const std::string& unavailable_reason, Backend& cpu,
                                   const graph::PackageLibrary& packages, const graph::BuiltinKernelMap* builtins) {
  const auto start = std::chrono::steady_clock::now();
  reports::CaseResult r = case_record(s, c, backend);
  auto done = [&](Verdict v, std::string message) {
    r.verdict = v;
    r.message = std::move(message);
    r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  if (target == nullptr) return done(Verdict::kSkipped, unavailable_reason);

  graph::ExecutionResult result;
  std::string placement;
  try {
    const graph::Model model = graph::load_model(c.model, packages);
    const graph::PreparedModel prepared = graph::prepare(model, {target, &cpu}, {builtins});
    placement = placement_summary(prepared.placements(), backend);
    for (const std::string& note : prepared.placement_notes()) placement += "; " + note;
    nlohmann::json where = nlohmann::json::array();
    for (const graph::OperationPlacement& p : prepared.placements())
      where.push_back("subgraph " + std::to_string(p.subgraph) + " operation " + std::to_string(p.operation) + " (" +
                      p.op_name + "): " + p.backend + (p.kernel.empty() ? "" : " as " + p.kernel));
    r.params["placement"] = std::move(where);
    graph::ExecutionOptions options;
    if (c.loop_timeout_ms) options.loop_timeout = std::chrono::milliseconds(*c.loop_timeout_ms);
    result = prepared.execute(c.inputs, options);
  } catch (const graph::ModelError& e) {
    return done(Verdict::kInvalidSpec, e.what());
  } catch (const std::exception& e) {
    return done(Verdict::kFailed, e.what());
  }
  reports::PerfStats perf;
  perf.compute_ns_median = perf.compute_ns_min = static_cast<double>(result.elapsed.count());
  perf.compute_ns_samples = {perf.compute_ns_median};
  perf.loop_iterations = result.loop_iterations;
  r.perf = perf;
  const auto wall = std::chrono::duration_cast<std::chrono::milliseconds>(result.elapsed);
  const std::string where = " [placement: " + placement + "]";

  if (c.expected_status == "MISSED_DEADLINE") {
    if (result.status != graph::ExecutionStatus::kMissedDeadline)
      return done(Verdict::kFailed, "expected MISSED_DEADLINE, got " +
                                        std::string(graph::execution_status_name(result.status)) + where);
    if (!result.outputs.empty()) return done(Verdict::kFailed, "outputs reported after a missed deadline");
    if (c.max_wall_ms && wall.count() > *c.max_wall_ms)
      return done(Verdict::kFailed, "MISSED_DEADLINE after " + std::to_string(wall.count()) + " ms, more than the " +
                                        std::to_string(*c.max_wall_ms) + " ms allowed");
    if (wall < result.loop_timeout) return done(Verdict::kFailed, "the loop stopped before its timeout");
    return done(Verdict::kPassed, "MISSED_DEADLINE after " + std::to_string(wall.count()) + " ms" + where);
  }
  if (result.status != graph::ExecutionStatus::kOk)
    return done(Verdict::kFailed,
                std::string(graph::execution_status_name(result.status)) + ": " + result.message + where);
  if (result.outputs.size() != c.outputs.size())
    return done(Verdict::kFailed, std::to_string(result.outputs.size()) + " outputs, expected " +
                                      std::to_string(c.outputs.size()));
  reports::CompareStats stats;
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    stats.count += c.outputs[i].values.size();
    const std::string why = mismatch(result.outputs[i], c.outputs[i], &stats.max_ulp);
    if (!why.empty()) {
      stats.mismatches += 1;
      r.stats = stats;
      return done(Verdict::kFailed, why + where);
    }
  }
  stats.tolerance = "hand-derived expected values (suite.json)";
  r.stats = stats;
  return done(Verdict::kPassed, "placement: " + placement);
}

}  // namespace oprig::harness::models
