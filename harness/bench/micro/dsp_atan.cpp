// BM_AtanDsp: the Atan UINT_8 kernel on the dsp backend (HVX simulator),
// loaded through the package ABI. Two kinds of figures, never mixed:
//   sim_*  — simulated DSP: cycles from the cost model (backends/dsp/
//            cost_model.md) at the nominal clock;
//   the time columns and host_sim_elem_per_s — host time of the simulator
//            itself (how long simulating took on this CPU), NOT DSP time.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "factories.hpp"
#include "runner/kernel_session.hpp"

namespace {

void BM_AtanDsp(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  std::string why;
  const oprig_implementation_v1* impl = oprig::harness::opsuite_implementation(OPRIG_BACKEND_DSP, &why);
  std::unique_ptr<oprig::Backend> backend = impl != nullptr ? oprig::create_dsp_backend(&why) : nullptr;
  if (backend == nullptr) {
    state.SkipWithError(("no dsp Atan: " + why).c_str());
    return;
  }

  const float offset = 0.0f;
  const oprig_param param{"offset", OPRIG_DTYPE_FLOAT_32, 1, &offset};
  oprig_kernel* kernel = nullptr;
  oprig_tensor in{}, out{};
  in.dtype = out.dtype = OPRIG_DTYPE_UINT_8;
  in.rank = 1;
  in.dims[0] = static_cast<int64_t>(n);
  in.scale = 20.0f / 255.0f;  // x in about [-10, 10]
  in.zero_point = 128;
  out.scale = static_cast<float>(std::numbers::pi / 255.0);
  out.zero_point = 128;
  auto src = backend->allocate(n);
  auto dst = backend->allocate(n);
  std::vector<std::byte> codes(n);
  for (size_t i = 0; i < n; ++i) codes[i] = std::byte(i * 37 + 11);
  backend->write(*src, codes);
  if (impl->create(&backend->context(), "Atan", &param, 1, &kernel) != OPRIG_STATUS_OK ||
      impl->prepare(kernel, &in, 1, &out, 1) != OPRIG_STATUS_OK) {
    state.SkipWithError("Atan create/prepare failed");
  } else {
    src->bind(in);
    dst->bind(out);
    oprig::ExecTiming timing;
    for (auto _ : state) {
      if (backend->execute(*impl, kernel, {&in, 1}, {&out, 1}, timing) != OPRIG_STATUS_OK) {
        state.SkipWithError("execute failed");
        break;
      }
    }
    const double cycles = static_cast<double>(timing.sim_cycles);
    const double clock_hz = static_cast<double>(backend->context().dsp_clock_hz);
    state.counters["sim_cycles"] = cycles;
    state.counters["sim_cycles_per_elem"] = cycles / static_cast<double>(n);
    state.counters["sim_Gelem_per_s"] = static_cast<double>(n) / (cycles / clock_hz) / 1e9;
    state.counters["host_sim_elem_per_s"] = benchmark::Counter(
        static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
    state.SetLabel("time columns = host time of the simulator; sim_* = simulated HVX @ " +
                   std::to_string(static_cast<uint64_t>(clock_hz / 1e6)) + " MHz");
  }
  if (kernel != nullptr) impl->destroy(kernel);
}

BENCHMARK(BM_AtanDsp)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
