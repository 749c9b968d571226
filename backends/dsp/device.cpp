// The dsp backend: a device whose memory is host memory with red zones and
// whose kernels run on the HVX simulator; time comes from the simulator's
// cycle count and the DMA model, never from host clocks.
#include <algorithm>
#include <cstring>
#include <string>

#include "buffer.hpp"
#include "dma_model.hpp"
#include "device.hpp"
#include "hvx_sim/cost_model.hpp"

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
  info.api_version = "HVX-like 128B vector ISA (simulated)";
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
    oprig_execute_info exec{};
    exec.struct_size = sizeof(oprig_execute_info);
    const oprig_status status =
        impl.execute(kernel, inputs.data(), inputs.size(), outputs.data(), outputs.size(), &exec);
    if (status != OPRIG_STATUS_OK) return status;
    timing.sim_cycles = exec.dsp_cycles;
    timing.compute_ns =
        static_cast<double>(exec.dsp_cycles) * 1e9 / static_cast<double>(hvx::kClockHz);
    return status;
  }

 private:
  DeviceInfo info_;
  oprig_backend_context context_{};
};

}  // namespace

std::unique_ptr<Backend> dsp::make_backend() { return std::make_unique<DspBackend>(); }

}  // namespace oprig
