// Preparing a model for a backend and executing it.
//
//   Model m = load_model("m.json", packages);            // validates; throws ModelError
//   PreparedModel p = prepare(m, {&dsp, &cpu}, {&builtins}); // placement, kernels, memory plan
//   ExecutionResult r = p.execute(inputs, {.loop_timeout = 200ms});
//   if (r.status == ExecutionStatus::kMissedDeadline) ...  // no output is valid
//
// Thread safety: a PreparedModel is immutable after prepare(); execute() may
// be called from several threads at once. Each execution takes a private
// ExecutionState (operand buffers, loop state and one kernel instance per
// package op) from a pool guarded by a mutex, and returns it afterwards, so
// a kernel instance is only ever used by one thread at a time (the ABI's
// rule) and sequential executions reuse prepared kernels and buffers.
// On device backends (opencl, vulkan) each execution state owns a
// DeviceStream and the device buffers its operands live in.
// The backends passed to prepare() must outlive the PreparedModel.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "graph/builtin_kernel_map.hpp"
#include "graph/model.hpp"
#include "oprig/oprig_package.h"

namespace oprig {
class Backend;
}

namespace oprig::graph {

struct PreparedImpl;

// A tensor in host memory: an execution's inputs and outputs.
struct HostTensor {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  std::vector<int64_t> shape;
  float scale = 0;
  int32_t zero_point = 0;
  std::vector<std::byte> data;  // C order
};

// target: where package ops (and control flow whose subgraphs it fully
// supports) run; cpu: the fallback. They may be the same backend.
struct BackendSet {
  Backend* target = nullptr;
  Backend* cpu = nullptr;
};

struct PrepareOptions {
  // Device kernels of built-in operations (builtin_kernel_map.hpp); nullptr:
  // built-ins run on the host and control flow is placed on the target when
  // its package ops are (the placement of oprig before device built-ins).
  // Must outlive the PreparedModel.
  const BuiltinKernelMap* builtin_kernels = nullptr;
};

// Where one operation of one subgraph runs, as prepare() placed it. A
// subgraph may be planned twice (on the target and on cpu) when control flow
// on both reaches it; each plan lists its operations.
struct OperationPlacement {
  uint32_t subgraph = 0;
  uint32_t operation = 0;
  std::string op_name;  // "ADD", "WHILE", "org.oprig.opsuite:Atan"
  std::string backend;  // where it runs: "vulkan", "cpu" (host built-ins and fallbacks); IF/WHILE: the
                        // target only when everything under them runs there
  std::string kernel;   // a built-in on a device: the package op that computes it; else empty
};

// Thrown by prepare() when a model cannot run on the backends at all (e.g. a
// package op with neither a target nor a cpu kernel, or create() failing).
class PrepareError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The memory plan, summed over every subgraph plan.
struct MemoryStats {
  size_t planned_operands = 0;  // temporaries/outputs with shapes known at prepare, placed in arenas
  size_t buffers = 0;           // distinct arena buffers after liveness-based reuse
  size_t naive_bytes = 0;       // bytes with one buffer per planned operand
  size_t arena_bytes = 0;       // bytes actually reserved per execution state
  size_t dynamic_operands = 0;  // shapes known only at run time: growable buffers of their own
};

enum class ExecutionStatus {
  kOk,
  kMissedDeadline,  // a WHILE ran past the loop timeout (NNAPI MISSED_DEADLINE); no output is valid
  kInvalidInput,    // inputs do not match the main subgraph's inputs
  kError,           // an operation failed (message says which)
};
std::string_view execution_status_name(ExecutionStatus status);

using Nanoseconds = std::chrono::nanoseconds;
inline constexpr Nanoseconds kDefaultLoopTimeout = std::chrono::seconds(2);
inline constexpr Nanoseconds kMaxLoopTimeout = std::chrono::seconds(15);
// nullopt -> 2 s; larger than 15 s -> 15 s; negative -> 0.
Nanoseconds effective_loop_timeout(std::optional<Nanoseconds> requested);

// One operation output, as an observer sees it right after the operation ran.
struct OperandDump {
  std::string_view site;     // where in the call tree: "sg0", "sg0/op2.body[3]/sg2", ...
  uint32_t subgraph = 0;
  uint32_t operation = 0;
  uint32_t output_index = 0;
  uint32_t operand = 0;
  std::string_view op_name;  // "ADD", "org.oprig.opsuite:Atan"
  std::string_view backend;  // where the operation ran ("cpu" for built-ins)
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  std::span<const int64_t> shape;
  float scale = 0;
  int32_t zero_point = 0;
  std::span<const std::byte> data;
};
using OperandObserver = std::function<void(const OperandDump&)>;

struct ExecutionOptions {
  std::optional<Nanoseconds> loop_timeout;  // per execution, shared by nested loops; see effective_loop_timeout
  OperandObserver observer;                 // optional per-operand dump hook (slows execution)
};

// Bytes that crossed between host and device memory in one execution
// (opencl, vulkan; always zero on cpu and dsp, whose kernels take host
// memory). Values stay resident in device memory between device operations
// and loop iterations; they cross at placement boundaries (inputs up,
// outputs down, a host operation's inputs down), for every IF/WHILE
// condition read on the host, and for every operand an observer dumps.
struct TransferStats {
  uint64_t uploads = 0, upload_bytes = 0;
  uint64_t downloads = 0, download_bytes = 0;
  uint64_t device_copies = 0;  // device-to-device (loop-carried initial values)
};

struct ExecutionResult {
  ExecutionStatus status = ExecutionStatus::kOk;
  std::string message;              // empty when kOk
  std::vector<HostTensor> outputs;  // main subgraph outputs with resolved shapes; empty unless kOk
  Nanoseconds loop_timeout{0};      // the timeout that applied (after clamping)
  uint64_t loop_iterations = 0;     // WHILE body runs, all loops together
  Nanoseconds elapsed{0};
  TransferStats transfers;
};

class PreparedModel {
 public:
  ExecutionResult execute(std::span<const HostTensor> inputs, const ExecutionOptions& options = {}) const;

  // Why operations or control flow run somewhere other than the target, one
  // line each, e.g. "subgraph 0 operation 2 (WHILE) runs on cpu: ...".
  const std::vector<std::string>& placement_notes() const;
  // Every planned operation and where it runs, in plan order.
  const std::vector<OperationPlacement>& placements() const;
  MemoryStats memory_stats() const;
  const Model& model() const;
  std::string_view target_name() const;
  // How many execution states the pool holds (grows with concurrency only).
  size_t execution_states() const;

 private:
  friend PreparedModel prepare(const Model& model, const BackendSet& backends, const PrepareOptions& options);
  std::shared_ptr<PreparedImpl> impl_;
};

// Partitions, creates one kernel instance per package op (and per built-in
// placed on a device), and plans memory. With a built-in kernel map, a
// built-in runs on the target when the target has its kernel, and control
// flow goes to the target only if every operation (built-in or package op) in
// every subgraph it references, recursively, runs there; without one, only
// package ops decide. Otherwise the operation runs on cpu and
// placement_notes() says why. Throws PrepareError.
PreparedModel prepare(const Model& model, const BackendSet& backends, const PrepareOptions& options = {});

}  // namespace oprig::graph
