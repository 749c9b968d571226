#include "cli/model_command.hpp"

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "registry.hpp"
#include "cli/number_checks.hpp"
#include "compare/comparator.hpp"
#include "core/dtype.hpp"
#include "core/half.hpp"
#include "core/npy.hpp"
#include "graph/package_library.hpp"
#include "graph/prepared_model.hpp"
#include "oprig/verdict.hpp"
#include "models/builtin_kernels.hpp"
#include "models/model_case.hpp"
#include "runner/package_probe.hpp"
#include "runner/suite.hpp"

namespace oprig::cli {
namespace {

namespace fs = std::filesystem;
using graph::ExecutionResult;
using graph::ExecutionStatus;
using graph::HostTensor;

struct ModelRunOptions {
  std::string model;
  std::string backend = "cpu";
  std::string inputs_dir;
  std::optional<double> loop_timeout_ms;
  std::string out_dir;
  std::vector<std::string> packages;
  std::string compare_to;
};

// One operation output recorded by the observer.
struct Dump {
  std::string key;  // site + operation + output: equal across backends when control flow agrees
  std::string op_name, backend;
  uint32_t subgraph = 0, operation = 0, output_index = 0, operand = 0;
  HostTensor tensor;
};

class BadInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string t = "[";
  for (size_t i = 0; i < shape.size(); ++i) t += (i ? "," : "") + std::to_string(shape[i]);
  return t + "]";
}

std::vector<double> as_doubles(const HostTensor& t) {
  const size_t size = dtype_size(t.dtype), n = size ? t.data.size() / size : 0;
  std::vector<double> out(n);
  const std::byte* p = t.data.data();
  for (size_t i = 0; i < n; ++i, p += size) {
    switch (t.dtype) {
      case OPRIG_DTYPE_FLOAT_32: out[i] = *reinterpret_cast<const float*>(p); break;
      case OPRIG_DTYPE_FLOAT_64: out[i] = *reinterpret_cast<const double*>(p); break;
      case OPRIG_DTYPE_FLOAT_16: out[i] = half_to_float(*reinterpret_cast<const uint16_t*>(p)); break;
      case OPRIG_DTYPE_INT_8: out[i] = *reinterpret_cast<const int8_t*>(p); break;
      case OPRIG_DTYPE_INT_16: out[i] = *reinterpret_cast<const int16_t*>(p); break;
      case OPRIG_DTYPE_INT_32: out[i] = *reinterpret_cast<const int32_t*>(p); break;
      case OPRIG_DTYPE_INT_64: out[i] = static_cast<double>(*reinterpret_cast<const int64_t*>(p)); break;
      case OPRIG_DTYPE_UINT_8:
      case OPRIG_DTYPE_BOOL_8: out[i] = *reinterpret_cast<const uint8_t*>(p); break;
      case OPRIG_DTYPE_UINT_16: out[i] = *reinterpret_cast<const uint16_t*>(p); break;
      case OPRIG_DTYPE_UINT_32: out[i] = *reinterpret_cast<const uint32_t*>(p); break;
      case OPRIG_DTYPE_UINT_64: out[i] = static_cast<double>(*reinterpret_cast<const uint64_t*>(p)); break;
      default: break;
    }
  }
  return out;
}

std::string values_text(const HostTensor& t, size_t limit = 64) {
  const std::vector<double> v = as_doubles(t);
  std::string out = "[";
  for (size_t i = 0; i < v.size() && i < limit; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, dtype_is_float(t.dtype) ? "%.9g" : "%.0f", v[i]);
    out += (i ? ", " : "") + std::string(buf);
  }
  if (v.size() > limit) out += ", ... (" + std::to_string(v.size()) + " values)";
  return out + "]";
}

NpyArray to_npy(const HostTensor& t) {
  NpyArray a;
  a.dtype = t.dtype;
  a.shape = t.shape;
  a.data = t.data;
  return a;
}

std::vector<HostTensor> read_inputs(const graph::Model& model, const std::string& dir) {
  const graph::Subgraph& main = model.main_subgraph();
  std::vector<HostTensor> inputs;
  for (size_t j = 0; j < main.inputs.size(); ++j) {
    const graph::Operand& d = main.operands[main.inputs[j]];
    if (dir.empty())
      throw BadInput("the model takes " + std::to_string(main.inputs.size()) + " input(s): pass --inputs DIR with in0.npy ...");
    fs::path path = fs::path(dir) / ("in" + std::to_string(j) + ".npy");
    if (!fs::exists(path) && !d.name.empty() && fs::exists(fs::path(dir) / (d.name + ".npy")))
      path = fs::path(dir) / (d.name + ".npy");
    NpyArray a;
    try {
      a = read_npy(path);
    } catch (const std::exception& e) {
      throw BadInput(std::string("input ") + std::to_string(j) + ": " + e.what());
    }
    HostTensor t;
    t.dtype = a.dtype;
    t.shape = a.shape;
    t.data = std::move(a.data);
    t.scale = d.scale;  // .npy has no quantisation: the model's declaration applies
    t.zero_point = d.zero_point;
    inputs.push_back(std::move(t));
  }
  return inputs;
}

std::unique_ptr<Backend> open_backend(const std::string& name) {
  std::string why;
  auto backend = create_backend(name, &why);
  if (!backend) throw BadInput("backend '" + name + "' is not available: " + why);
  return backend;
}

graph::ExecutionOptions execution_options(const ModelRunOptions& o, std::vector<Dump>* dumps) {
  graph::ExecutionOptions options;
  if (o.loop_timeout_ms)
    options.loop_timeout = std::chrono::duration_cast<graph::Nanoseconds>(std::chrono::duration<double, std::milli>(*o.loop_timeout_ms));
  if (dumps) {
    options.observer = [dumps](const graph::OperandDump& d) {
      Dump dump;
      dump.key = std::string(d.site) + "/op" + std::to_string(d.operation) + ".out" + std::to_string(d.output_index);
      dump.op_name = d.op_name;
      dump.backend = d.backend;
      dump.subgraph = d.subgraph;
      dump.operation = d.operation;
      dump.output_index = d.output_index;
      dump.operand = d.operand;
      dump.tensor.dtype = d.dtype;
      dump.tensor.shape.assign(d.shape.begin(), d.shape.end());
      dump.tensor.scale = d.scale;
      dump.tensor.zero_point = d.zero_point;
      dump.tensor.data.assign(d.data.begin(), d.data.end());
      dumps->push_back(std::move(dump));
    };
  }
  return options;
}

// fp32/fp16: 3 ulp (the project's fp bound); quantised: 1 LSB (one
// requantisation step); other integers and BOOL_8: exact.
compare::Tolerance tolerance_for(const HostTensor& t) {
  compare::Tolerance tol;
  tol.mistrust_zero_fraction = 1.0;  // intermediate values may legitimately be all zero
  if (dtype_is_float(t.dtype)) {
    tol.strict = {compare::BoundKind::kUlp, 3, 0, 0, 0};
    tol.reason = "fp bound of oprig: 3 ulp";
  } else if (t.scale != 0) {
    tol.strict = {compare::BoundKind::kLsb, 0, 0, 0, 1};
    tol.reason = "one requantisation step";
  } else {
    tol.strict = {compare::BoundKind::kLsb, 0, 0, 0, 0};
    tol.reason = "integers are exact";
  }
  return tol;
}

int report_result(const ExecutionResult& r, const std::string& backend) {
  if (r.status == ExecutionStatus::kMissedDeadline) {
    std::fprintf(stderr, "oprig: MISSED_DEADLINE on %s after %.1f ms (loop timeout %.1f ms): %s\n"
                         "oprig: no output is valid\n",
                 backend.c_str(), std::chrono::duration<double, std::milli>(r.elapsed).count(),
                 std::chrono::duration<double, std::milli>(r.loop_timeout).count(), r.message.c_str());
    return kExitFailure;
  }
  if (r.status == ExecutionStatus::kInvalidInput) {
    std::fprintf(stderr, "oprig: %s\n", r.message.c_str());
    return kExitBadInput;
  }
  if (r.status != ExecutionStatus::kOk) {
    std::fprintf(stderr, "oprig: execution on %s failed: %s\n", backend.c_str(), r.message.c_str());
    return kExitFailure;
  }
  return kExitOk;
}

void write_dumps(const std::vector<Dump>& dumps, const fs::path& dir) {
  fs::create_directories(dir);
  for (size_t i = 0; i < dumps.size(); ++i) {
    std::string name = dumps[i].key;
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "%06zu_", i);
    write_npy(dir / (prefix + name + ".npy"), to_npy(dumps[i].tensor));
  }
}

// Walks the target's dumps in execution order and stops at the first one
// that differs from the reference run.
int compare_runs(const std::vector<Dump>& got, const std::vector<Dump>& reference, const std::string& backend,
                 const std::string& reference_backend) {
  std::map<std::string, const Dump*> by_key;
  for (const Dump& d : reference) by_key.emplace(d.key, &d);
  size_t compared = 0;
  for (const Dump& d : got) {
    const std::string where = "subgraph " + std::to_string(d.subgraph) + " operation " + std::to_string(d.operation) +
                              " (" + d.op_name + ", ran on " + d.backend + ") output " + std::to_string(d.output_index) +
                              " (operand " + std::to_string(d.operand) + ") at " + d.key;
    auto it = by_key.find(d.key);
    if (it == by_key.end()) {
      std::printf("first divergence: %s: the %s run never produced it (control flow differs)\n", where.c_str(),
                  reference_backend.c_str());
      return kExitFailure;
    }
    const Dump& e = *it->second;
    if (e.tensor.shape != d.tensor.shape || e.tensor.dtype != d.tensor.dtype) {
      std::printf("first divergence: %s: shape %s on %s, %s on %s\n", where.c_str(), shape_text(d.tensor.shape).c_str(),
                  backend.c_str(), shape_text(e.tensor.shape).c_str(), reference_backend.c_str());
      return kExitFailure;
    }
    compare::OutputTensor out;
    out.dtype = d.tensor.dtype;
    out.bytes = d.tensor.data;
    out.shape = d.tensor.shape;
    out.scale = d.tensor.scale;
    out.zero_point = d.tensor.zero_point;
    const std::vector<double> expected = as_doubles(e.tensor);
    const compare::Comparison c = compare::compare_output(out, expected, tolerance_for(d.tensor));
    ++compared;
    if (c.stats.mismatches > 0) {
      std::printf("first divergence: %s: %s\n  %s: %s\n  %s: %s\n", where.c_str(), c.message.c_str(), backend.c_str(),
                  values_text(d.tensor, 16).c_str(), reference_backend.c_str(), values_text(e.tensor, 16).c_str());
      return kExitFailure;
    }
  }
  // Where each operation really ran, from the dumps (IF/WHILE name the
  // target only when everything under them ran there).
  std::map<std::pair<uint32_t, uint32_t>, std::map<std::string, size_t>> ran;
  std::map<std::pair<uint32_t, uint32_t>, std::string> names;
  for (const Dump& d : got) {
    ++ran[{d.subgraph, d.operation}][d.backend];
    names[{d.subgraph, d.operation}] = d.op_name;
  }
  std::printf("where each operation ran on the %s run (outputs produced there):\n", backend.c_str());
  for (const auto& [key, counts] : ran) {
    std::string text;
    for (const auto& [where, n] : counts) text += (text.empty() ? "" : ", ") + where + " " + std::to_string(n);
    std::printf("  subgraph %u operation %u (%s): %s\n", key.first, key.second, names[key].c_str(), text.c_str());
  }
  size_t on_target = 0;
  for (const Dump& d : got) on_target += d.backend == backend;
  if (backend != reference_backend && on_target == 0) {
    // Comparing cpu with cpu would print "no divergence" about nothing.
    std::printf("nothing ran on %s: all %zu operation outputs came from the fallback (see the notes above), so the "
                "comparison with %s tested nothing (exit 3)\n",
                backend.c_str(), got.size(), reference_backend.c_str());
    return kExitNothingTested;
  }
  std::printf("no divergence: %zu operation outputs on %s match %s (fp 3 ulp, quantised 1 LSB, integers exact); "
              "%zu of them ran on %s, %zu on the fallback\n",
              compared, backend.c_str(), reference_backend.c_str(), on_target, backend.c_str(), got.size() - on_target);
  return kExitOk;
}

// Where prepare() put every operation, then why anything is not on the target.
void print_placement(const graph::PreparedModel& prepared, const std::string& backend) {
  std::fprintf(stderr, "placement on %s: %s\n", backend.c_str(),
               harness::models::placement_summary(prepared.placements(), backend).c_str());
  for (const graph::OperationPlacement& p : prepared.placements())
    std::fprintf(stderr, "  subgraph %u operation %u (%s): %s%s\n", p.subgraph, p.operation, p.op_name.c_str(),
                 p.backend.c_str(), p.kernel.empty() ? "" : (" as " + p.kernel).c_str());
  for (const std::string& note : prepared.placement_notes()) std::fprintf(stderr, "note: %s\n", note.c_str());
}

int run_model(const ModelRunOptions& o) {
  graph::PackageLibrary packages;
  for (const std::string& p : o.packages) {
    if (fs::exists(p)) harness::check_package_load_in_child(p);
    packages.load(p);
  }
  const fs::path bundled = harness::default_package_path();
  if (fs::exists(bundled)) {
    harness::check_package_load_in_child(bundled);
    auto package = Package::load(bundled);
    if (packages.find(package->name()) == nullptr) packages.add(std::move(package));
  }
  const fs::path builtins_path = harness::models::default_builtins_package_path();
  harness::check_package_load_in_child(builtins_path);
  const auto builtins =
      std::make_unique<harness::models::OpsuiteBuiltinKernels>(harness::default_package_path(), builtins_path);
  const graph::Model model = graph::load_model(o.model, packages);
  const std::vector<HostTensor> inputs = read_inputs(model, o.inputs_dir);
  const std::unique_ptr<Backend> target = open_backend(o.backend);
  std::unique_ptr<Backend> cpu_owned;
  Backend* cpu = target.get();
  if (o.backend != "cpu") {
    cpu_owned = open_backend("cpu");
    cpu = cpu_owned.get();
  }
  const graph::PreparedModel prepared = graph::prepare(model, {target.get(), cpu}, {builtins.get()});
  print_placement(prepared, o.backend);

  const bool comparing = !o.compare_to.empty();
  std::vector<Dump> dumps, reference_dumps;
  const ExecutionResult r = prepared.execute(inputs, execution_options(o, comparing ? &dumps : nullptr));
  const int rc = report_result(r, o.backend);
  if (rc != kExitOk) return rc;

  const graph::Subgraph& main = model.main_subgraph();
  for (size_t j = 0; j < r.outputs.size(); ++j) {
    const graph::Operand& d = main.operands[main.outputs[j]];
    const std::string name = d.name.empty() ? "out" + std::to_string(j) : d.name;
    const HostTensor& t = r.outputs[j];
    if (!o.out_dir.empty()) {
      fs::create_directories(o.out_dir);
      write_npy(fs::path(o.out_dir) / (name + ".npy"), to_npy(t));
    }
    std::printf("output %zu (%s): %s %s%s = %s\n", j, name.c_str(), std::string(dtype_name(t.dtype)).c_str(),
                shape_text(t.shape).c_str(),
                t.scale != 0 ? (" q(" + std::to_string(t.scale) + "," + std::to_string(t.zero_point) + ")").c_str() : "",
                values_text(t).c_str());
  }
  if (!comparing) return kExitOk;

  const std::unique_ptr<Backend> reference_backend = open_backend(o.compare_to);
  const graph::PreparedModel reference =
      graph::prepare(model, {reference_backend.get(), o.compare_to == "cpu" ? reference_backend.get() : cpu},
                     {builtins.get()});
  const ExecutionResult rr = reference.execute(inputs, execution_options(o, &reference_dumps));
  const int reference_rc = report_result(rr, o.compare_to);
  if (reference_rc != kExitOk) return reference_rc;
  if (!o.out_dir.empty()) {
    write_dumps(dumps, fs::path(o.out_dir) / "dumps" / o.backend);
    write_dumps(reference_dumps, fs::path(o.out_dir) / "dumps" / o.compare_to);
  }
  return compare_runs(dumps, reference_dumps, o.backend, o.compare_to);
}

}  // namespace

void add_model_command(CLI::App& root, int* exit_code) {
  CLI::App* model = root.add_subcommand("model", "Run whole models (graphs with IF/WHILE control flow)");
  model->require_subcommand(1);
  auto o = std::make_shared<ModelRunOptions>();
  CLI::App* run = model->add_subcommand("run", "Run a model JSON file on a backend and print or write its outputs");
  run->add_option("model", o->model, "Model file (runtime/graph/README.md)")->required();
  run->add_option("--backend", o->backend, "Backend to run on (cpu, opencl, vulkan, dsp)");
  run->add_option("--inputs", o->inputs_dir, "Directory with in0.npy, in1.npy, ... (one per main input)");
  run->add_option("--loop-timeout", o->loop_timeout_ms, "WHILE loop timeout in ms (default 2000, clamped to 15000)")
      ->check(positive_at_most(1e9, "milliseconds"));
  run->add_option("--out", o->out_dir, "Write outputs as OUT/<name or outN>.npy (and dumps with --compare-to)");
  run->add_option("--package", o->packages, "Op package registration library (repeatable); the bundled opsuite is added");
  run->add_option("--compare-to", o->compare_to,
                  "Also run on this backend (e.g. cpu), compare every operation output, name the first that diverges");
  run->callback([o, exit_code] {
    try {
      *exit_code = run_model(*o);
    } catch (const graph::ModelError& e) {
      std::fprintf(stderr, "oprig: %s\n", e.what());
      *exit_code = kExitBadInput;
    } catch (const graph::PrepareError& e) {
      std::fprintf(stderr, "oprig: %s\n", e.what());
      *exit_code = kExitBadInput;
    } catch (const PackageError& e) {
      std::fprintf(stderr, "oprig: %s\n", e.what());
      *exit_code = kExitBadInput;
    } catch (const BadInput& e) {
      std::fprintf(stderr, "oprig: %s\n", e.what());
      *exit_code = kExitBadInput;
    }
  });
}

}  // namespace oprig::cli
