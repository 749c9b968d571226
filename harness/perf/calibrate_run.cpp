#include "perf/calibrate_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "dsp/hvx_sim/cost_model.hpp"
#include "dsp/hvx_sim/vector.hpp"
#include "package/loader.hpp"
#include "perf/perf_error.hpp"
#include "perf/this_build.hpp"
#include "registry.hpp"
#include "reports/text.hpp"

namespace oprig::perf {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string size_text(uint64_t bytes) {
  char text[32];
  if (bytes >= kGiB) std::snprintf(text, sizeof text, "%g GiB", static_cast<double>(bytes) / kGiB);
  else if (bytes >= kMiB) std::snprintf(text, sizeof text, "%g MiB", static_cast<double>(bytes) / kMiB);
  else std::snprintf(text, sizeof text, "%g KiB", static_cast<double>(bytes) / kKiB);
  return text;
}

class Skip : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One kernel instance with its device buffers, ready to execute.
class Instance {
 public:
  Instance(Backend& backend, const oprig_implementation_v1& impl, const char* op, uint64_t inputs_elements,
           size_t num_inputs, const std::vector<oprig_param>& params)
      : backend_(backend), impl_(impl), kernel_{&impl, nullptr} {
    if (impl.create(&backend.context(), op, params.data(), params.size(), &kernel_.kernel) != OPRIG_STATUS_OK)
      throw Skip(std::string("create(") + op + ") failed");
    oprig_tensor t{};
    t.dtype = OPRIG_DTYPE_FLOAT_32;
    t.rank = 1;
    t.dims[0] = static_cast<int64_t>(inputs_elements);
    in_.assign(num_inputs, t);
    out_.assign(1, oprig_tensor{});
    out_[0].dtype = OPRIG_DTYPE_FLOAT_32;
    const oprig_status prepared = impl.prepare(kernel_.kernel, in_.data(), in_.size(), out_.data(), out_.size());
    if (prepared == OPRIG_STATUS_UNSUPPORTED)
      throw Skip("prepare() answers UNSUPPORTED: larger than this device takes (on vulkan: one storage-buffer "
                 "binding per tensor, at most maxStorageBufferRange bytes)");
    if (prepared != OPRIG_STATUS_OK) throw Skip(std::string("prepare(") + op + ") failed");
    // Inputs: FmaPeak's (a, b) keep the accumulators near 1 (no overflow, no
    // denormals); streaming inputs hold 1.0.
    std::vector<float> host(inputs_elements, 1.0f);
    if (std::strcmp(op, "FmaPeak") == 0 && host.size() >= 2) {
      host[0] = 0.999999f;
      host[1] = 1e-6f;
    }
    for (size_t i = 0; i < num_inputs; ++i) {
      buffers_.push_back(backend.allocate(host.size() * sizeof(float)));
      backend.write(*buffers_.back(), std::as_bytes(std::span<const float>(host)));
      buffers_.back()->bind(in_[i]);
    }
    uint64_t out_elements = 1;
    for (uint32_t d = 0; d < out_[0].rank; ++d) out_elements *= static_cast<uint64_t>(out_[0].dims[d]);
    buffers_.push_back(backend.allocate(out_elements * sizeof(float)));
    buffers_.back()->bind(out_[0]);
    if (impl.cost == nullptr || impl.cost(kernel_.kernel, &cost_) != OPRIG_STATUS_OK) throw Skip("cost() failed");
  }
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  // Executes once; returns the reported time in ns.
  double execute() {
    ExecTiming timing;
    if (backend_.execute(impl_, kernel_.kernel, in_, out_, timing) != OPRIG_STATUS_OK) throw Skip("execute failed");
    return timing.compute_ns;
  }
  const oprig_cost& cost() const { return cost_; }

 private:
  // Destroys the kernel also when the constructor throws after create()
  // (members are unwound, the destructor of Instance is not run).
  struct OwnedKernel {
    const oprig_implementation_v1* impl;
    oprig_kernel* kernel;
    ~OwnedKernel() {
      if (kernel != nullptr) impl->destroy(kernel);
    }
  };

  Backend& backend_;
  const oprig_implementation_v1& impl_;
  std::vector<oprig_tensor> in_, out_;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers_;
  OwnedKernel kernel_;  // declared last: destroyed before the buffers it used
  oprig_cost cost_{};
};

struct Batch {
  double reported_ns = 0;  // sum of execute's times
  double wall_s = 0;       // host time of the batch
  size_t executes = 0;
};

Batch run_batch(Instance& instance, size_t executes) {
  Batch b;
  const auto start = Clock::now();
  for (size_t i = 0; i < executes; ++i) b.reported_ns += instance.execute();
  b.wall_s = seconds_since(start);
  b.executes = executes;
  return b;
}

// The executes per repetition so that one lasts at least batch_seconds.
size_t executes_for(Instance& instance, double batch_seconds) {
  const auto start = Clock::now();
  instance.execute();
  const double one = std::max(seconds_since(start), 1e-7);
  return std::max<size_t>(1, static_cast<size_t>(std::ceil(batch_seconds / one)));
}

// Work per ns over repetitions: `work` per execute, value = work * k / sum(ns).
Figure rate_figure(Instance& instance, double work, const CalibrateOptions& options) {
  const size_t k = executes_for(instance, options.batch_seconds);
  run_batch(instance, k);  // warm-up, discarded
  std::vector<double> samples;
  for (int r = 0; r < options.repetitions; ++r) {
    const Batch b = run_batch(instance, k);
    if (b.reported_ns <= 0) throw Skip("the backend reported no time");
    samples.push_back(work * static_cast<double>(b.executes) / b.reported_ns);
  }
  return Figure::of(std::move(samples));
}

uint64_t elements_for(uint64_t working_set, size_t buffers) {
  return std::max<uint64_t>(16, working_set / (buffers * sizeof(float)) / 16 * 16);
}

void measure_bandwidth(Backend& backend, const oprig_implementation_v1& impl, const std::vector<uint64_t>& ladder,
                       const CalibrateOptions& options, BackendPeaks& peaks) {
  const float scalar = 3.0f;
  const std::vector<oprig_param> triad_params = {{"scalar", OPRIG_DTYPE_FLOAT_32, 1, &scalar}};
  for (uint64_t ws : ladder) {
    BandwidthPoint point;
    point.working_set_bytes = ws;
    try {
      {
        Instance copy(backend, impl, "Copy", elements_for(ws, 2), 1, {});
        const double bytes = static_cast<double>(copy.cost().bytes_read + copy.cost().bytes_written);
        point.copy_gbps = rate_figure(copy, bytes, options);
      }
      {
        Instance triad(backend, impl, "Triad", elements_for(ws, 3), 2, triad_params);
        const double bytes = static_cast<double>(triad.cost().bytes_read + triad.cost().bytes_written);
        point.triad_gbps = rate_figure(triad, bytes, options);
      }
    } catch (const Skip& e) {
      point = BandwidthPoint{ws, {}, {}, e.what()};
    } catch (const std::exception& e) {  // allocation beyond what the device has
      point = BandwidthPoint{ws, {}, {}, std::string("could not allocate or run: ") + e.what()};
    }
    if (options.progress) {
      char line[160];
      if (point.skipped.empty())
        std::snprintf(line, sizeof line, "%s: working set %s: copy %.4g GB/s, triad %.4g GB/s", peaks.backend.c_str(),
                      size_text(ws).c_str(), point.copy_gbps.median, point.triad_gbps.median);
      else
        std::snprintf(line, sizeof line, "%s: working set %s: skipped (%s)", peaks.backend.c_str(),
                      size_text(ws).c_str(), point.skipped.c_str());
      options.progress(line);
    }
    peaks.bandwidth.push_back(std::move(point));
  }
}

void measure_fma(Backend& backend, const oprig_implementation_v1& impl, const CalibrateOptions& options,
                 BackendPeaks& peaks) {
  try {
    // Find the iteration count whose execute lasts about batch_seconds.
    uint32_t iterations = 4096;
    for (int attempt = 0; attempt < 6; ++attempt) {
      const std::vector<oprig_param> params = {{"iterations", OPRIG_DTYPE_UINT_32, 1, &iterations}};
      Instance probe(backend, impl, "FmaPeak", 2, 1, params);
      probe.execute();
      const auto start = Clock::now();
      probe.execute();
      const double t = seconds_since(start);
      if (t >= options.batch_seconds / 2 || iterations >= (1u << 28)) break;
      const double scale = std::clamp(options.batch_seconds / std::max(t, 1e-6), 2.0, 1024.0);
      iterations = static_cast<uint32_t>(std::min<double>(iterations * scale, 1u << 28));
    }
    const std::vector<oprig_param> params = {{"iterations", OPRIG_DTYPE_UINT_32, 1, &iterations}};
    Instance fma(backend, impl, "FmaPeak", 2, 1, params);
    peaks.fma_gflops = rate_figure(fma, static_cast<double>(fma.cost().flops), options);
    if (options.progress)
      options.progress(peaks.backend + ": FMA peak " + reports::format_number(peaks.fma_gflops.median, 4) + " GFLOP/s");
  } catch (const std::exception& e) {
    peaks.notes.push_back(std::string("FMA peak not measured: ") + e.what());
  }
}

void measure_launch(Backend& backend, const oprig_implementation_v1& impl, const CalibrateOptions& options,
                    BackendPeaks& peaks) {
  try {
    Instance tiny(backend, impl, "Copy", 16, 1, {});
    const size_t k = options.quick ? 50 : 200;
    run_batch(tiny, k);  // warm-up
    std::vector<double> host_us, device_us;
    for (int r = 0; r < options.repetitions; ++r) {
      const Batch b = run_batch(tiny, k);
      host_us.push_back(b.wall_s * 1e6 / static_cast<double>(k));
      device_us.push_back(b.reported_ns * 1e-3 / static_cast<double>(k));
    }
    peaks.launch_host_us = Figure::of(std::move(host_us));
    peaks.launch_device_us = Figure::of(std::move(device_us));
    if (options.progress)
      options.progress(peaks.backend + ": minimal execute " + reports::format_number(peaks.launch_host_us.median, 4) +
                       " us host, " + reports::format_number(peaks.launch_device_us.median, 4) + " us device-reported");
  } catch (const std::exception& e) {
    peaks.notes.push_back(std::string("launch overhead not measured: ") + e.what());
  }
}

// The dsp simulator's peaks from its cost model (backends/dsp/cost_model.md):
// nothing on the host says how fast a DSP is.
void simulated_dsp_peaks(BackendPeaks& peaks) {
  const double clock = static_cast<double>(hvx::kClockHz);
  const double bandwidth_gbps = static_cast<double>(hvx::kL2BytesPerCycle) * clock * 1e-9;
  // A widening byte multiply-accumulate (mpy_ub_b_acc) takes both multiply
  // units: one per packet, kVectorBytes lanes, 2 operations per lane.
  const double int8_gops = static_cast<double>(hvx::kVectorBytes) * 2 * clock * 1e-9;
  peaks.simulated = true;
  peaks.timer = "simulated cycles";
  peaks.method = "from the simulator's cost model v" + std::to_string(hvx::kCostModelVersion) +
                 " (backends/dsp/cost_model.md) at its nominal clock, not measured: simulated time is never host time";
  BandwidthPoint point;
  point.working_set_bytes = 0;
  point.copy_gbps = Figure::of({bandwidth_gbps});
  point.triad_gbps = Figure::of({bandwidth_gbps});
  peaks.bandwidth.push_back(point);
  peaks.fma_gflops = Figure::of({int8_gops});
  peaks.fma_kernel = "int8 multiply-accumulate (GOP/s): the simulated DSP has no floating-point FMA";
  peaks.notes.push_back("L2 streaming bandwidth " + std::to_string(hvx::kL2BytesPerCycle) +
                        " bytes/cycle; programs pay " + std::to_string(hvx::kProgramOverheadCycles) +
                        " cycles each (the simulated launch overhead)");
}

std::string threads_text(uint32_t threads) {
  return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

std::string fma_kernel_text(const Backend& backend) {
  const oprig_backend_context& ctx = backend.context();
  switch (backend.kind()) {
    case OPRIG_BACKEND_CPU:
      if (ctx.cpu_isa == OPRIG_CPU_ISA_AVX512)
        return "AVX-512 FMA, 16 chains x 16 lanes, " + threads_text(ctx.cpu_threads);
      if (ctx.cpu_isa == OPRIG_CPU_ISA_AVX2)
        return "AVX2 FMA, 12 chains x 8 lanes, " + threads_text(ctx.cpu_threads);
      return "SSE multiply + add (no FMA at this ISA), 8 chains x 4 lanes, " + threads_text(ctx.cpu_threads);
    case OPRIG_BACKEND_OPENCL:
      return "8 chains of the device's native float vector per work-item";
    case OPRIG_BACKEND_VULKAN:
      return "scalar chains per invocation: 8 on a CPU driver, 16 on a GPU";
    default:
      return "";
  }
}

}  // namespace

std::filesystem::path built_calibration_package() { return OPRIG_CALIBRATION_PACKAGE_PATH; }

std::vector<uint64_t> bandwidth_ladder(uint64_t largest) {
  std::vector<uint64_t> sizes;
  for (uint64_t ws = 64 * kKiB; ws < largest; ws *= 4) sizes.push_back(ws);
  sizes.push_back(largest);
  return sizes;
}

Calibration run_calibration(const CalibrateOptions& options) {
  Calibration c;
  c.created_at = utc_now();
  c.oprig_version = OPRIG_VERSION;
  c.git_revision = this_build_git_revision();
  c.repetitions = options.repetitions;
  c.batch_seconds = options.batch_seconds;
  c.quick = options.quick;
  c.machine = describe_this_machine();

  std::unique_ptr<Package> package;
  try {
    package = Package::load(options.package);
  } catch (const PackageError& e) {
    throw PerfInputError(std::string("the calibration package: ") + e.what());
  }
  uint64_t largest = options.max_working_set;
  if (largest == 0) largest = std::clamp<uint64_t>(4 * c.machine.l3_bytes, 256 * kMiB, kGiB);
  if (options.quick) largest = std::min<uint64_t>(largest, 16 * kMiB);
  const std::vector<uint64_t> ladder = bandwidth_ladder(largest);

  const std::vector<std::string> known = backend_names();
  const std::vector<std::string> names = options.backends.empty() ? known : options.backends;
  for (const std::string& name : names) {
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw PerfInputError("unknown backend \"" + name + "\" (this build has: " + [&] {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        return list;
      }() + ")");
    BackendPeaks peaks;
    peaks.backend = name;
    std::string why;
    std::unique_ptr<Backend> backend = create_backend(name, &why);
    if (!backend) {
      peaks.available = false;
      peaks.unavailable_reason = why;
      c.backends.push_back(std::move(peaks));
      continue;
    }
    peaks.device = backend->info().device_name;
    peaks.driver = backend->info().driver_version;
    if (backend->kind() == OPRIG_BACKEND_DSP) {
      simulated_dsp_peaks(peaks);
      c.backends.push_back(std::move(peaks));
      continue;
    }
    peaks.timer = backend->info().device_timer ? "device" : "host wall";
    peaks.method = "org.oprig.calibration kernels through Backend::execute, rates from the times execute reports";
    std::string no_impl;
    const oprig_implementation_v1* impl = package->implementation(backend->kind(), &no_impl);
    if (impl == nullptr) {
      peaks.notes.push_back("no calibration kernels for this backend: " + no_impl);
      c.backends.push_back(std::move(peaks));
      continue;
    }
    peaks.fma_kernel = fma_kernel_text(*backend);
    measure_bandwidth(*backend, *impl, ladder, options, peaks);
    measure_fma(*backend, *impl, options, peaks);
    measure_launch(*backend, *impl, options, peaks);
    if (options.quick) peaks.notes.push_back("quick mode: working sets up to " + size_text(largest) + " only");
    c.backends.push_back(std::move(peaks));
  }
  return c;
}

}  // namespace oprig::perf
