// The cpu backend: the host is the device. Memory is host memory with red
// zones; execution time is host wall time (DeviceInfo::device_timer = false).
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <Eigen/Core>

#include "core/host_info.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"

namespace oprig {
namespace {

unsigned configured_threads() {
  // OPRIG_CPU_THREADS pins the pool size (benchmarks compare 1 and 2 threads).
  if (const char* env = std::getenv("OPRIG_CPU_THREADS")) {
    const int n = std::atoi(env);
    if (n > 0) return static_cast<unsigned>(n);
  }
  return host_cpu_count();
}

}  // namespace

CpuBackend::CpuBackend() : CpuBackend(configured_threads()) {}

CpuBackend::CpuBackend(unsigned threads) : CpuBackend(threads, std::nullopt) {}

CpuBackend::CpuBackend(unsigned threads, std::optional<oprig_cpu_isa> isa) : pool_(threads) {
  std::string isa_note;
  const oprig_cpu_isa kernel_isa = effective_cpu_isa(isa, &isa_note);
  info_.backend = "cpu";
  info_.available = true;
  info_.device_name = host_cpu_model() + " (" + std::to_string(pool_.threads()) + " threads)";
  info_.vendor = "host";
  info_.driver_version = "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." +
                         std::to_string(EIGEN_MAJOR_VERSION) + "." +
                         std::to_string(EIGEN_MINOR_VERSION) + " thread pool, " +
                         cpu_isa_name(kernel_isa) + (isa_note.empty() ? "" : " (" + isa_note + ")");
  info_.api_version = "oprig cpu";
  info_.dtypes = {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16, OPRIG_DTYPE_FLOAT_64, OPRIG_DTYPE_INT_8,
                  OPRIG_DTYPE_INT_16,   OPRIG_DTYPE_INT_32,   OPRIG_DTYPE_INT_64,   OPRIG_DTYPE_UINT_8,
                  OPRIG_DTYPE_UINT_16,  OPRIG_DTYPE_UINT_32,  OPRIG_DTYPE_UINT_64,  OPRIG_DTYPE_BOOL_8};
  info_.deterministic = true;
  info_.device_timer = false;

  context_.struct_size = sizeof context_;
  context_.kind = OPRIG_BACKEND_CPU;
  context_.cpu_pool = &pool_;
  context_.cpu_parallel_for = &CpuThreadPool::parallel_for_abi;
  context_.cpu_threads = pool_.threads();
  context_.cpu_isa = kernel_isa;
}

std::unique_ptr<DeviceBuffer> CpuBackend::allocate(size_t bytes) {
  return std::make_unique<HostBuffer>(bytes, 64);
}

double CpuBackend::write(DeviceBuffer& dst, std::span<const std::byte> src) {
  auto& buffer = static_cast<HostBuffer&>(dst);
  const auto start = std::chrono::steady_clock::now();
  if (!src.empty()) std::memcpy(buffer.data(), src.data(), std::min(src.size(), buffer.bytes()));
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

double CpuBackend::read(const DeviceBuffer& src, std::span<std::byte> dst) {
  const auto& buffer = static_cast<const HostBuffer&>(src);
  const auto start = std::chrono::steady_clock::now();
  if (!dst.empty()) std::memcpy(dst.data(), buffer.data(), std::min(dst.size(), buffer.bytes()));
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

oprig_status CpuBackend::execute(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                                 std::span<const oprig_tensor> inputs,
                                 std::span<const oprig_tensor> outputs, ExecTiming& timing) {
  oprig_execute_info info{};
  info.struct_size = sizeof info;
  const auto start = std::chrono::steady_clock::now();
  const oprig_status status =
      impl.execute(kernel, inputs.data(), inputs.size(), outputs.data(), outputs.size(), &info);
  timing.compute_ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  timing.sim_cycles = 0;
  return status;
}

}  // namespace oprig
