#include "bench/op_bench.hpp"
#include "registry.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>

#include "cases/tensor_data.hpp"
#include "runner/abi_params.hpp"
#include "core/dtype.hpp"

namespace oprig::harness {
namespace {

struct Fixture {
  Backend* backend = nullptr;
  const oprig_implementation_v1* impl = nullptr;
  oprig_kernel* kernel = nullptr;
  std::unique_ptr<AbiParams> params;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  std::vector<oprig_tensor> in, out;
  std::vector<double> samples_ns;
  uint64_t bytes = 0, elements = 0, sim_cycles = 0;
  ~Fixture() {
    if (kernel) impl->destroy(kernel);
  }
};

bool setup(Fixture& f, const Case& c, const LoadedOp& op, Backend& backend, const oprig_implementation_v1& impl,
           std::string* why) {
  f.backend = &backend;
  f.impl = &impl;
  const std::vector<TensorData> inputs = make_inputs(c, op.plan);
  const std::vector<Expected> expected = expected_outputs(c, op.context, nullptr, inputs);
  f.params = std::make_unique<AbiParams>(c.params, op.space);
  if (impl.create(&backend.context(), c.op.c_str(), f.params->data(), f.params->size(), &f.kernel) != OPRIG_STATUS_OK) {
    *why = "create() failed";
    return false;
  }
  for (const TensorData& t : inputs) f.in.push_back(describe_tensor(t));
  for (const CaseTensor& t : c.outputs) {
    oprig_tensor o{};
    o.dtype = t.type.dtype;
    o.scale = static_cast<float>(t.quant.scale);
    o.zero_point = t.quant.zero_point;
    f.out.push_back(o);
  }
  if (impl.prepare(f.kernel, f.in.data(), f.in.size(), f.out.data(), f.out.size()) != OPRIG_STATUS_OK) {
    *why = "prepare() failed";
    return false;
  }
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!inputs[k].present) continue;
    f.buffers.push_back(backend.allocate(inputs[k].bytes.size()));
    backend.write(*f.buffers.back(), inputs[k].bytes);
    f.buffers.back()->bind(f.in[k]);
    f.bytes += inputs[k].bytes.size();
  }
  for (size_t k = 0; k < expected.size(); ++k) {
    const size_t out_bytes = expected[k].values.size() * dtype_size(c.outputs[k].type.dtype);
    f.buffers.push_back(backend.allocate(out_bytes));
    f.buffers.back()->bind(f.out[k]);
    f.bytes += out_bytes;
    f.elements += expected[k].values.size();
  }
  return true;
}

}  // namespace

std::vector<reports::CaseResult> run_benchmarks(const Suite& suite, const Selection& selection,
                                                const BenchOptions& options) {
  std::map<std::string, std::unique_ptr<Backend>> backends;
  std::vector<std::unique_ptr<Fixture>> fixtures;
  std::vector<reports::CaseResult> results;
  std::vector<std::pair<Fixture*, size_t>> fixture_results;

  for (const auto& op : suite.ops) {
    TestPlan bench_plan = op->plan;
    bench_plan.shapes = op->plan.bench_shapes;
    bench_plan.golden_literals.clear();
    for (const std::string& name : selection.backends) {
      if (!backends.count(name)) {
        std::string why;
        backends[name] = create_backend(name, &why);
      }
      Backend* backend = backends[name].get();
      std::string no_impl;
      const oprig_backend_kind kind = backend_kind_from_name(name);
      const PackageOp* pop = op->package->find_op(op->plan.op);
      const oprig_implementation_v1* impl =
          (pop && (pop->backend_mask & OPRIG_BACKEND_BIT(kind))) ? op->package->implementation(kind, &no_impl) : nullptr;
      for (const Case& c : generate_cases(op->space, bench_plan, {name})) {
        // One fill and the default params: the speed of a kernel does not
        // depend on which of the correctness fills it sees.
        const std::string& first_fill = op->plan.fills.empty() ? std::string("uniform") : op->plan.fills.front().name;
        if (!c.variant.ends_with("p0") || (c.fill != first_fill && c.fill != "uniform")) continue;
        BackendContext be{backend, name + " unavailable", op->package, impl, no_impl};
        reports::CaseResult r = execute_case(c, op->context, be);  // correctness first
        results.push_back(r);
        if (backend == nullptr || impl == nullptr || r.verdict == Verdict::kSkipped) continue;
        auto f = std::make_unique<Fixture>();
        std::string why;
        if (!setup(*f, c, *op, *backend, *impl, &why)) {
          results.back().message += "; bench setup: " + why;
          continue;
        }
        Fixture* fp = f.get();
        fixture_results.push_back({fp, results.size() - 1});
        const bool device_timer = backend->info().device_timer;
        benchmark::RegisterBenchmark(c.id.c_str(), [fp, device_timer](benchmark::State& state) {
          for (auto _ : state) {
            ExecTiming timing;
            fp->backend->execute(*fp->impl, fp->kernel, fp->in, fp->out, timing);
            state.SetIterationTime(timing.compute_ns * 1e-9);
            fp->samples_ns.push_back(timing.compute_ns);
            fp->sim_cycles = timing.sim_cycles;
          }
          state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * fp->elements));
          state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * fp->bytes));
          state.counters["device_timer"] = device_timer ? 1 : 0;
          if (fp->sim_cycles) state.counters["sim_cycles"] = static_cast<double>(fp->sim_cycles);
        })->UseManualTime()->Repetitions(options.repetitions > 0 ? options.repetitions : op->plan.bench_repetitions)
          ->MinTime(options.min_time_s)->Unit(benchmark::kMillisecond);
        fixtures.push_back(std::move(f));
      }
    }
  }

  std::filesystem::create_directories(options.out_dir);
  const std::string out_arg = "--benchmark_out=" + (options.out_dir / "benchmark.json").string();
  std::vector<std::string> args = {"oprig-bench", out_arg, "--benchmark_out_format=json",
                                   "--benchmark_report_aggregates_only=true"};
  if (!options.filter.empty()) args.push_back("--benchmark_filter=" + options.filter);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();

  for (const auto& [fp, index] : fixture_results) {
    if (fp->samples_ns.empty()) continue;
    reports::PerfStats& perf = *(results[index].perf ? &*results[index].perf : &results[index].perf.emplace());
    std::vector<double> sorted = fp->samples_ns;
    std::sort(sorted.begin(), sorted.end());
    perf.compute_ns_samples = fp->samples_ns;
    perf.compute_ns_min = sorted.front();
    perf.compute_ns_median = sorted[sorted.size() / 2];
    perf.elements = fp->elements;
    perf.bytes = fp->bytes;
    perf.sim_cycles = fp->sim_cycles;
    perf.gelem_per_s = perf.elements / perf.compute_ns_median;
    perf.gbytes_per_s = perf.bytes / perf.compute_ns_median;
  }
  return results;
}

}  // namespace oprig::harness
