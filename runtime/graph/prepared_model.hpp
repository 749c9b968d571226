// Preparing a model for a backend and executing it.
//
//   Model m = load_model("m.json", packages);            // validates; throws ModelError
//   PreparedModel p = prepare(m, {&dsp, &cpu});           // placement, kernels, memory plan
//   ExecutionResult r = p.execute(inputs, {.loop_timeout = 200ms});
//   if (r.status == ExecutionStatus::kMissedDeadline) ...  // no output is valid
//
// Thread safety: a PreparedModel is immutable after prepare(); execute() may
// be called from several threads at once. Each execution takes a private
// ExecutionState (operand buffers, loop state and one kernel instance per
// package op) from a pool guarded by a mutex, and returns it afterwards, so
// a kernel instance is only ever used by one thread at a time (the ABI's
// rule) and sequential executions reuse prepared kernels and buffers.
// Device backends (opencl, vulkan) are driven under one mutex per backend.
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

struct ExecutionResult {
  ExecutionStatus status = ExecutionStatus::kOk;
  std::string message;              // empty when kOk
  std::vector<HostTensor> outputs;  // main subgraph outputs with resolved shapes; empty unless kOk
  Nanoseconds loop_timeout{0};      // the timeout that applied (after clamping)
  uint64_t loop_iterations = 0;     // WHILE body runs, all loops together
  Nanoseconds elapsed{0};
};

class PreparedModel {
 public:
  ExecutionResult execute(std::span<const HostTensor> inputs, const ExecutionOptions& options = {}) const;

  // Why operations or control flow run somewhere other than the target, one
  // line each, e.g. "subgraph 0 operation 2 (WHILE) runs on cpu: ...".
  const std::vector<std::string>& placement_notes() const;
  MemoryStats memory_stats() const;
  const Model& model() const;
  std::string_view target_name() const;
  // How many execution states the pool holds (grows with concurrency only).
  size_t execution_states() const;

 private:
  friend PreparedModel prepare(const Model& model, const BackendSet& backends);
  std::shared_ptr<PreparedImpl> impl_;
};

// Partitions (control flow goes to the target only if the target supports
// every package op in every subgraph it references, recursively), creates one
// kernel instance per package op, and plans memory. Throws PrepareError.
PreparedModel prepare(const Model& model, const BackendSet& backends);

}  // namespace oprig::graph
