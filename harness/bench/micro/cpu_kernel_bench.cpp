#include "cpu_kernel_bench.hpp"

#include <map>

namespace oprig::bench {

CpuKernel& cpu_kernel(const std::string& key, unsigned threads, const std::string& op,
                      const harness::ParamList& params,
                      const std::function<std::vector<harness::HostTensor>()>& make_inputs,
                      std::vector<oprig_tensor> outputs) {
  static std::map<std::string, CpuKernel> kernels;
  auto [it, fresh] = kernels.try_emplace(key + "/threads:" + std::to_string(threads));
  CpuKernel& k = it->second;
  if (!fresh) return k;
  k.backend = std::make_unique<CpuBackend>(threads);
  const oprig_implementation_v1* impl = harness::opsuite_implementation(OPRIG_BACKEND_CPU, &k.error);
  if (impl == nullptr) return k;
  k.session = std::make_unique<harness::KernelSession>(*k.backend, *impl, op, params, make_inputs(),
                                                       std::move(outputs));
  if (!k.session->ok()) k.error = k.session->error();
  return k;
}

bool time_cpu_kernel(benchmark::State& state, CpuKernel& kernel) {
  if (!kernel.error.empty()) {
    state.SkipWithError(kernel.error.c_str());
    return false;
  }
  for (auto _ : state)
    if (kernel.session->run() != OPRIG_STATUS_OK) state.SkipWithError("execute failed");
  return true;
}

}  // namespace oprig::bench
