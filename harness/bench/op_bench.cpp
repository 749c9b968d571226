#include "bench/op_bench.hpp"
#include "registry.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include "bench/base_side.hpp"
#include "bench/bench_kernel.hpp"
#include "bench/integrity_check.hpp"
#include "bench/launch_bound.hpp"
#include "bench/machine_probe.hpp"
#include "cases/tensor_data.hpp"
#include "farm/shard_plan.hpp"
#include "core/dtype.hpp"
#include "package/loader.hpp"
#include "perf/roofline.hpp"
#include "runner/abi_params.hpp"

namespace oprig::harness {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

// What one benchmark function call measured: libbenchmark calls it once per
// repetition, and for the first repetition also for its iteration-count probes.
struct CallRecord {
  int64_t iterations = 0;
  double ns_per_execute = 0;
};

struct Fixture {
  BenchKernel kernel;
  bool host_clock = false;  // dsp: the simulator's cost is host time; its simulated time is a counter
  double estimate_s = 0;    // one execute, from setup
  Clock::time_point first_call{};
  bool warmed = false;
  WarmupResult warmup;
  std::vector<CallRecord> calls;
  double wall_ns_total = 0, sim_cycles_total = 0;
  uint64_t executes = 0;
  std::string stopped;  // why repetitions were skipped, when they were
  bool finalized = false;
  IntegrityVerdict integrity;  // the checks after the timed loop
  size_t input_sets = 0;       // how many input contents the timed loop alternated (before release)
  std::string why_one_input_set;
  double spent_s = 0;  // in this benchmark's calls since first_call (interleaved: its own share of the run)
  bool set_up = false;       // setup_bench_kernel() succeeded: kernel.input_sets.front() is complete
  Fixture* twin = nullptr;   // A/B: the same case on the other side, which may copy the inputs of whichever is set up first
};

// After a benchmark's last repetition (when the next benchmark starts, or
// libbenchmark is done): the integrity checks, then its memory is freed.
void finalize(Fixture& f) {
  if (f.finalized) return;
  f.finalized = true;
  f.input_sets = f.kernel.input_sets.size();
  f.why_one_input_set = f.kernel.why_one_input_set;
  if (!f.calls.empty()) f.integrity = check_after_timing(f.kernel, f.executes + f.warmup.executes);
  f.kernel.release();
}

std::string skip_list(const std::vector<std::string>& skipped) {
  std::string out;
  for (const std::string& s : skipped) out += "  " + s + "\n";
  return out;
}

// The fill a benchmark times: "uniform" when the plan has it, else the first
// fill that takes the bench shapes. A fill with shapes of its own (an edge
// fill makes one element per edge value) would time a correctness case of a
// few elements instead of the bench shape.
bool takes_bench_shapes(const Fill& f) { return f.shapes.empty() && f.all.kind != "edge"; }

std::string bench_fill(const std::vector<Fill>& fills) {
  for (const Fill& f : fills)
    if (f.name == "uniform" && takes_bench_shapes(f)) return f.name;
  for (const Fill& f : fills)
    if (takes_bench_shapes(f)) return f.name;
  return fills.empty() ? "uniform" : fills.front().name;
}

bool has_quantised_input(const Case& c) {
  return std::any_of(c.inputs.begin(), c.inputs.end(), [](const CaseTensor& t) { return t.quant.scale != 0; });
}

// The benchmarks of one op on one backend: the plan's bench shapes, one fill
// and the default params (each value of an enumeration swept): the speed of a
// kernel does not depend on which of the correctness fills it sees.
// Quantised cases also take the plan's "uniform" (random codes).
std::vector<Case> bench_cases(const LoadedOp& op, const std::string& backend) {
  TestPlan bench_plan = op.plan;
  bench_plan.shapes = op.plan.bench_shapes;
  bench_plan.golden_literals.clear();
  const std::string plain_fill = bench_fill(op.plan.fills);
  const std::string quantised_fill = plain_fill == "uniform" ? plain_fill : bench_fill(op.plan.quantized_fills);
  std::vector<Case> out;
  for (const Case& c : generate_cases(op.space, bench_plan, {backend}))
    if (c.variant.ends_with("p0") && c.fill == (has_quantised_input(c) ? quantised_fill : plain_fill)) out.push_back(c);
  return out;
}

// --shard: a benchmark's expected cost in seconds, for farm/shard_plan.hpp's
// cut: its warm-up and repetitions take about the same time whatever its size
// (kBenchSeconds at the default --min-time), plus its correctness run, about
// 100 ns an element with the fp64 reference.
constexpr double kBenchSeconds = 3;
double bench_cost(const Case& c) { return kBenchSeconds + 1e-7 * static_cast<double>(c.element_count()); }

}  // namespace

std::string check_bench_options(const BenchOptions& o) {
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  if (!positive(o.min_time_s))
    return "--min-time must be a positive number of seconds, got " + fixed(o.min_time_s, 3);
  if (!positive(o.max_seconds)) return "--max-seconds must be a positive number of seconds, got " + fixed(o.max_seconds, 3);
  if (!positive(o.max_seconds_per_benchmark))
    return "--max-seconds-per-benchmark must be a positive number of seconds, got " +
           fixed(o.max_seconds_per_benchmark, 3);
  if (o.repetitions != 0 && o.repetitions < kMinRepetitions)
    return "--repetitions must be at least " + std::to_string(kMinRepetitions) + " (Mann-Whitney U over fewer cannot " +
           "flag a regression at alpha 0.05 with the margins compare needs), got " + std::to_string(o.repetitions);
  return {};
}

namespace {

// The op of the base suite that twins `op`: the same op of the same spec file.
const LoadedOp* base_twin_of(const LoadedOp& op, const Suite* base) {
  if (base == nullptr) return nullptr;
  for (const auto& b : base->ops)
    if (b->plan.op == op.plan.op && b->spec_path == op.spec_path) return b.get();
  return nullptr;
}

nlohmann::json package_paths(const Suite& suite) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : suite.packages) out.push_back(std::filesystem::absolute(p->path()).string());
  return out;
}

}  // namespace

BenchRun run_benchmarks(const Suite& suite, const Selection& selection, const BenchOptions& options,
                        const Suite* base) {
  BenchRun run;
  const Clock::time_point bench_start = Clock::now();
  const Clock::time_point deadline = bench_start + std::chrono::duration_cast<Clock::duration>(
                                                       std::chrono::duration<double>(options.max_seconds));
  std::map<std::string, std::unique_ptr<Backend>> backends;
  std::vector<std::unique_ptr<Fixture>> fixtures;
  // Pinned: benchmark functions hold pointers into it while libbenchmark runs.
  auto results_owner = std::make_unique<std::vector<reports::CaseResult>>();
  std::vector<reports::CaseResult>& results = *results_owner;
  std::vector<std::pair<Fixture*, size_t>> fixture_results;
  std::vector<std::string> skipped;
  Fixture* current = nullptr;  // the benchmark libbenchmark runs now
  std::optional<MachineProbe> probe;  // its 64 MiB only when asked for
  if (options.machine_controls) probe.emplace();

  // First pass: every case gets its result slot, so the benchmark functions
  // can fill theirs while libbenchmark runs; cases with no backend or no
  // kernel are judged here (no timing to do).
  struct Pending {
    const Case* c = nullptr;
    const LoadedOp* op = nullptr;
    BackendContext be;
    std::string name;
    size_t index = 0;
    bool base_side = false;  // the twin timing the base suite's kernel (bench/base_side.hpp)
  };
  std::vector<std::unique_ptr<Case>> cases;
  std::vector<Pending> pending;
  std::vector<bool> is_base;  // by result index
  // The op's kernel on one backend, or null; `why` is set when the package
  // claims the backend and its implementation does not load.
  auto kernel_of = [](const LoadedOp& op, oprig_backend_kind kind, std::string* why) -> const oprig_implementation_v1* {
    const PackageOp* pop = op.package->find_op(op.plan.op);
    if (pop == nullptr || !(pop->backend_mask & OPRIG_BACKEND_BIT(kind))) return nullptr;
    return op.package->implementation(kind, why);
  };
  // --shard: this shard's part of every benchmark of the selection.
  std::optional<std::set<std::string>> in_shard;
  {
    std::vector<farm::ShardUnit> units;
    for (const auto& op : suite.ops)
      for (const std::string& name : selection.backends)
        for (const Case& c : bench_cases(*op, name)) {
          run.selected.emplace_back(c.id, c.seed);
          units.push_back({{c.id}, bench_cost(c)});
        }
    if (options.shard) {
      const farm::ShardCut cut = farm::cut_shard(units, *options.shard);
      in_shard = cut.ids;
      run.shard_cost_share = cut.total_cost > 0 ? cut.cost / cut.total_cost : 0;
    }
  }
  for (const auto& op : suite.ops) {
    const LoadedOp* base_op = base_twin_of(*op, base);
    for (const std::string& name : selection.backends) {
      if (!backends.count(name)) {
        std::string why;
        backends[name] = create_backend(name, &why);
      }
      Backend* backend = backends[name].get();
      std::string no_impl, no_base_impl = "the base packages have no " + op->plan.op + " kernel for " + name;
      const oprig_backend_kind kind = backend_kind_from_name(name);
      const oprig_implementation_v1* impl = kernel_of(*op, kind, &no_impl);
      const oprig_implementation_v1* base_impl = base_op ? kernel_of(*base_op, kind, &no_base_impl) : nullptr;
      for (const Case& c : bench_cases(*op, name)) {
        if (in_shard && !in_shard->count(c.id)) continue;
        BackendContext be{backend, name + " unavailable", op->package, impl, no_impl};
        if (backend == nullptr || impl == nullptr) {
          results.push_back(execute_case(c, op->context, be));
          is_base.push_back(false);
          continue;
        }
        reports::CaseResult placeholder = case_record(c, &op->context);
        placeholder.verdict = Verdict::kSkipped;
        placeholder.message = "not run: not selected by --filter";
        results.push_back(placeholder);
        is_base.push_back(false);
        cases.push_back(std::make_unique<Case>(c));
        pending.push_back({cases.back().get(), op.get(), be, name, results.size() - 1});
        if (base == nullptr) continue;
        if (base_impl == nullptr) {
          // No twin: compare then lists the benchmark as in NEW only, and this says why.
          skipped.push_back(c.id + " (base side): " + no_base_impl);
          continue;
        }
        results.push_back(placeholder);
        is_base.push_back(true);
        const BackendContext base_be{backend, name + " unavailable", base_op->package, base_impl, ""};
        pending.push_back({cases.back().get(), base_op, base_be, name, results.size() - 1, true});
      }
    }
  }

  // Round robin over op x backend (each group's cases in plan order): when
  // --max-seconds cuts the bench short, every op has had its first cases
  // timed rather than the first ops all of theirs.
  std::vector<Pending> order;
  {
    std::vector<std::vector<Pending>> groups;
    std::map<std::pair<const LoadedOp*, std::string>, size_t> group_of;
    for (const Pending& p : pending) {
      auto [it, added] = group_of.try_emplace({p.op, p.name}, groups.size());
      if (added) groups.emplace_back();
      groups[it->second].push_back(p);
    }
    for (size_t round = 0; order.size() < pending.size(); ++round)
      for (const std::vector<Pending>& g : groups)
        if (round < g.size()) order.push_back(g[round]);
  }

  std::map<const Case*, Fixture*> first_side;  // A/B: the fixture already made for a case
  for (const Pending& p : order) {
    auto f = std::make_unique<Fixture>();
    Fixture* fp = f.get();
    fixture_results.push_back({fp, p.index});
    fixtures.push_back(std::move(f));
    if (auto [it, added] = first_side.try_emplace(p.c, fp); !added) {
      fp->twin = it->second;
      it->second->twin = fp;
    }
    const int wanted = std::max(kMinRepetitions, options.repetitions > 0 ? options.repetitions
                                                                           : p.op->plan.bench_repetitions);
    reports::CaseResult* slot = &results[p.index];
    // Correctness, set-up and warm-up run in the benchmark's first call, right
    // before its repetitions: the time budget then goes to finished
    // benchmarks in order, and each is timed with its own data warm.
    benchmark::RegisterBenchmark(p.c->id.c_str(), [fp, p, slot, deadline, options, wanted, &current, &probe](benchmark::State& state) {
      // The same name on both sides (one --filter selects both); the label tells them apart.
      if (p.base_side) state.SetLabel(kBaseSideLabel);
      if (current != fp) {
        // Back to back, a benchmark is done when the next one starts; interleaved, only at the end.
        if (current && !options.interleave) finalize(*current);
        current = fp;
      }
      const Clock::time_point call_start = Clock::now();
      BenchKernel& k = fp->kernel;
      // libbenchmark requires every repetition, skipped or not, to report the
      // same iteration count (its ComputeStats check aborts otherwise): a
      // skipped repetition must still enter the loop, which then reports the
      // planned count and runs nothing.
      auto stop = [&](const std::string& why) {
        fp->stopped = why;
        state.SkipWithError(fp->stopped.c_str());
        for (auto _ : state) {
        }
      };
      if (!fp->stopped.empty()) return stop(fp->stopped);
      if (!fp->warmed) {
        fp->warmed = true;
        if (Clock::now() > deadline) {
          slot->message = "not run: the bench's --max-seconds " + fixed(options.max_seconds, 0) + " s ran out";
          return stop(slot->message);
        }
        if (p.base_side) {
          // The baseline build's kernel was judged when it was accepted; the
          // checks after its timed loop judge it again on these inputs.
          slot->verdict = Verdict::kPassed;
          slot->message = "base side: judged by the checks after the timed loop";
        } else {
          *slot = execute_case(*p.c, p.op->context, p.be);  // correctness first
          if (slot->verdict != Verdict::kPassed && slot->verdict != Verdict::kQualityWarning &&
              slot->verdict != Verdict::kMistrusted)
            return stop("not timed: the correctness run gave " + std::string(verdict_name(slot->verdict)));
        }
        std::string why;
        const InputSet* same_inputs =
            fp->twin && fp->twin->set_up && !fp->twin->finalized ? &fp->twin->kernel.input_sets.front() : nullptr;
        if (!setup_bench_kernel(k, *p.c, *p.op, *p.be.backend, *p.be.implementation, &why, same_inputs)) {
          // The same inputs passed the correctness run: a refusal now is the kernel's defect.
          if (k.kernel_refused) slot->verdict = Verdict::kFailed;
          return stop("not timed: bench setup: " + why);
        }
        fp->set_up = true;
        fp->host_clock = p.be.backend->kind() == OPRIG_BACKEND_DSP || !p.be.backend->info().device_timer;
        fp->estimate_s = k.setup_execute_wall_ns * 1e-9;
        const double per_rep_s = std::max(options.min_time_s, fp->estimate_s);
        if (3 * per_rep_s > options.max_seconds_per_benchmark)
          return stop("not timed: one execute takes " + fixed(fp->estimate_s, 3) + " s; 3 repetitions do not fit " +
                      "--max-seconds-per-benchmark " + fixed(options.max_seconds_per_benchmark, 0) + " s");
        const double needed_s = std::min(options.warmup.max_seconds, options.warmup.min_seconds) +
                                (wanted + 1) * per_rep_s;
        if (Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(needed_s)) >
            deadline)
          return stop("not timed: about " + fixed(needed_s, 1) + " s needed would pass the bench's --max-seconds " +
                      fixed(options.max_seconds, 0) + " s");
        size_t i = 0;
        // The per-benchmark cap counts from here: the timing, not the correctness run before it.
        fp->first_call = Clock::now();
        const Clock::time_point warmup_start = fp->first_call;
        fp->warmup = warm_up(
            [&] {
              const ExecuteSample s = k.execute(i++ % k.input_sets.size());
              return fp->host_clock ? s.wall_ns * 1e-9 : s.clock_ns * 1e-9;
            },
            options.warmup, [&] { return seconds_since(warmup_start); });
      }
      if (Clock::now() > deadline)
        return stop("skipped: the bench's --max-seconds " + fixed(options.max_seconds, 0) + " s ran out");
      if (fp->spent_s > options.max_seconds_per_benchmark)
        return stop("skipped: --max-seconds-per-benchmark " + fixed(options.max_seconds_per_benchmark, 0) +
                    " s ran out");
      // With --machine-controls, the machine's state at this moment
      // (bench/machine_probe.hpp) beside the repetition; then fresh memory
      // (BenchKernel::relocate) and one untimed execute: it touches the new
      // pages, and the probe and the previous benchmark left their data in
      // the caches.
      const ProbeSample control = probe ? probe->measure() : ProbeSample{};
      k.relocate();
      k.execute(0);
      double timed_ns = 0, wall_ns = 0, cycles = 0;
      size_t i = 0;
      for (auto _ : state) {
        // Alternate input contents: a kernel that returns a cached result is wrong half the time.
        const ExecuteSample s = k.execute(i++ % k.input_sets.size());
        if (s.status != OPRIG_STATUS_OK) {
          fp->stopped = "execute() failed during timing: " + status_name(s.status);
          state.SkipWithError(fp->stopped.c_str());
          break;
        }
        const double ns = fp->host_clock ? s.wall_ns : s.clock_ns;
        state.SetIterationTime(ns * 1e-9);
        timed_ns += ns;
        wall_ns += s.wall_ns;
        cycles += static_cast<double>(s.sim_cycles);
      }
      const auto n = static_cast<double>(std::max<int64_t>(state.iterations(), 1));
      if (fp->stopped.empty()) fp->calls.push_back({state.iterations(), timed_ns / n});
      fp->executes += static_cast<uint64_t>(state.iterations());
      fp->wall_ns_total += wall_ns;
      fp->sim_cycles_total += cycles;
      state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(k.elements));
      state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(k.bytes));
      // Zero counters are left out: libbenchmark's cv aggregate of an
      // all-zero counter is 0/0, written as NaN, which is not JSON.
      auto counter = [&state](const char* name, double value) {
        if (value != 0) state.counters[name] = value;
      };
      counter("device_timer", !fp->host_clock ? 1 : 0);
      counter("host_wall_ns", wall_ns / n);  // launch and wait included
      counter("sim_cycles", cycles / n);     // dsp: simulated, beside the host time
      if (k.elements > 0) counter("sim_cycles_per_elem", cycles / n / static_cast<double>(k.elements));
      counter("create_ns", k.create_ns);
      counter("prepare_ns", k.prepare_ns);
      counter("h2d_ns", k.h2d_ns);
      counter("d2h_ns", k.d2h_ns);
      counter("control_copy_ns", control.copy_ns);
      counter("control_compute_ns", control.compute_ns);
      counter("input_sets", static_cast<double>(k.input_sets.size()));
      counter("warmup_executes", static_cast<double>(fp->warmup.executes));
      counter("warmup_unsettled", fp->warmup.settled ? 0 : 1);
      fp->spent_s += seconds_since(std::max(call_start, fp->first_call));
    })->UseManualTime()->Repetitions(wanted)->MinTime(options.min_time_s)->Unit(benchmark::kMillisecond);
  }

  std::filesystem::create_directories(options.out_dir);
  const std::string out_arg = "--benchmark_out=" + (options.out_dir / "benchmark.json").string();
  // Per-repetition entries and the aggregates (no report_aggregates_only):
  // compare, history and Google Benchmark's compare.py read the repetitions.
  std::vector<std::string> args = {"oprig-bench", out_arg, "--benchmark_out_format=json"};
  if (!options.filter.empty()) args.push_back("--benchmark_filter=" + options.filter);
  if (options.interleave) args.push_back("--benchmark_enable_random_interleaving=true");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (const std::unique_ptr<Fixture>& f : fixtures) finalize(*f);

  std::set<std::string> untrusted_base;  // twins whose timings are no baseline
  std::set<std::string> launch_bound_ids;
  for (const auto& [fp, index] : fixture_results) {
    reports::CaseResult& r = results[index];
    const bool twin = is_base[index];
    auto note = [&r](const std::string& m) { r.message += (r.message.empty() ? "" : "; ") + m; };
    if (!fp->stopped.empty()) {
      if (r.message.find(fp->stopped) == std::string::npos) note(fp->stopped);
      skipped.push_back(r.id + (twin ? " (base side)" : "") + ": " + fp->stopped);
    }
    if (fp->calls.empty()) continue;  // filtered out, or skipped before any repetition
    // libbenchmark probes the iteration count in the first repetition's
    // calls; every reported repetition runs the final count.
    const int64_t final_iterations = fp->calls.back().iterations;
    std::vector<double> reps;
    for (const CallRecord& call : fp->calls)
      if (call.iterations == final_iterations) reps.push_back(call.ns_per_execute);
    const BenchKernel& k = fp->kernel;
    ++(twin ? run.base_timed : run.timed);

    reports::PerfStats& perf = r.perf ? *r.perf : r.perf.emplace();
    std::vector<double> sorted = reps;
    std::sort(sorted.begin(), sorted.end());
    perf.device_timer = !fp->host_clock && k.backend->info().device_timer;
    perf.compute_ns_samples = reps;
    perf.compute_ns_min = sorted.front();
    perf.compute_ns_median = sorted[sorted.size() / 2];
    perf.create_ns = k.create_ns;
    perf.prepare_ns = k.prepare_ns;
    perf.h2d_ns = k.h2d_ns;
    perf.d2h_ns = k.d2h_ns;
    perf.elements = k.elements;
    perf.bytes = k.bytes;
    perf.sim_cycles = fp->executes ? static_cast<uint64_t>(std::llround(fp->sim_cycles_total / fp->executes)) : 0;
    perf.gelem_per_s = static_cast<double>(perf.elements) / perf.compute_ns_median;
    perf.gbytes_per_s = static_cast<double>(perf.bytes) / perf.compute_ns_median;
    if (!fp->warmup.settled)
      note("warm-up did not settle within " + fixed(options.warmup.max_seconds, 1) + " s (" +
           std::to_string(fp->warmup.executes) + " executes): timings may be noisy");
    if (fp->input_sets < 2) note("inputs not varied between timed iterations: " + fp->why_one_input_set);

    // The output after the timed loop, on the timed inputs and on fresh ones.
    const IntegrityVerdict& integrity = fp->integrity;
    if (!integrity.ok) {
      r.verdict = Verdict::kFailed;
      note(integrity.message);
      if (twin) untrusted_base.insert(r.id);
      continue;
    }
    auto peaks = options.peaks.find(r.backend);
    // dsp: the calibrated peaks are the cost model's and the time is the host's; no roofline.
    if (peaks != options.peaks.end() && k.backend->kind() != OPRIG_BACKEND_DSP) {
      perf.launch_overhead_ns = launch_overhead_ns(peaks->second);
      perf.launch_bound = is_launch_bound(perf.compute_ns_median, perf.launch_overhead_ns);
      if (perf.launch_bound) {
        launch_bound_ids.insert(r.id);
        note("launch-bound: the median (" + fixed(perf.compute_ns_median * 1e-3, 3) + " us) is under " +
             fixed(kLaunchBoundFactor, 1) + "x this backend's calibrated launch-plus-readback overhead (" +
             fixed(perf.launch_overhead_ns * 1e-3, 1) + " us): the figure is mostly launch cost, not kernel speed");
      }
      perf::RooflineInput in;
      in.bytes = static_cast<double>(k.cost_bytes ? k.cost_bytes : k.bytes);
      in.flops = static_cast<double>(k.cost_flops);
      in.seconds = perf.compute_ns_min * 1e-9;
      const perf::RooflineResult roof = perf::evaluate_roofline(peaks->second, in);
      if (!twin) run.roofline.push_back({r.id, r.backend, roof});
      if (roof.above_roofline) {
        if (twin) untrusted_base.insert(r.id);
        if (r.verdict == Verdict::kPassed || r.verdict == Verdict::kQualityWarning) r.verdict = Verdict::kMistrusted;
        note("MISTRUSTED timing: the fastest repetition (" + fixed(perf.compute_ns_min * 1e-3, 3) + " us, " +
             fixed(roof.gbps, 1) + " GB/s, " + fixed(roof.gflops, 1) + " GFLOP/s) is faster than this machine's " +
             "calibrated roofline allows (" + fixed(roof.limit_seconds_best * 1e6, 3) + " us at best): the kernel " +
             "skips work or the timer is wrong; not a record");
      }
    }
  }
  if (!skipped.empty())
    std::cerr << "oprig bench: " << skipped.size() << " benchmark(s) not fully timed:\n" << skip_list(skipped);
  mark_launch_bound(options.out_dir / "benchmark.json", launch_bound_ids);
  for (size_t i = 0; i < results.size(); ++i) (is_base[i] ? run.base_cases : run.cases).push_back(std::move(results[i]));
  if (base != nullptr) {
    for (const reports::CaseResult& r : run.base_cases)
      if (r.verdict == Verdict::kFailed || untrusted_base.count(r.id))
        std::cerr << "oprig bench: base side of " << r.id << ": " << verdict_name(r.verdict) << ": " << r.message
                  << (untrusted_base.count(r.id) ? " (its timings are left out of base/benchmark.json)" : "") << "\n";
    split_base_side(options.out_dir / "benchmark.json", options.out_dir / "base" / "benchmark.json", untrusted_base,
                    package_paths(suite), package_paths(*base));
  }
  return run;
}

}  // namespace oprig::harness
