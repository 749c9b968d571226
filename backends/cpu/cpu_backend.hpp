#pragma once

#include <optional>

#include "backend.hpp"
#include "cpu/host_buffer.hpp"
#include "cpu/thread_pool.hpp"

namespace oprig {

class CpuBackend final : public Backend {
 public:
  // Threads from OPRIG_CPU_THREADS, else one per host cpu.
  CpuBackend();
  // An explicit pool size (the calling thread counts as one), for benchmarks
  // and tests that compare thread counts in one process.
  explicit CpuBackend(unsigned threads);
  // And an explicit vector ISA for kernels, never wider than the host's (tests
  // compare the paths of a kernel in one process).
  CpuBackend(unsigned threads, std::optional<oprig_cpu_isa> isa);
  oprig_backend_kind kind() const override { return OPRIG_BACKEND_CPU; }
  const DeviceInfo& info() const override { return info_; }
  const oprig_backend_context& context() const override { return context_; }
  std::unique_ptr<DeviceBuffer> allocate(size_t bytes) override;
  double write(DeviceBuffer& dst, std::span<const std::byte> src) override;
  double read(const DeviceBuffer& src, std::span<std::byte> dst) override;
  oprig_status execute(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                       std::span<const oprig_tensor> inputs,
                       std::span<const oprig_tensor> outputs, ExecTiming& timing) override;

 private:
  CpuThreadPool pool_;
  DeviceInfo info_;
  oprig_backend_context context_{};
};

}  // namespace oprig
