#include "bench/bench_kernel.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "package/loader.hpp"
#include "runner/case_executor.hpp"

namespace oprig::harness {
namespace {

using Clock = std::chrono::steady_clock;

double ns_since(Clock::time_point t0) { return std::chrono::duration<double, std::nano>(Clock::now() - t0).count(); }

bool same_shapes(const std::vector<Expected>& a, const std::vector<Expected>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k].shape != b[k].shape) return false;
  return true;
}

}  // namespace

BenchKernel::~BenchKernel() {
  if (kernel) impl->destroy(kernel);
}

void BenchKernel::release() {
  if (kernel) impl->destroy(kernel);
  kernel = nullptr;
  input_sets.clear();
  out_buffers.clear();
}

void BenchKernel::relocate() {
  // Allocated before the old are freed, so the new buffers cannot reuse their memory.
  std::vector<std::unique_ptr<DeviceBuffer>> old;
  for (InputSet& set : input_sets) {
    for (auto& b : set.buffers)
      if (b) old.push_back(std::move(b));
    upload_input_set(*this, set);
  }
  for (size_t i = 0; i < out_buffers.size(); ++i) {
    old.push_back(std::move(out_buffers[i]));
    out_buffers[i] = backend->allocate(out_bytes[i]);
    out_buffers[i]->bind(out[i]);
  }
}

ExecuteSample BenchKernel::execute(size_t input_set) {
  ExecuteSample s;
  if (resolve_each_execute) {
    s.status = resolve_shapes_on_host(*impl, kernel, input_sets[input_set].tensors, input_sets[input_set].data, out);
    if (s.status != OPRIG_STATUS_OK) return s;
  }
  ExecTiming timing;
  const Clock::time_point t0 = Clock::now();
  s.status = backend->execute(*impl, kernel, input_sets[input_set].tensors, out, timing);
  s.wall_ns = ns_since(t0);
  s.clock_ns = timing.compute_ns;
  s.sim_cycles = timing.sim_cycles;
  return s;
}

uint64_t varied_seed(uint64_t case_seed, unsigned n) { return case_seed ^ (0x9E3779B97F4A7C15ull * n); }

bool make_input_set(const BenchKernel& k, uint64_t seed, bool with_expected, InputSet& set, std::string* why) {
  Case varied = k.c;
  varied.seed = seed;
  try {
    set.seed = seed;
    set.data = make_inputs(varied, k.op->plan);
    if (with_expected) set.expected = expected_outputs(varied, k.op->context, nullptr, set.data);
  } catch (const std::exception& e) {
    *why = e.what();
    return false;
  }
  if (with_expected && !k.input_sets.empty() && !same_shapes(set.expected, k.input_sets.front().expected)) {
    *why = "the outputs' shapes depend on the input values";
    return false;
  }
  return true;
}

double upload_input_set(BenchKernel& k, InputSet& set) {
  double ns = 0;
  set.buffers.resize(set.data.size());
  set.tensors.resize(set.data.size());
  for (size_t i = 0; i < set.data.size(); ++i) {
    set.tensors[i] = describe_tensor(set.data[i]);
    if (!set.data[i].present) continue;
    if (!set.buffers[i]) set.buffers[i] = k.backend->allocate(set.data[i].bytes.size());
    ns += k.backend->write(*set.buffers[i], set.data[i].bytes);
    set.buffers[i]->bind(set.tensors[i]);
  }
  return ns;
}

bool setup_bench_kernel(BenchKernel& k, const Case& c, const LoadedOp& op, Backend& backend,
                        const oprig_implementation_v1& impl, std::string* why, const InputSet* same_inputs) {
  k.backend = &backend;
  k.impl = &impl;
  k.c = c;
  k.op = &op;
  k.input_sets.emplace_back();
  if (same_inputs != nullptr) {
    InputSet& first = k.input_sets.front();
    first.seed = same_inputs->seed;
    first.data = same_inputs->data;
    first.expected = same_inputs->expected;
  } else if (!make_input_set(k, c.seed, true, k.input_sets.front(), why)) {
    return false;
  }
  k.params = std::make_unique<AbiParams>(c.params, op.space);
  Clock::time_point t0 = Clock::now();
  if (impl.create(&backend.context(), c.op.c_str(), k.params->data(), k.params->size(), &k.kernel) != OPRIG_STATUS_OK) {
    *why = "create() failed";
    k.kernel_refused = true;
    return false;
  }
  k.create_ns = ns_since(t0);
  std::vector<oprig_tensor> in_desc;
  for (const TensorData& t : k.input_sets.front().data) in_desc.push_back(describe_tensor(t));
  for (const CaseTensor& t : c.outputs) {
    oprig_tensor o{};
    o.dtype = t.type.dtype;
    o.scale = static_cast<float>(t.quant.scale);
    o.zero_point = t.quant.zero_point;
    k.out.push_back(o);
  }
  t0 = Clock::now();
  if (impl.prepare(k.kernel, in_desc.data(), in_desc.size(), k.out.data(), k.out.size()) != OPRIG_STATUS_OK) {
    *why = "prepare() failed";
    k.kernel_refused = true;
    return false;
  }
  k.prepare_ns = ns_since(t0);
  if (impl.cost != nullptr) {
    oprig_cost cost{};
    if (impl.cost(k.kernel, &cost) == OPRIG_STATUS_OK) {
      k.cost_flops = cost.flops;
      k.cost_bytes = cost.bytes_read + cost.bytes_written;
    }
  }
  InputSet& first = k.input_sets.front();
  k.h2d_ns = upload_input_set(k, first);
  for (const TensorData& t : first.data) k.bytes += t.bytes.size();
  const std::vector<Expected>& expected = first.expected;
  for (size_t i = 0; i < expected.size(); ++i) {
    const size_t out_bytes = expected[i].values.size() * dtype_size(c.outputs[i].type.dtype);
    k.out_bytes.push_back(out_bytes);
    k.out_buffers.push_back(backend.allocate(out_bytes));
    k.out_buffers.back()->bind(k.out[i]);
    k.bytes += out_bytes;
    k.elements += expected[i].values.size();
  }
  // A second content for the timed loop to alternate with. Its expected
  // outputs are not needed (nothing compares them), only that its outputs
  // have the same shape, which prepare() has fixed unless it left a -1.
  const bool value_dependent_shapes = std::any_of(k.out.begin(), k.out.end(), has_unknown_dim);
  InputSet second;
  if (value_dependent_shapes) {
    if (impl.resolve_shapes == nullptr) {
      *why = "prepare() left an output dimension unknown (-1) but the package has no resolve_shapes()";
      k.kernel_refused = true;
      return false;
    }
    k.resolve_each_execute = true;
    k.why_one_input_set = "the outputs' shapes depend on the input values";
  } else if (make_input_set(k, varied_seed(c.seed, 1), false, second, &k.why_one_input_set)) {
    upload_input_set(k, second);
    k.input_sets.push_back(std::move(second));
  }
  const ExecuteSample s = k.execute(0);
  if (s.status != OPRIG_STATUS_OK) {
    *why = std::string(k.resolve_each_execute ? "resolve_shapes() or execute()" : "execute()") + " returned " + status_name(s.status);
    k.kernel_refused = true;
    return false;
  }
  k.setup_execute_wall_ns = s.wall_ns;
  std::vector<std::byte> host(k.out_bytes.empty() ? 0 : k.out_bytes.front());
  if (!k.out_buffers.empty()) k.d2h_ns = backend.read(*k.out_buffers.front(), host);
  for (size_t i = 1; i < k.out_buffers.size(); ++i) {
    std::vector<std::byte> more(k.out_bytes[i]);
    k.d2h_ns += backend.read(*k.out_buffers[i], more);
  }
  return true;
}

}  // namespace oprig::harness
