// Internal: what prepare() builds (plans, steps, kernel nodes) and what each
// execution owns (frames, kernel instances). Not part of the public API.
#pragma once

#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend.hpp"
#include "graph/prepared_model.hpp"

namespace oprig::graph {

// A run-time shape; rank <= OPRIG_MAX_RANK is guaranteed by validation.
struct Shape {
  uint32_t rank = 0;
  int64_t dims[OPRIG_MAX_RANK] = {};
  size_t elements() const {
    size_t n = 1;
    for (uint32_t i = 0; i < rank; ++i) n *= static_cast<size_t>(dims[i]);
    return n;
  }
  friend bool operator==(const Shape& a, const Shape& b) {
    return a.rank == b.rank && std::memcmp(a.dims, b.dims, sizeof(int64_t) * a.rank) == 0;
  }
};

// An operand's value in one frame. `data` is never written through for
// constants and bound inputs (they alias the model or the caller).
struct Value {
  std::byte* data = nullptr;
  size_t bytes = 0;
  Shape shape;
  bool present = false;  // false: NO_VALUE, or not yet written
};

enum class Storage : uint8_t { kConstant, kArena, kDynamic, kInput, kNoValue, kSubgraphRef };

struct OperandInfo {
  const Operand* decl = nullptr;
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  size_t element_size = 0;
  Storage storage = Storage::kDynamic;
  size_t arena_offset = 0;
  Shape static_shape;  // kArena and kConstant
};

struct Exec;
struct Frame;
struct Step;
enum class StepStatus : uint8_t { kOk, kMissedDeadline, kError };
using StepFn = StepStatus (*)(Exec&, Frame&, const Step&);

struct Step {
  StepFn run = nullptr;
  const Operation* op = nullptr;
  uint32_t operation = 0;    // index in the subgraph
  uint32_t index = 0;        // index in the plan
  uint32_t kernel_node = 0;  // package ops: PreparedImpl::nodes
  uint32_t callee_a = 0;     // IF: then plan; WHILE: condition plan
  uint32_t callee_b = 0;     // IF: else plan; WHILE: body plan
};

// One subgraph compiled for one placement (target or cpu).
struct Plan {
  uint32_t subgraph = 0;
  bool on_target = false;
  Backend* backend = nullptr;  // for its package ops
  const Subgraph* decl = nullptr;
  std::vector<OperandInfo> operands;
  std::vector<Step> steps;
  size_t arena_bytes = 0;
};

// A package op of some plan, with its kernel resolved once at prepare.
struct PackageNode {
  const Operation* op = nullptr;
  uint32_t plan = 0;
  Backend* backend = nullptr;
  bool host_memory = true;  // cpu and dsp take host pointers; others get device buffers
  const oprig_implementation_v1* impl = nullptr;
  std::vector<oprig_param> params;  // point into op->params
};

struct KernelInstance {
  const oprig_implementation_v1* impl = nullptr;
  oprig_kernel* kernel = nullptr;
  bool prepared = false;
  std::vector<Shape> prepared_inputs;
  std::vector<oprig_tensor> in_desc, out_desc;
  std::vector<Shape> out_shapes;       // from prepare(); -1 = data dependent
  bool data_dependent = false;         // some out_shapes dim is -1: resolve_shapes() before every execute
  std::vector<Shape> resolved_shapes;  // from the last resolve_shapes()
  std::vector<std::unique_ptr<DeviceBuffer>> in_buf, out_buf;
  KernelInstance() = default;
  KernelInstance(KernelInstance&& other) noexcept;
  KernelInstance& operator=(KernelInstance&&) = delete;
  ~KernelInstance();
};

// Loop-carried and loop-state-only values of one WHILE, owned by the frame.
struct LoopSlot {
  std::vector<std::byte> storage;
  Value value;
};

inline constexpr size_t kArenaAlignment = 64;
struct ArenaDelete {
  void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t{kArenaAlignment}); }
};

struct Frame {
  const Plan* plan = nullptr;
  std::vector<Value> values;
  std::unique_ptr<std::byte[], ArenaDelete> arena;
  std::vector<std::vector<std::byte>> dynamic;  // per operand, kDynamic only
  std::vector<std::vector<LoopSlot>> loops;     // per step, WHILE only
};

struct ExecutionState {
  std::vector<Frame> frames;  // one per plan
  std::vector<KernelInstance> kernels;  // one per PackageNode
};

struct PreparedImpl {
  Model model;
  BackendSet backends;
  std::string target_name;
  std::vector<Plan> plans;
  uint32_t main_plan = 0;
  std::vector<PackageNode> nodes;
  std::vector<std::string> notes;
  MemoryStats stats;
  std::unique_ptr<std::mutex> device_mutex = std::make_unique<std::mutex>();

  mutable std::mutex pool_mutex;
  mutable std::vector<std::unique_ptr<ExecutionState>> pool;
  mutable size_t states_created = 0;

  std::unique_ptr<ExecutionState> make_state() const;  // throws PrepareError
};

// Per-execution context handed to every step.
struct Exec {
  const PreparedImpl& impl;
  ExecutionState& state;
  std::chrono::steady_clock::time_point deadline;
  const OperandObserver* observer = nullptr;  // nullptr: no dumps
  std::string error;
  std::string site;  // call-tree position, maintained only when observing
  uint64_t iterations = 0;
  Nanoseconds timeout{0};
};

// executor.cpp
StepStatus run_plan(Exec& x, Frame& frame);
StepStatus run_package_op(Exec& x, Frame& f, const Step& s);
StepStatus run_if(Exec& x, Frame& f, const Step& s);
StepStatus run_while(Exec& x, Frame& f, const Step& s);
// Makes output j of the step hold `shape` (checking the declaration) and returns it; nullptr + x.error on mismatch.
Value* make_output(Exec& x, Frame& f, const Step& s, size_t j, const Shape& shape);
StepStatus step_error(Exec& x, const Frame& f, const Step& s, const std::string& reason);
Shape shape_from_dims(const std::vector<int64_t>& dims);

// builtin_kernels.cpp: the host kernel for a built-in, chosen by operand types.
StepFn builtin_kernel(BuiltinOp op, const Plan& plan, const Operation& operation);

}  // namespace oprig::graph
