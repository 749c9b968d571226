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
// constants and bound inputs (they alias the model or the caller), except to
// download a device-resident value into the host storage reserved for it.
//
// Residency (opencl, vulkan): a value lives in host memory (`data`), in a
// device buffer (`device`), or both; the flags say which copy holds it. Host
// steps read `data` after a download where needed, device steps read
// `device` after an upload where needed, and each step's outputs are valid
// only where it wrote them. On cpu and dsp values are always on the host.
struct Value {
  std::byte* data = nullptr;  // host storage, sized for the value even while only the device holds it
  size_t bytes = 0;
  Shape shape;
  bool present = false;  // false: NO_VALUE, or not yet written
  bool on_host = true;
  bool on_device = false;
  DeviceBuffer* device = nullptr;  // owned by a frame or a loop slot
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
  uint32_t kernel_node = 0;  // package ops and built-ins on a device: PreparedImpl::nodes
  uint32_t callee_a = 0;     // IF: then plan; WHILE: condition plan
  uint32_t callee_b = 0;     // IF: else plan; WHILE: body plan
  // A host step (built-in host kernel) in a model that also has device
  // steps: its inputs are downloaded first where only the device holds them.
  bool host_inputs = false;
  // IF/WHILE whose callee plans run entirely in device memory: loop values
  // and arguments are kept there (loop-carried values in device slots).
  bool callees_on_device = false;
  const char* backend = "cpu";  // where it runs, for dumps
};

// One subgraph compiled for one placement (target or cpu).
struct Plan {
  uint32_t subgraph = 0;
  bool on_target = false;
  bool all_on_target = false;  // every step (recursively) runs on the target backend
  Backend* backend = nullptr;  // for its package ops
  const Subgraph* decl = nullptr;
  std::vector<OperandInfo> operands;
  std::vector<Step> steps;
  size_t arena_bytes = 0;
};

// How a built-in's inputs are handed to the package op that computes it.
enum class InputAdapter : uint8_t {
  kNone,
  // Elementwise built-ins broadcast one side of a single element; the
  // package ops broadcast as NumPy does. A one-element input whose NumPy
  // broadcast would not give the built-in's result shape is passed as rank 0.
  kOneElementAsScalar,
};

// A package op of some plan (or a built-in placed on a device, computed by a
// package op), with its kernel resolved once at prepare.
struct PackageNode {
  const Operation* op = nullptr;  // outputs (and inputs, for the memory plan)
  std::vector<uint32_t> inputs;   // the operands the kernel takes: op->inputs, or a mapped built-in's subset
  std::vector<uint32_t> resolve_inputs;  // positions in `inputs` whose values resolve_shapes() reads; empty: all
  uint32_t plan = 0;
  Backend* backend = nullptr;
  bool host_memory = true;  // cpu and dsp take host pointers; others get device buffers
  const oprig_implementation_v1* impl = nullptr;
  std::string op_name;             // the op in its package's registration
  std::string display_name;        // "ADD (org.oprig.opsuite:ElementwiseBinary)" or op->display_name()
  std::vector<Param> param_values;  // built-ins on a device: the map's parameters
  std::vector<oprig_param> params;  // point into op->params or param_values
  InputAdapter adapter = InputAdapter::kNone;
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
  int scalar_input = -1;               // InputAdapter::kOneElementAsScalar: the input passed as rank 0, if any
  KernelInstance() = default;
  KernelInstance(KernelInstance&& other) noexcept;
  KernelInstance& operator=(KernelInstance&&) = delete;
  ~KernelInstance();
};

// Loop-carried and loop-state-only values of one WHILE, owned by the frame.
// A loop whose body runs in device memory keeps them in `device`: after each
// iteration the slot takes the body output's buffer and gives the body its
// own in exchange, so nothing is copied.
struct LoopSlot {
  std::vector<std::byte> storage;
  std::unique_ptr<DeviceBuffer> device;
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
  std::vector<std::unique_ptr<DeviceBuffer>> device;  // per operand, allocated on first use on a device
};

struct ExecutionState {
  std::vector<Frame> frames;  // one per plan
  std::vector<KernelInstance> kernels;  // one per PackageNode
  std::unique_ptr<DeviceStream> stream;  // the target's, opened on first device use
  // Buffers replaced while device work may still use them: freed once the
  // stream has waited (vulkan must not free a buffer a pending batch reads).
  std::vector<std::unique_ptr<DeviceBuffer>> retired;
};

struct PreparedImpl {
  Model model;
  BackendSet backends;
  std::string target_name;
  std::vector<Plan> plans;
  uint32_t main_plan = 0;
  std::vector<PackageNode> nodes;
  std::vector<std::string> notes;
  std::vector<OperationPlacement> placements;
  MemoryStats stats;
  bool device_memory = false;  // some step runs in device memory (the target is opencl or vulkan)

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
  TransferStats transfers;
};

// device_values.cpp: the built-ins' one-element broadcast handed to a
// package op that broadcasts as NumPy does (InputAdapter::kOneElementAsScalar):
// a one-element side whose NumPy broadcast would not give the built-in's
// result shape (shape_rules::broadcast) becomes rank 0.
void adapt_one_element(oprig_tensor& a, oprig_tensor& b);

// device_values.cpp: residency. Each returns false with x.error set when the
// device refuses (the caller turns it into a step error).
DeviceStream& stream_of(Exec& x);
bool to_host(Exec& x, Value& v);
// Uploads into `owner` (allocated or resized to fit) unless already on the device.
bool to_device(Exec& x, Value& v, std::unique_ptr<DeviceBuffer>& owner);
// The frame's device buffer for operand k, of exactly max(bytes, 1) bytes.
DeviceBuffer* frame_buffer(Exec& x, Frame& f, uint32_t k, size_t bytes);
// Makes `owner` a buffer of exactly max(bytes, 1), retiring the old one.
DeviceBuffer* sized_buffer(Exec& x, std::unique_ptr<DeviceBuffer>& owner, size_t bytes);
// After the stream has waited: frees retired buffers.
void release_retired(Exec& x);
// Binds and enqueues a device kernel whose descriptors are set (inputs
// uploaded as needed); marks the outputs device-resident.
oprig_status device_enqueue(Exec& x, Frame& f, const Step& s, KernelInstance& ki);

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
