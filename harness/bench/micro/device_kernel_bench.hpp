// The device half of an op's bench.cpp: BM_<Op>OpenCL and BM_<Op>Vulkan time
// the op's kernel on a device backend through the package ABI exactly as
// the harness runs it (KernelSession: create, prepare, resident device
// buffers, Backend::execute). Iteration time is the device time the backend
// measures (OpenCL profiling events, Vulkan timestamps; UseManualTime), the
// wall time of the whole execute is the wall_ms counter beside it, and
// bytes/flops come from the kernel's cost(). Compare a kernel with the
// same-run probe BM_AddConstant{OpenCL,Vulkan} (device_probe.cpp: y = x + c
// over 16M fp32 on the same API) or with the device's calibrated copy
// bandwidth (`oprig calibrate`).
#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "oprig/oprig_package.h"
#include "runner/kernel_session.hpp"

namespace oprig::bench {

struct DeviceKernel {
  std::unique_ptr<Backend> backend;
  std::unique_ptr<harness::KernelSession> session;
  std::string error;  // why there is no session
};

// The backend ("opencl", "vulkan") and the op's prepared kernel with its
// inputs resident, made on first use of `key` and kept for the process:
// Google Benchmark calls a benchmark several times, and a fresh context each
// time would rebuild the programs. make_inputs runs only on first use. Never
// destroyed (kept_until_exit.hpp: at exit the driver may already be gone).
DeviceKernel& device_kernel(const std::string& key, const std::string& backend, const std::string& op,
                            const harness::ParamList& params,
                            const std::function<std::vector<harness::HostTensor>()>& make_inputs,
                            std::vector<oprig_tensor> outputs);

// The timed loop: one execute per iteration, its device time as the
// iteration time; skips with the reason when the kernel is unavailable or
// an execute fails. `items` per execute sets items_per_second.
void time_device_kernel(benchmark::State& state, DeviceKernel& kernel, int64_t items);

// An output description: dtype and quantisation (the kernel writes the shape).
oprig_tensor output_of(oprig_dtype dtype, float scale = 0, int32_t zero_point = 0);

}  // namespace oprig::bench
