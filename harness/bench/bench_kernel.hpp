// One kernel instance set up for `oprig bench`: created and prepared once,
// its inputs in device memory in one or two sets with different contents
// (the timed loop alternates between them), its outputs bound, and the
// one-off costs (create/compile, prepare, host->device, device->host) timed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "cases/case.hpp"
#include "cases/tensor_data.hpp"
#include "runner/abi_params.hpp"
#include "runner/oracle.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {

struct ExecuteSample {
  oprig_status status = OPRIG_STATUS_OK;
  double clock_ns = 0;  // the backend's timing: device clock, dsp cost model, or host wall on cpu
  double wall_ns = 0;   // host wall time around Backend::execute (launch and wait included)
  uint64_t sim_cycles = 0;
};

// Inputs of one content, on the host and on the device, with their expected outputs.
struct InputSet {
  uint64_t seed = 0;
  std::vector<TensorData> data;
  std::vector<Expected> expected;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;  // per input; null for an absent optional input
  std::vector<oprig_tensor> tensors;
};

struct BenchKernel {
  BenchKernel() = default;
  BenchKernel(const BenchKernel&) = delete;
  BenchKernel& operator=(const BenchKernel&) = delete;
  ~BenchKernel();

  Backend* backend = nullptr;
  const oprig_implementation_v1* impl = nullptr;
  oprig_kernel* kernel = nullptr;
  Case c;
  const LoadedOp* op = nullptr;
  std::unique_ptr<AbiParams> params;
  std::vector<InputSet> input_sets;  // 1 or 2
  std::string why_one_input_set;     // when only one
  // prepare() left an output dimension to the values: resolve_shapes() runs
  // before every execute, as the ABI asks, outside the clocked interval.
  bool resolve_each_execute = false;
  // setup_bench_kernel() failed because the kernel refused (create, prepare,
  // resolve_shapes or execute not OK on inputs its correctness run passed):
  // a defect of the kernel, not a benchmark that could not be arranged.
  bool kernel_refused = false;
  std::vector<std::unique_ptr<DeviceBuffer>> out_buffers;
  std::vector<oprig_tensor> out;
  std::vector<size_t> out_bytes;
  uint64_t bytes = 0, elements = 0;        // read + written, output elements; one execute
  uint64_t cost_flops = 0, cost_bytes = 0; // the package's cost function; 0 without one
  double create_ns = 0, prepare_ns = 0, h2d_ns = 0, d2h_ns = 0;
  double setup_execute_wall_ns = 0;  // one execute during setup: the first estimate of its cost

  ExecuteSample execute(size_t input_set);
  // Moves every input and output into newly allocated buffers (contents
  // rewritten, tensors rebound), then frees the old ones. Where a tensor's
  // memory lands changes its speed (page placement: a memory-bound kernel's
  // median moved by 20 % between processes here, while the repetitions of
  // one process agreed within 2 %); moving before each repetition makes the
  // repetitions sample that spread instead of one draw of it.
  void relocate();
  // Destroys the kernel and frees every buffer and host copy; the figures stay.
  void release();
};

// Host inputs with a given seed and, `with_expected`, their expected outputs
// (the oracle's cost: seconds for 16M elements). False (with why) when the
// inputs cannot be made or the oracle cannot judge them.
bool make_input_set(const BenchKernel& k, uint64_t seed, bool with_expected, InputSet& set, std::string* why);
// Writes a set's inputs into device memory (new buffers, or the set's own when
// it has them) and binds its tensors. Returns the host->device time in ns.
double upload_input_set(BenchKernel& k, InputSet& set);

// `same_inputs`: another kernel's first input set of the same case (its host
// data and expected outputs, not its buffers), copied instead of made again:
// the base side of an A/B bench times the same inputs, without a second pass
// of the oracle.
bool setup_bench_kernel(BenchKernel& k, const Case& c, const LoadedOp& op, Backend& backend,
                        const oprig_implementation_v1& impl, std::string* why, const InputSet* same_inputs = nullptr);

// A seed for the n-th other content of a case's inputs.
uint64_t varied_seed(uint64_t case_seed, unsigned n);

}  // namespace oprig::harness
