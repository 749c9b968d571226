#include "runner/case_executor.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "cases/tensor_data.hpp"
#include "compare/comparator.hpp"
#include "core/dtype.hpp"

namespace oprig::harness {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

reports::CaseResult case_record(const Case& c, const OpContext* op) {
  reports::CaseResult r;
  r.id = c.id;
  r.golden_id = c.golden_id;
  r.package = c.package;
  r.op = c.op;
  r.backend = c.backend;
  r.dtype = std::string(dtype_name(c.dtype));
  r.shape = c.shape;
  r.fill = c.fill;
  r.params = nlohmann::json::object();
  for (const auto& [name, value] : c.params) r.params[name] = value;
  r.seed = c.seed;
  if (op != nullptr) r.repro = repro_command(c, *op);
  return r;
}

oprig_tensor describe_tensor(const TensorData& t) {
  oprig_tensor d{};
  d.dtype = t.dtype;
  d.rank = static_cast<uint32_t>(t.shape.size());
  std::copy(t.shape.begin(), t.shape.end(), d.dims);
  d.scale = static_cast<float>(t.quant.scale);
  d.zero_point = t.quant.zero_point;
  return d;
}

namespace {

reports::CaseResult finish(reports::CaseResult r, Verdict v, std::string message,
                           Clock::time_point start) {
  r.verdict = v;
  r.message = std::move(message);
  r.wall_ms = ms_since(start);
  return r;
}

// Two poison patterns per element width; for floats both are NaNs with
// distinctive payloads, so an unwritten element is also visible in a dump.
std::vector<std::byte> poison(size_t bytes, size_t element_size, int which) {
  uint64_t pattern;
  switch (element_size) {
    case 2: pattern = which ? 0x7E5Au : 0xFDA5u; break;
    case 4: pattern = which ? 0x7FBF3C5Au : 0xFFC5A5A5u; break;
    case 8: pattern = which ? 0x7FF7BF3C5A3C5A5Aull : 0xFFF5A5A5A5A5A5A5ull; break;
    default: pattern = which ? 0x5Au : 0xA5u; break;
  }
  std::vector<std::byte> out(bytes);
  for (size_t i = 0; i < bytes; ++i)
    out[i] = static_cast<std::byte>((pattern >> (8 * (i % element_size))) & 0xFF);
  return out;
}

std::string status_message(const char* what, oprig_status s) {
  return std::string(what) + " returned " + status_name(s);
}

}  // namespace

std::string repro_command(const Case& c, const OpContext& op) {
  return op.repro_prefix + " --backend " + c.backend + " --case " + c.id;
}

Expected reference_output(const Case& c, const OpContext& op, const std::vector<TensorData>& inputs) {
  std::vector<opsuite::RefTensor> ref_in;
  for (const TensorData& t : inputs) ref_in.push_back({t.shape, real_values(t)});
  opsuite::RefParams params(c.params.begin(), c.params.end());
  std::vector<opsuite::RefTensor> ref_out;
  op.reference->compute(ref_in, params, ref_out);
  Expected e{ref_out.at(0).shape, std::move(ref_out.at(0).values)};
  if (c.quantized) {
    const Quantization q = c.output_quant.empty() ? Quantization{} : c.output_quant[0];
    e.values = quantize_reference(e.values, c.dtype, q);
  }
  return e;
}

reports::CaseResult execute_case(const Case& c, const OpContext& op, const BackendContext& be) {
  const Clock::time_point start = Clock::now();
  reports::CaseResult r = case_record(c, &op);
  if (be.backend == nullptr) return finish(r, Verdict::kSkipped, be.unavailable_reason, start);
  const DeviceInfo& info = be.backend->info();
  if (std::find(info.dtypes.begin(), info.dtypes.end(), c.dtype) == info.dtypes.end())
    return finish(r, Verdict::kSkipped,
                  std::string(dtype_name(c.dtype)) + " is not available on " + info.device_name, start);
  if (be.implementation == nullptr) return finish(r, Verdict::kUnimplemented, be.no_implementation_reason, start);
  const auto tol = op.tolerances.find(c.dtype);
  if (tol == op.tolerances.end())
    return finish(r, Verdict::kInvalidSpec,
                  "the test plan has no tolerance for " + std::string(dtype_name(c.dtype)), start);

  std::vector<TensorData> inputs;
  Expected expected;
  try {
    inputs = make_inputs(c, *op.plan, op.num_inputs);
    expected = reference_output(c, op, inputs);
  } catch (const std::exception& e) {
    return finish(r, Verdict::kInvalidSpec, e.what(), start);
  }

  const oprig_implementation_v1& impl = *be.implementation;
  Backend& backend = *be.backend;
  std::vector<oprig_param> params;
  std::vector<float> param_values;
  param_values.reserve(c.params.size());
  for (const auto& [name, value] : c.params) {
    param_values.push_back(static_cast<float>(value));
    params.push_back({name.c_str(), OPRIG_DTYPE_FLOAT_32, 1, &param_values.back()});
  }

  reports::PerfStats perf;
  perf.device_timer = info.device_timer;
  oprig_kernel* kernel = nullptr;
  auto t0 = Clock::now();
  oprig_status s = impl.create(&backend.context(), c.op.c_str(), params.data(), params.size(), &kernel);
  perf.create_ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
  if (s == OPRIG_STATUS_UNSUPPORTED)
    return finish(r, Verdict::kUnimplemented, "the package's create() has no kernel for this case", start);
  if (s != OPRIG_STATUS_OK || kernel == nullptr)
    return finish(r, Verdict::kFailed, status_message("create()", s), start);
  struct KernelGuard {
    const oprig_implementation_v1& impl;
    oprig_kernel* k;
    ~KernelGuard() { impl.destroy(k); }
  } guard{impl, kernel};

  std::vector<oprig_tensor> in_desc, out_desc;
  for (const TensorData& t : inputs) in_desc.push_back(describe_tensor(t));
  for (size_t k = 0; k < op.num_outputs; ++k) {
    oprig_tensor d{};
    d.dtype = c.dtype;
    if (c.quantized && k < c.output_quant.size()) {
      d.scale = static_cast<float>(c.output_quant[k].scale);
      d.zero_point = c.output_quant[k].zero_point;
    }
    out_desc.push_back(d);
  }
  t0 = Clock::now();
  s = impl.prepare(kernel, in_desc.data(), in_desc.size(), out_desc.data(), out_desc.size());
  perf.prepare_ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
  if (s == OPRIG_STATUS_UNSUPPORTED)
    return finish(r, Verdict::kUnimplemented, "prepare() does not support this data type or shape", start);
  if (s != OPRIG_STATUS_OK) return finish(r, Verdict::kFailed, status_message("prepare()", s), start);
  const std::vector<int64_t> out_shape(out_desc[0].dims, out_desc[0].dims + out_desc[0].rank);
  if (out_desc[0].rank > OPRIG_MAX_RANK || out_shape != expected.shape)
    return finish(r, Verdict::kFailed,
                  "prepare() inferred output shape " + shape_text(out_shape) + ", expected " +
                      shape_text(expected.shape), start);

  const size_t esize = dtype_size(c.dtype);
  const size_t out_bytes = expected.values.size() * esize;
  std::vector<std::unique_ptr<DeviceBuffer>> in_buf, out_buf;
  for (size_t k = 0; k < inputs.size(); ++k) {
    in_buf.push_back(backend.allocate(inputs[k].bytes.size()));
    perf.h2d_ns += backend.write(*in_buf.back(), inputs[k].bytes);
    in_buf.back()->bind(in_desc[k]);
  }
  out_buf.push_back(backend.allocate(out_bytes));
  out_buf[0]->bind(out_desc[0]);

  std::vector<std::byte> results[2];
  for (int run = 0; run < 2; ++run) {
    backend.write(*out_buf[0], poison(out_bytes, esize, run));
    ExecTiming timing;
    s = backend.execute(impl, kernel, in_desc, out_desc, timing);
    if (s != OPRIG_STATUS_OK) return finish(r, Verdict::kFailed, status_message("execute()", s), start);
    perf.compute_ns_samples.push_back(timing.compute_ns);
    perf.sim_cycles = timing.sim_cycles;
    results[run].resize(out_bytes);
    perf.d2h_ns = backend.read(*out_buf[0], results[run]);
  }

  std::string safety;
  for (size_t k = 0; k < in_buf.size(); ++k) {
    if (!in_buf[k]->guards_intact()) safety += "input " + std::to_string(k) + " red zone overwritten; ";
    std::vector<std::byte> back(inputs[k].bytes.size());
    backend.read(*in_buf[k], back);
    if (back != inputs[k].bytes) safety += "input " + std::to_string(k) + " modified by the kernel; ";
  }
  if (!out_buf[0]->guards_intact()) safety += "output red zone overwritten (out-of-bounds write); ";
  if (results[0] != results[1]) {
    size_t first = 0;
    while (first < out_bytes && results[0][first] == results[1][first]) ++first;
    safety += "output element " + std::to_string(first / esize) +
              (info.deterministic ? " differs between two runs with different poison (unwritten, or not deterministic); "
                                  : " left unwritten (differs between poison patterns); ");
  }

  compare::OutputTensor got;
  got.dtype = c.dtype;
  got.bytes = results[0];
  got.shape = expected.shape;
  if (c.quantized && !c.output_quant.empty()) {
    got.scale = static_cast<float>(c.output_quant[0].scale);
    got.zero_point = c.output_quant[0].zero_point;
  }
  const compare::Comparison cmp = compare::compare_output(got, expected.values, tol->second);
  reports::CompareStats stats;
  stats.count = cmp.stats.count;
  stats.mismatches = cmp.stats.mismatches;
  stats.max_abs = cmp.stats.max_abs;
  stats.max_rel = cmp.stats.max_rel;
  stats.max_ulp = cmp.stats.max_ulp;
  stats.zero_fraction = cmp.stats.zero_fraction;
  stats.tolerance = cmp.stats.tolerance;
  for (const auto& m : cmp.stats.first_mismatches)
    stats.first_mismatches.push_back({m.index, m.coords, m.got, m.expected, m.ulp});
  r.stats = stats;

  std::vector<double> sorted = perf.compute_ns_samples;
  std::sort(sorted.begin(), sorted.end());
  perf.compute_ns_min = sorted.front();
  perf.compute_ns_median = sorted[sorted.size() / 2];
  perf.elements = expected.values.size();
  perf.bytes = out_bytes * (1 + inputs.size());
  if (perf.compute_ns_median > 0) {
    perf.gelem_per_s = perf.elements / perf.compute_ns_median;
    perf.gbytes_per_s = perf.bytes / perf.compute_ns_median;
  }
  r.perf = perf;

  if (!safety.empty()) {
    safety.resize(safety.size() - 2);
    return finish(r, Verdict::kFailed, safety, start);
  }
  return finish(r, cmp.verdict, cmp.message, start);
}

}  // namespace oprig::harness
