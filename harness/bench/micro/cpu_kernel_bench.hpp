// The cpu half of an op's bench.cpp, as device_kernel_bench.hpp is the
// device half: BM_<Op>Cpu times the op's kernel on a CpuBackend of N worker
// threads through the package ABI (KernelSession: create, prepare, execute),
// wall time per execute. Used by the bench.cpp of Concat, Crop, Split,
// Pool2D, Resize, LayerNorm, RMSNorm, Quantize and Dequantize, which made
// and timed their sessions line for line alike.
#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cpu/cpu_backend.hpp"
#include "oprig/oprig_package.h"
#include "runner/kernel_session.hpp"

namespace oprig::bench {

struct CpuKernel {
  std::unique_ptr<CpuBackend> backend;
  std::unique_ptr<harness::KernelSession> session;
  std::string error;  // why there is no usable session
};

// A CpuBackend of `threads` and the op's prepared kernel, made on first use
// of (`key`, `threads`) and kept for the process (Google Benchmark calls a
// benchmark several times). make_inputs runs only on first use.
CpuKernel& cpu_kernel(const std::string& key, unsigned threads, const std::string& op,
                      const harness::ParamList& params,
                      const std::function<std::vector<harness::HostTensor>()>& make_inputs,
                      std::vector<oprig_tensor> outputs);

// The timed loop: one execute per iteration. False, the row skipped with the
// reason, when the kernel is unavailable; an execute that fails skips the
// row as "execute failed". The caller sets bytes and items after it.
bool time_cpu_kernel(benchmark::State& state, CpuKernel& kernel);

}  // namespace oprig::bench
