#include "runner/case_executor.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include "cases/tensor_data.hpp"
#include "compare/comparator.hpp"
#include "core/dtype.hpp"
#include "runner/abi_params.hpp"
#include "runner/case_tolerance.hpp"
#include "runner/integer_judge.hpp"
#include "runner/kept_outputs.hpp"
#include "runner/lifecycle_checks.hpp"
#include "runner/output_poison.hpp"
#include "runner/unordered_outputs.hpp"

namespace oprig::harness {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

reports::TensorRecord tensor_record(const CaseTensor& t) {
  reports::TensorRecord r;
  r.name = t.name;
  r.dtype = std::string(dtype_name(t.type.dtype));
  r.shape = t.shape;
  r.scale = t.quant.scale;
  r.zero_point = t.quant.zero_point;
  r.present = t.present;
  r.is_static = t.is_static;
  return r;
}

reports::CaseResult finish(reports::CaseResult r, Verdict v, std::string message, Clock::time_point start) {
  r.verdict = v;
  r.message = std::move(message);
  r.wall_ms = ms_since(start);
  return r;
}

std::string status_message(const char* what, oprig_status s) {
  return std::string(what) + " returned " + status_name(s);
}

reports::CompareStats to_report(const compare::CompareStats& s) {
  reports::CompareStats out;
  out.count = s.count;
  out.mismatches = s.mismatches;
  out.max_abs = s.max_abs;
  out.max_rel = s.max_rel;
  out.max_ulp = s.max_ulp;
  out.zero_fraction = s.zero_fraction;
  out.tolerance = s.tolerance;
  for (const auto& m : s.first_mismatches) out.first_mismatches.push_back({m.index, m.coords, m.got, m.expected, m.ulp});
  return out;
}

int severity(Verdict v) {
  switch (v) {
    case Verdict::kFailed: return 3;
    case Verdict::kQualityWarning: return 2;
    case Verdict::kMistrusted: return 1;
    default: return 0;
  }
}

// Whether the spec declares every present tensor's type of the case for its backend.
bool types_declared(const Case& c, const OpCaseSpace& space) {
  auto declared = [&](const std::vector<TensorSlot>& slots, const std::vector<CaseTensor>& tensors) {
    for (size_t k = 0; k < tensors.size(); ++k) {
      if (!tensors[k].present || slots.empty()) continue;
      const TensorSlot& slot = slots[std::min(k, slots.size() - 1)];  // a Repeated last def covers the rest
      const auto it = slot.types_by_backend.find(c.backend);
      if (it == slot.types_by_backend.end()) return false;
      if (std::find(it->second.begin(), it->second.end(), tensors[k].type) == it->second.end()) return false;
    }
    return true;
  };
  return declared(space.inputs, c.inputs) && declared(space.outputs, c.outputs);
}

std::string types_text(const Case& c) {
  std::string text;
  for (const std::vector<CaseTensor>* list : {&c.inputs, &c.outputs})
    for (const CaseTensor& t : *list) {
      if (!t.present) continue;
      const std::string name = std::string(dtype_name(t.type.dtype)) + (t.type.quantized ? " (quantised)" : "");
      if (text.find(name) == std::string::npos) text += (text.empty() ? "" : ", ") + name;
    }
  return text;
}

std::vector<int64_t> dims_of(const oprig_tensor& t) { return {t.dims, t.dims + std::min<uint32_t>(t.rank, OPRIG_MAX_RANK)}; }


}  // namespace

bool has_unknown_dim(const oprig_tensor& t) {
  for (uint32_t d = 0; d < std::min<uint32_t>(t.rank, OPRIG_MAX_RANK); ++d)
    if (t.dims[d] < 0) return true;
  return false;
}

oprig_status resolve_shapes_on_host(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                                    std::vector<oprig_tensor> in_desc, const std::vector<TensorData>& inputs,
                                    std::vector<oprig_tensor>& out_desc) {
  for (size_t k = 0; k < inputs.size() && k < in_desc.size(); ++k)
    // The ABI's tensor has a mutable data pointer; resolve_shapes() only reads inputs.
    in_desc[k].data = inputs[k].present && !inputs[k].bytes.empty()
                          ? const_cast<std::byte*>(inputs[k].bytes.data())
                          : nullptr;
  return impl.resolve_shapes(kernel, in_desc.data(), in_desc.size(), out_desc.data(), out_desc.size());
}

const compare::Tolerance* find_tolerance(const OpContext& op, const std::string& fill, const std::string& output_name,
                                         oprig_dtype dtype) {
  if (const auto it = op.fill_tolerances.find(fill); it != op.fill_tolerances.end())
    if (const compare::Tolerance* t = it->second.find(output_name, dtype)) return t;
  return op.tolerances.find(output_name, dtype);
}

reports::CaseResult case_record(const Case& c, const OpContext* op) {
  reports::CaseResult r;
  r.id = c.id;
  r.golden_id = c.golden_id;
  r.package = c.package;
  r.op = c.op;
  r.backend = c.backend;
  r.dtype = std::string(dtype_name(c.dtype));
  r.shape = c.shape();
  r.fill = c.fill;
  r.variant = c.variant;
  r.params = c.params.is_object() ? c.params : nlohmann::json::object();
  r.seed = c.seed;
  if (op != nullptr) r.oracle = oracle_name(c, *op) + integer_oracle_suffix(c, *op);
  for (const CaseTensor& t : c.inputs) r.inputs.push_back(tensor_record(t));
  for (const CaseTensor& t : c.outputs) r.outputs.push_back(tensor_record(t));
  if (op != nullptr) r.repro = repro_command(c, *op);
  return r;
}

oprig_tensor describe_tensor(const TensorData& t) {
  oprig_tensor d{};
  if (!t.present) return d;  // dtype INVALID, rank 0: an optional input left out
  d.dtype = t.dtype;
  d.rank = static_cast<uint32_t>(t.shape.size());
  std::copy(t.shape.begin(), t.shape.end(), d.dims);
  d.scale = static_cast<float>(t.quant.scale);
  d.zero_point = t.quant.zero_point;
  return d;
}

std::string repro_command(const Case& c, const OpContext& op) {
  return op.repro_prefix + " --backend " + c.backend + " --case " + c.id;
}

namespace {

// The case end to end; `artifacts` (non-null under --keep-outputs) receives
// the inputs, expected and computed outputs as far as the case got.
reports::CaseResult run_case(const Case& c, const OpContext& op, const BackendContext& be,
                             const std::vector<const Case*>* lifecycle_companions, CaseArtifacts* artifacts) {
  const Clock::time_point start = Clock::now();
  reports::CaseResult r = case_record(c, &op);
  // A golden case that cannot run here says why, whatever the machine has.
  if (!c.not_runnable.empty()) return finish(r, Verdict::kSkipped, c.not_runnable, start);
  if (be.backend == nullptr) return finish(r, Verdict::kSkipped, be.unavailable_reason, start);
  const DeviceInfo& info = be.backend->info();
  auto available = [&](oprig_dtype d) { return std::find(info.dtypes.begin(), info.dtypes.end(), d) != info.dtypes.end(); };
  for (const std::vector<CaseTensor>* list : {&c.inputs, &c.outputs})
    for (const CaseTensor& t : *list)
      if (t.present && !available(t.type.dtype))
        return finish(r, Verdict::kSkipped,
                      std::string(dtype_name(t.type.dtype)) + " is not available on " + info.device_name, start);
  if (be.implementation == nullptr)
    // A package that claims a kernel it cannot load is broken, not merely incomplete.
    return finish(r, be.implementation_claimed ? Verdict::kInvalidSpec : Verdict::kUnimplemented,
                  be.implementation_claimed ? "the package claims a " + c.backend + " kernel for " + c.op +
                                                  " but cannot provide it: " + be.no_implementation_reason
                                            : be.no_implementation_reason,
                  start);
  std::vector<JudgingTolerance> tolerances;
  for (const CaseTensor& t : c.outputs) {
    std::optional<JudgingTolerance> found;
    try {
      found = judging_tolerance(c, op, t);
    } catch (const std::exception& e) {
      return finish(r, Verdict::kInvalidSpec, std::string("golden manifest tolerance: ") + e.what(), start);
    }
    if (!found)
      return finish(r, Verdict::kInvalidSpec,
                    "the test plan has no tolerance for output " + t.name + " (" +
                        std::string(dtype_name(t.type.dtype)) + ")", start);
    tolerances.push_back(std::move(*found));
  }

  std::vector<TensorData> inputs;
  std::vector<Expected> expected;
  std::unique_ptr<AbiParams> params;
  try {
    inputs = make_inputs(c, *op.plan);
    if (artifacts != nullptr) artifacts->inputs = inputs;
    params = std::make_unique<AbiParams>(c.params, *op.space);
  } catch (const std::exception& e) {
    return finish(r, Verdict::kInvalidSpec, e.what(), start);
  }
  auto phase = [&](const char* what) {
    if (be.phase) be.phase(what);
  };
  for (size_t k = 0; k < inputs.size(); ++k) r.inputs[k].shape = inputs[k].shape;
  // The oracle runs after the kernel's create() and prepare(): a package with
  // no kernel for the case is UNIMPLEMENTED whatever its oracle, and on a plan
  // derived from the spec the oracle decides whether a rejected node was valid.
  auto consult_oracle = [&]() -> std::optional<reports::CaseResult> {
    try {
      expected = expected_outputs(c, op, &be, inputs);
    } catch (const OracleError& e) {
      return finish(r, e.verdict(), std::string("oracle ") + r.oracle + ": " + e.what(), start);
    } catch (const std::exception& e) {
      return finish(r, Verdict::kInvalidSpec, std::string("oracle ") + r.oracle + ": " + e.what(), start);
    }
    if (expected.size() != c.outputs.size())
      return finish(r, Verdict::kInvalidSpec, "the oracle has " + std::to_string(expected.size()) + " outputs, the case " +
                                                  std::to_string(c.outputs.size()), start);
    for (size_t k = 0; k < expected.size(); ++k) r.outputs[k].shape = expected[k].shape;
    if (artifacts != nullptr) artifacts->expected = expected;
    return std::nullopt;
  };
  // A kernel rejecting a node of a derived plan: failed only if the oracle accepts the node.
  auto rejected = [&](const char* what, oprig_status st) {
    if (op.plan->derived && st == OPRIG_STATUS_INVALID_ARGUMENT)
      if (auto oracle_verdict = consult_oracle(); oracle_verdict && oracle_verdict->verdict == Verdict::kSkipped)
        return *oracle_verdict;
    // Many kernels decline zero-size tensors, and no spec we read requires them:
    // on a derived plan a clean refusal of an empty node is a limit, not a bug
    // (a kernel that takes the node must still get it right).
    const bool empty_node = std::any_of(inputs.begin(), inputs.end(), [](const TensorData& t) {
      return std::find(t.shape.begin(), t.shape.end(), int64_t{0}) != t.shape.end();
    });
    if (op.plan->derived && empty_node && (st == OPRIG_STATUS_INVALID_ARGUMENT || st == OPRIG_STATUS_UNSUPPORTED))
      return finish(r, Verdict::kSkipped, status_message(what, st) + " on an empty tensor: the kernel declines zero-size "
                                          "nodes (derived plans test them where a kernel takes them)", start);
    return finish(r, Verdict::kFailed, status_message(what, st), start);
  };

  if (be.package != nullptr && be.package->registration().validate != nullptr) {
    // The package's validation hook, as a runtime runs it when the graph is built.
    std::vector<oprig_tensor> in_desc, out_desc;
    for (const TensorData& t : inputs) in_desc.push_back(describe_tensor(t));
    for (const CaseTensor& t : c.outputs) {
      oprig_tensor d{};
      d.dtype = t.type.dtype;
      d.scale = static_cast<float>(t.quant.scale);
      d.zero_point = t.quant.zero_point;
      out_desc.push_back(d);
    }
    char reason[512] = {0};
    phase("the package's validate()");
    const oprig_status v = be.package->registration().validate(c.op.c_str(), params->data(), params->size(), in_desc.data(),
                                                                in_desc.size(), out_desc.data(), out_desc.size(), reason,
                                                                sizeof reason);
    reason[sizeof reason - 1] = '\0';
    if (v != OPRIG_STATUS_OK)
      return finish(r, Verdict::kUnimplemented,
                    "the package's validate() rejects this node (" + status_name(v) + ")" +
                        (reason[0] ? std::string(": ") + reason : std::string()), start);
  }

  const oprig_implementation_v1& impl = *be.implementation;
  Backend& backend = *be.backend;
  reports::PerfStats perf;
  perf.device_timer = info.device_timer;
  oprig_kernel* kernel = nullptr;
  phase("the kernel's create()");
  auto t0 = Clock::now();
  oprig_status s = impl.create(&backend.context(), c.op.c_str(), params->data(), params->size(), &kernel);
  perf.create_ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
  if (s == OPRIG_STATUS_UNSUPPORTED)
    return finish(r, Verdict::kUnimplemented, "the package's create() has no kernel for this case", start);
  if (s != OPRIG_STATUS_OK || kernel == nullptr) return rejected("create()", s);
  struct KernelGuard {
    const oprig_implementation_v1& impl;
    oprig_kernel* k;
    ~KernelGuard() { impl.destroy(k); }
  } guard{impl, kernel};

  std::vector<oprig_tensor> in_desc, out_desc;
  for (const TensorData& t : inputs) in_desc.push_back(describe_tensor(t));
  for (const CaseTensor& t : c.outputs) {
    oprig_tensor d{};
    d.dtype = t.type.dtype;
    d.scale = static_cast<float>(t.quant.scale);
    d.zero_point = t.quant.zero_point;
    out_desc.push_back(d);
  }
  phase("the kernel's prepare()");
  t0 = Clock::now();
  s = impl.prepare(kernel, in_desc.data(), in_desc.size(), out_desc.data(), out_desc.size());
  perf.prepare_ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
  if (s == OPRIG_STATUS_UNSUPPORTED) {
    // A kernel the package claims here, refusing what the spec declares here:
    // under --strict (and in validate) a defect of the package, not a gap.
    if (be.strict && be.implementation_claimed && types_declared(c, *op.space))
      return finish(r, Verdict::kFailed,
                    "prepare() refused " + types_text(c) + " (UNSUPPORTED), which the spec declares for " + c.backend +
                        ", on the " + c.backend + " kernel the package claims for " + c.op +
                        " (a failure with --strict and in validate, UNIMPLEMENTED otherwise)",
                    start);
    return finish(r, Verdict::kUnimplemented, "prepare() does not support these data types or shapes", start);
  }
  if (s != OPRIG_STATUS_OK) return rejected("prepare()", s);
  if (auto oracle_verdict = consult_oracle()) return *oracle_verdict;

  // Data-dependent output shapes: prepare() leaves -1, resolve_shapes() sees the input values.
  if (std::any_of(out_desc.begin(), out_desc.end(), has_unknown_dim)) {
    if (impl.resolve_shapes == nullptr)
      return finish(r, Verdict::kFailed,
                    "prepare() left an output dimension unknown (-1) but the package has no resolve_shapes()", start);
    phase("the kernel's resolve_shapes()");
    s = resolve_shapes_on_host(impl, kernel, in_desc, inputs, out_desc);
    if (s != OPRIG_STATUS_OK) return finish(r, Verdict::kFailed, status_message("resolve_shapes()", s), start);
  }
  for (size_t k = 0; k < out_desc.size(); ++k) {
    const std::vector<int64_t> got = dims_of(out_desc[k]);
    if (out_desc[k].rank > OPRIG_MAX_RANK || got != expected[k].shape)
      return finish(r, Verdict::kFailed,
                    "output " + c.outputs[k].name + ": prepare() inferred shape " + shape_text(got) + ", expected " +
                        shape_text(expected[k].shape), start);
  }

  std::vector<std::unique_ptr<DeviceBuffer>> in_buf(inputs.size()), out_buf(c.outputs.size());
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!inputs[k].present) continue;
    in_buf[k] = backend.allocate(inputs[k].bytes.size());
    perf.h2d_ns += backend.write(*in_buf[k], inputs[k].bytes);
    in_buf[k]->bind(in_desc[k]);
  }
  std::vector<size_t> out_bytes(c.outputs.size());
  for (size_t k = 0; k < c.outputs.size(); ++k) {
    out_bytes[k] = expected[k].values.size() * dtype_size(c.outputs[k].type.dtype);
    out_buf[k] = backend.allocate(out_bytes[k]);
    out_buf[k]->bind(out_desc[k]);
  }

  std::vector<std::vector<std::byte>> results[2];
  for (int run = 0; run < 2; ++run) {
    for (size_t k = 0; k < c.outputs.size(); ++k)
      backend.write(*out_buf[k], poison(out_bytes[k], dtype_size(c.outputs[k].type.dtype), run));
    ExecTiming timing;
    phase("the kernel's execute()");
    s = backend.execute(impl, kernel, in_desc, out_desc, timing);
    if (s != OPRIG_STATUS_OK)
      return finish(r, Verdict::kFailed,
                    status_message("execute()", s) + (timing.failure.empty() ? "" : ": " + timing.failure), start);
    perf.compute_ns_samples.push_back(timing.compute_ns);
    perf.sim_cycles = timing.sim_cycles;
    results[run].resize(c.outputs.size());
    perf.d2h_ns = 0;
    for (size_t k = 0; k < c.outputs.size(); ++k) {
      results[run][k].resize(out_bytes[k]);
      perf.d2h_ns += backend.read(*out_buf[k], results[run][k]);
    }
  }

  if (artifacts != nullptr) artifacts->got = results[0];

  std::string safety;
  for (size_t k = 0; k < in_buf.size(); ++k) {
    if (!in_buf[k]) continue;
    const std::string name = "input " + c.inputs[k].name;
    for (const GuardDamage& d : in_buf[k]->guard_damage())
      safety += name + ": " + guard_damage_text(d, inputs[k].bytes.size()) + " (out-of-bounds write); ";
    std::vector<std::byte> back(inputs[k].bytes.size());
    backend.read(*in_buf[k], back);
    if (back != inputs[k].bytes) safety += name + " modified by the kernel; ";
  }
  for (size_t k = 0; k < out_buf.size(); ++k) {
    const std::string name = "output " + c.outputs[k].name;
    for (const GuardDamage& d : out_buf[k]->guard_damage())
      safety += name + ": " + guard_damage_text(d, out_bytes[k]) + " (out-of-bounds write); ";
    const OutputDifference d =
        run_to_run_difference(results[0][k], results[1][k], dtype_size(c.outputs[k].type.dtype));
    if (d.any())
      safety += name + ": " +
                difference_text(d, std::string("nondeterministic (differ between two runs on the same inputs") +
                                       (info.deterministic ? ")" : "; the backend does not claim determinism)")) +
                "; ";
  }

  phase("oprig's checks");
  Verdict verdict = Verdict::kPassed;
  std::string message;
  bool have_stats = false;
  // Outputs whose order the op leaves open here: both sides in one canonical order first.
  std::vector<std::vector<std::byte>> judged = results[0];
  std::string unordered_note;
  try {
    for (const UnorderedGroup& g : unordered_groups(c, op)) {
      canonicalise(g, c, judged, expected);
      unordered_note += (unordered_note.empty() ? "" : "; ") + g.note;
    }
  } catch (const std::exception& e) {
    return finish(r, Verdict::kInvalidSpec, std::string("order_insensitive: ") + e.what(), start);
  }
  for (size_t k = 0; k < c.outputs.size(); ++k) {
    compare::OutputTensor got;
    got.dtype = c.outputs[k].type.dtype;
    got.bytes = judged[k];
    got.shape = expected[k].shape;
    got.scale = static_cast<float>(c.outputs[k].quant.scale);
    got.zero_point = c.outputs[k].quant.zero_point;
    compare::Comparison cmp;
    compare::CompareOptions options;
    options.signed_zero = op.signed_zero_outputs.count(c.outputs[k].name) > 0;
    options.reduction_length = c.reduction_length;
    try {
      cmp = compare::compare_output(got, expected[k].values, tolerances[k].tolerance, options);
    } catch (const std::exception& e) {
      return finish(r, Verdict::kInvalidSpec, "output " + c.outputs[k].name + ": " + e.what(), start);
    }
    r.outputs[k].stats = to_report(cmp.stats);
    r.outputs[k].stats->tolerance_source = tolerances[k].described();
    if (!have_stats || (severity(cmp.verdict) > severity(verdict))) {
      r.stats = r.outputs[k].stats;
      have_stats = true;
    }
    if (severity(cmp.verdict) > severity(verdict)) verdict = cmp.verdict;
    if (!cmp.message.empty())
      message += (message.empty() ? "" : "; ") + (c.outputs.size() > 1 ? "output " + c.outputs[k].name + ": " : "") +
                 cmp.message;
  }

  if (!unordered_note.empty() && !message.empty()) message += " (" + unordered_note + ")";
  // The integer rule, exact, beside the fp64 tolerance (ops with an integer reference have no unordered outputs).
  if (unordered_note.empty())
    if (const std::optional<IntegerJudgement> exact = judge_integer_reference(c, op, inputs, expected, results[0]);
        exact && severity(exact->verdict) > severity(Verdict::kPassed)) {
      if (severity(exact->verdict) > severity(verdict)) verdict = exact->verdict;
      message += (message.empty() ? "" : "; ") + exact->message;
    }
  std::vector<double> sorted = perf.compute_ns_samples;
  std::sort(sorted.begin(), sorted.end());
  perf.compute_ns_min = sorted.front();
  perf.compute_ns_median = sorted[sorted.size() / 2];
  for (const Expected& e : expected) perf.elements += e.values.size();
  for (const TensorData& t : inputs) perf.bytes += t.bytes.size();
  for (size_t b : out_bytes) perf.bytes += b;
  if (perf.compute_ns_median > 0) {
    perf.gelem_per_s = static_cast<double>(perf.elements) / perf.compute_ns_median;
    perf.gbytes_per_s = static_cast<double>(perf.bytes) / perf.compute_ns_median;
  }
  r.perf = perf;

  if (!safety.empty()) {
    safety.resize(safety.size() - 2);
    return finish(r, Verdict::kFailed, safety, start);
  }
  if (lifecycle_companions != nullptr && verdict != Verdict::kFailed) {
    // What one instance on one shape cannot show: concurrent instances, a
    // second prepare, memory kept across executes (lifecycle_checks.hpp).
    LifecycleSubject subject{c, op, backend, impl, *params, inputs, out_desc, results[0], *lifecycle_companions};
    subject.phase = be.phase;
    if (const std::string problem = run_lifecycle_checks(subject); !problem.empty())
      return finish(r, Verdict::kFailed, problem + (message.empty() ? "" : " (the single run: " + message + ")"), start);
    // A pass that could not run says so: a green anchor is no proof of re-prepare then.
    if (lifecycle_companions->empty())
      message += std::string(message.empty() ? "" : "; ") +
                 "re-prepare pass not run: no case of the same parameters and other shapes passed to prepare for";
  }
  return finish(r, verdict, message, start);
}

}  // namespace

reports::CaseResult execute_case(const Case& c, const OpContext& op, const BackendContext& be,
                                 const std::vector<const Case*>* lifecycle_companions) {
  const bool keeping = be.keep != nullptr && be.keep->mode != KeepMode::kNone;
  CaseArtifacts artifacts;
  reports::CaseResult r = run_case(c, op, be, lifecycle_companions, keeping ? &artifacts : nullptr);
  if (keeping && keeps(be.keep->mode, r.verdict)) {
    // A case refused before its oracle ran (create() or prepare()) is still
    // worth keeping: its inputs with what the kernel should have computed.
    if (artifacts.expected.empty() && !artifacts.inputs.empty()) {
      try {
        artifacts.expected = expected_outputs(c, op, &be, artifacts.inputs);
      } catch (const std::exception&) {
        // keep_case says the case has no expected outputs
      }
    }
    keep_case(*be.keep, c, artifacts, r);
  }
  return r;
}

}  // namespace oprig::harness
