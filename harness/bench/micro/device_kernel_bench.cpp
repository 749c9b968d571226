#include "device_kernel_bench.hpp"

#include <chrono>
#include <map>

#include "kept_until_exit.hpp"
#include "registry.hpp"

namespace oprig::bench {

DeviceKernel& device_kernel(const std::string& key, const std::string& backend, const std::string& op,
                            const harness::ParamList& params,
                            const std::function<std::vector<harness::HostTensor>()>& make_inputs,
                            std::vector<oprig_tensor> outputs) {
  static auto& kernels = kept_until_exit<std::map<std::string, DeviceKernel>>();  // never destroyed: see there
  auto [it, fresh] = kernels.try_emplace(backend + "/" + key);
  DeviceKernel& k = it->second;
  if (!fresh) return k;
  k.backend = create_backend(backend, &k.error);
  if (k.backend == nullptr) return k;
  const oprig_implementation_v1* impl = harness::opsuite_implementation(k.backend->kind(), &k.error);
  if (impl == nullptr) return k;
  auto session = std::make_unique<harness::KernelSession>(*k.backend, *impl, op, params, make_inputs(),
                                                          std::move(outputs));
  if (!session->ok()) {
    k.error = session->error();
    return k;
  }
  k.session = std::move(session);
  return k;
}

void time_device_kernel(benchmark::State& state, DeviceKernel& kernel, int64_t items) {
  if (kernel.session == nullptr) {
    state.SkipWithError(("unavailable: " + kernel.error).c_str());
    return;
  }
  double wall_ns = 0;
  for (auto _ : state) {
    ExecTiming timing;
    const auto start = std::chrono::steady_clock::now();
    const oprig_status status = kernel.session->run(&timing);
    wall_ns += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    if (status != OPRIG_STATUS_OK) {
      state.SkipWithError(("execute failed with status " + std::to_string(status)).c_str());
      return;
    }
    state.SetIterationTime(timing.compute_ns * 1e-9);
  }
  const auto iterations = static_cast<int64_t>(state.iterations());
  if (iterations == 0) return;
  oprig_cost cost{};
  // The ABI's cost() is optional; without it the row has no bytes or flops.
  const oprig_implementation_v1* impl = harness::opsuite_implementation(kernel.backend->kind(), nullptr);
  if (impl != nullptr && impl->cost != nullptr) impl->cost(kernel.session->kernel(), &cost);
  state.SetItemsProcessed(iterations * items);
  state.SetBytesProcessed(iterations * static_cast<int64_t>(cost.bytes_read + cost.bytes_written));
  state.counters["wall_ms"] = benchmark::Counter(wall_ns * 1e-6 / static_cast<double>(iterations));
  state.counters["flops"] = benchmark::Counter(static_cast<double>(cost.flops) * static_cast<double>(iterations),
                                               benchmark::Counter::kIsRate);
  state.SetLabel(kernel.backend->info().device_name);
}

oprig_tensor output_of(oprig_dtype dtype, float scale, int32_t zero_point) {
  oprig_tensor t{};
  t.dtype = dtype;
  t.scale = scale;
  t.zero_point = zero_point;
  return t;
}

}  // namespace oprig::bench
