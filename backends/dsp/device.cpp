// The dsp backend: a device whose memory is host memory with red zones and
// whose kernels run on the HVX simulator. Each execute() gets a fresh
// simulator with the inputs mapped readable and the outputs writable, bound
// to the calling thread (oprig_dsp.h reaches it there); time comes from its
// cycle count and the DMA model, never from host clocks, and a fault it
// recorded fails the execution with its message, whatever the kernel returns.
#include <algorithm>
#include <cstring>
#include <string>

#include "buffer.hpp"
#include "dma_model.hpp"
#include "device.hpp"
#include "hvx_sim/cost_model.hpp"
#include "hvx_sim/simulator.hpp"

namespace oprig {
namespace {

DeviceInfo make_info() {
  DeviceInfo info;
  info.backend = "dsp";
  info.available = true;
  info.device_name = "oprig HVX simulator (128B)";
  info.vendor = "oprig";
  info.driver_version = std::string(hvx::kSimulatorVersion) + ", cost model " +
                        std::to_string(hvx::kCostModelVersion) + " @ " +
                        std::to_string(hvx::kClockHz / 1'000'000) + " MHz";
  info.api_version = "Hexagon HVX 128B intrinsics (oprig_dsp.h v" + std::to_string(OPRIG_DSP_API_VERSION) + ", " +
                     std::to_string(OPRIG_DSP_NUM_OPCODES) + " instructions, simulated)";
  info.dtypes = {OPRIG_DTYPE_UINT_8, OPRIG_DTYPE_INT_8, OPRIG_DTYPE_UINT_16, OPRIG_DTYPE_INT_16,
                 OPRIG_DTYPE_INT_32, OPRIG_DTYPE_BOOL_8};
  info.deterministic = true;
  info.device_timer = true;  // simulated cycles, see cost_model.md
  return info;
}

class DspBackend final : public Backend {
 public:
  DspBackend() : info_(make_info()) {
    context_.struct_size = sizeof(oprig_backend_context);
    context_.kind = OPRIG_BACKEND_DSP;
    context_.dsp_clock_hz = hvx::kClockHz;
    context_.dsp = &hvx::api();
  }

  oprig_backend_kind kind() const override { return OPRIG_BACKEND_DSP; }
  const DeviceInfo& info() const override { return info_; }
  const oprig_backend_context& context() const override { return context_; }

  std::unique_ptr<DeviceBuffer> allocate(size_t bytes) override {
    return std::make_unique<dsp::DspBuffer>(bytes);
  }

  double write(DeviceBuffer& dst, std::span<const std::byte> src) override {
    auto& buffer = static_cast<dsp::DspBuffer&>(dst);
    const size_t n = std::min(src.size(), buffer.bytes());
    if (n > 0) std::memcpy(buffer.data(), src.data(), n);
    return dsp::dma_time_ns(n);
  }

  double read(const DeviceBuffer& src, std::span<std::byte> dst) override {
    const auto& buffer = static_cast<const dsp::DspBuffer&>(src);
    const size_t n = std::min(dst.size(), buffer.bytes());
    if (n > 0) std::memcpy(dst.data(), buffer.data(), n);
    return dsp::dma_time_ns(n);
  }

  oprig_status execute(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                       std::span<const oprig_tensor> inputs,
                       std::span<const oprig_tensor> outputs, ExecTiming& timing) override {
    hvx::Simulator sim;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].data != nullptr) sim.map(inputs[i].data, inputs[i].bytes, false, "input " + std::to_string(i));
    for (size_t i = 0; i < outputs.size(); ++i)
      if (outputs[i].data != nullptr) sim.map(outputs[i].data, outputs[i].bytes, true, "output " + std::to_string(i));
    oprig_execute_info exec{};
    exec.struct_size = sizeof(oprig_execute_info);
    oprig_status status;
    {
      const hvx::Simulator::Binding binding(sim);
      status = impl.execute(kernel, inputs.data(), inputs.size(), outputs.data(), outputs.size(), &exec);
    }
    if (sim.faulted()) {
      timing.failure = "the DSP faulted: " + sim.fault();
      return OPRIG_STATUS_BACKEND_ERROR;
    }
    if (status != OPRIG_STATUS_OK) return status;
    // A kernel on oprig_dsp.h is timed by the simulator it ran on; one that
    // carries its own simulator (built before oprig_dsp.h) reports its cycles.
    timing.sim_cycles = sim.used() ? sim.cycles() : exec.dsp_cycles;
    timing.compute_ns =
        static_cast<double>(timing.sim_cycles) * 1e9 / static_cast<double>(hvx::kClockHz);
    return status;
  }

 private:
  DeviceInfo info_;
  oprig_backend_context context_{};
};

}  // namespace

std::unique_ptr<Backend> dsp::make_backend() { return std::make_unique<DspBackend>(); }

}  // namespace oprig
