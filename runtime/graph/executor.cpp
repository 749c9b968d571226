// The interpreter: runs the steps of a plan, control flow and package ops,
// with the loop deadline shared by every WHILE of one execution.
#include <algorithm>
#include <cstring>
#include <exception>

#include "core/dtype.hpp"
#include "graph/runtime_types.hpp"
#include "graph/shape_rules.hpp"
#include "package/loader.hpp"

namespace oprig::graph {
namespace {

using Clock = std::chrono::steady_clock;

std::string shape_text(const Shape& s) {
  std::string t = "[";
  for (uint32_t i = 0; i < s.rank; ++i) t += (i ? "," : "") + std::to_string(s.dims[i]);
  return t + "]";
}

bool shape_fits(const std::optional<std::vector<int64_t>>& dims, const Shape& s) {
  if (!dims) return true;
  if (dims->size() != s.rank) return false;
  for (uint32_t i = 0; i < s.rank; ++i)
    if ((*dims)[i] != 0 && (*dims)[i] != s.dims[i]) return false;
  return true;
}

void observe(Exec& x, const Frame& f, const Step& s) {
  for (size_t j = 0; j < s.op->outputs.size(); ++j) {
    const uint32_t k = s.op->outputs[j];
    const Value& v = f.values[k];
    const Operand& d = *f.plan->operands[k].decl;
    const std::string name = s.op->display_name();
    OperandDump dump;
    dump.site = x.site;
    dump.subgraph = f.plan->subgraph;
    dump.operation = s.operation;
    dump.output_index = static_cast<uint32_t>(j);
    dump.operand = k;
    dump.op_name = name;
    dump.backend = s.backend;
    dump.dtype = d.dtype;
    dump.shape = std::span<const int64_t>(v.shape.dims, v.shape.rank);
    dump.scale = d.scale;
    dump.zero_point = d.zero_point;
    dump.data = std::span<const std::byte>(v.data, v.present ? v.bytes : 0);
    (*x.observer)(dump);
  }
}

// Binds a caller's value to a callee's input operand (no copy: the callee
// never writes its inputs).
bool bind_input(Exec& x, Frame& callee, size_t j, const Value& v) {
  const uint32_t k = callee.plan->decl->inputs[j];
  if (v.present && !shape_fits(callee.plan->operands[k].decl->dims, v.shape)) {
    x.error = "subgraph " + std::to_string(callee.plan->subgraph) + " input " + std::to_string(j) + " (operand " +
              std::to_string(k) + ") is declared " + dims_text(callee.plan->operands[k].decl->dims) + ", got " +
              shape_text(v.shape);
    return false;
  }
  callee.values[k] = v;
  return true;
}

StepStatus call(Exec& x, Frame& callee, const std::string& site_suffix) {
  if (x.observer == nullptr) return run_plan(x, callee);
  const size_t length = x.site.size();
  x.site += site_suffix + "/sg" + std::to_string(callee.plan->subgraph);
  const StepStatus st = run_plan(x, callee);
  x.site.resize(length);
  return st;
}

StepStatus missed_deadline(Exec& x, const Frame& f, const Step& s, uint64_t iteration) {
  x.error = "MISSED_DEADLINE: subgraph " + std::to_string(f.plan->subgraph) + " operation " +
            std::to_string(s.operation) + " (WHILE) was still looping after " +
            std::to_string(std::chrono::duration<double, std::milli>(x.timeout).count()) + " ms (loop timeout), at iteration " +
            std::to_string(iteration);
  return StepStatus::kMissedDeadline;
}

// A host copy of v in the slot (v is on the host).
void store(LoopSlot& slot, const Value& v) {
  slot.value.present = v.present;
  slot.value.on_host = true;
  slot.value.on_device = false;
  slot.value.device = nullptr;
  if (!v.present) return;
  if (slot.storage.size() < v.bytes) slot.storage.resize(v.bytes);
  if (v.bytes) std::memcpy(slot.storage.data(), v.data, v.bytes);
  slot.value.data = slot.storage.data();
  slot.value.bytes = v.bytes;
  slot.value.shape = v.shape;
}

// A device copy of v in the slot's own buffer: copied on the device when v
// is there, else uploaded (a WHILE's initial values, once per execution).
bool store_on_device(Exec& x, LoopSlot& slot, const Value& v) {
  slot.value.present = v.present;
  if (!v.present) return true;
  if (slot.storage.size() < v.bytes) slot.storage.resize(v.bytes);
  try {
    DeviceBuffer* buffer = sized_buffer(x, slot.device, v.bytes);
    if (v.on_device) {
      if (v.bytes) stream_of(x).copy(*v.device, *buffer, v.bytes);
      ++x.transfers.device_copies;
      slot.value.on_host = false;
    } else {
      if (v.bytes) stream_of(x).write(*buffer, std::span<const std::byte>(v.data, v.bytes));
      ++x.transfers.uploads;
      x.transfers.upload_bytes += v.bytes;
      if (v.bytes) std::memcpy(slot.storage.data(), v.data, v.bytes);
      slot.value.on_host = true;
      release_retired(x);
    }
  } catch (const std::exception& e) {
    x.error = std::string("keeping a loop value on ") + x.impl.target_name + ": " + e.what();
    return false;
  }
  slot.value.data = slot.storage.data();
  slot.value.bytes = v.bytes;
  slot.value.shape = v.shape;
  slot.value.device = slot.device.get();
  slot.value.on_device = true;
  return true;
}

// Moves a device-resident output value of a callee frame into `owner` (a
// slot's or the caller's buffer) by exchanging buffers: the callee's next
// write goes to the buffer `owner` held. Returns the value as it now lives
// in `owner`, with `host` as its host storage.
Value take_device_value(Exec& x, Frame& callee, uint32_t k, std::unique_ptr<DeviceBuffer>& owner, std::byte* host) {
  Value& v = callee.values[k];
  Value moved = v;
  moved.data = host;
  if (v.on_host && v.bytes && host != v.data) std::memcpy(host, v.data, v.bytes);
  if (v.device == callee.device[k].get()) {
    std::swap(owner, callee.device[k]);
    v.device = callee.device[k].get();
    v.on_device = false;
  } else {
    // Not the callee's own buffer (never the case for outputs written by a
    // step): copy on the device instead.
    DeviceBuffer* buffer = sized_buffer(x, owner, v.bytes);
    if (v.bytes) stream_of(x).copy(*v.device, *buffer, v.bytes);
    ++x.transfers.device_copies;
  }
  moved.device = owner.get();
  return moved;
}

// Output j of step s takes the callee's (or slot's) value `src`: on the
// device by exchanging buffers when the callees run there, else as a host copy.
StepStatus copy_out(Exec& x, Frame& f, const Step& s, size_t j, Value& src) {
  if (!src.present) return step_error(x, f, s, "output " + std::to_string(j) + " has no value");
  if (!to_host(x, src)) return step_error(x, f, s, x.error);
  Value* y = make_output(x, f, s, j, src.shape);
  if (y == nullptr) return StepStatus::kError;
  if (src.bytes) std::memcpy(y->data, src.data, src.bytes);
  return StepStatus::kOk;
}

StepStatus copy_out_device(Exec& x, Frame& f, const Step& s, size_t j, Frame& callee, uint32_t k) {
  Value& src = callee.values[k];
  if (!src.present) return step_error(x, f, s, "output " + std::to_string(j) + " has no value");
  if (!src.on_device) return copy_out(x, f, s, j, src);
  Value* y = make_output(x, f, s, j, src.shape);
  if (y == nullptr) return StepStatus::kError;
  const uint32_t out = s.op->outputs[j];
  try {
    const Value moved = take_device_value(x, callee, k, f.device[out], y->data);
    y->device = moved.device;
    y->on_host = moved.on_host;
    y->on_device = true;
  } catch (const std::exception& e) {
    return step_error(x, f, s, e.what());
  }
  return StepStatus::kOk;
}

// Inputs of a host step that only the device holds come down first.
bool inputs_to_host(Exec& x, Frame& f, const std::vector<uint32_t>& operands) {
  for (uint32_t k : operands)
    if (!to_host(x, f.values[k])) return false;
  return true;
}
bool inputs_to_host(Exec& x, Frame& f, const Step& s) { return inputs_to_host(x, f, s.op->inputs); }

}  // namespace

StepStatus step_error(Exec& x, const Frame& f, const Step& s, const std::string& reason) {
  x.error = "subgraph " + std::to_string(f.plan->subgraph) + " operation " + std::to_string(s.operation) + " (" +
            s.op->display_name() + "): " + reason;
  return StepStatus::kError;
}

Value* make_output(Exec& x, Frame& f, const Step& s, size_t j, const Shape& shape) {
  const uint32_t k = s.op->outputs[j];
  const OperandInfo& info = f.plan->operands[k];
  Value& v = f.values[k];
  v.on_host = true;
  v.on_device = false;
  if (info.storage == Storage::kArena) {
    if (shape == info.static_shape) return &v;
  } else if (shape_fits(info.decl->dims, shape)) {
    const size_t bytes = shape.elements() * info.element_size;
    std::vector<std::byte>& buf = f.dynamic[k];
    if (buf.size() < bytes) buf.resize(bytes);
    v.data = buf.data();
    v.bytes = bytes;
    v.shape = shape;
    v.present = true;
    return &v;
  }
  step_error(x, f, s, "output " + std::to_string(j) + " (operand " + std::to_string(k) + ") has shape " +
                          shape_text(shape) + ", but is declared " + dims_text(info.decl->dims));
  return nullptr;
}

StepStatus run_plan(Exec& x, Frame& frame) {
  for (const Step& s : frame.plan->steps) {
    if (s.host_inputs && !inputs_to_host(x, frame, s)) return step_error(x, frame, s, x.error);
    const StepStatus st = s.run(x, frame, s);
    if (st != StepStatus::kOk) return st;
    if (x.observer != nullptr) {
      for (uint32_t k : s.op->outputs)
        if (!to_host(x, frame.values[k])) return step_error(x, frame, s, x.error);
      observe(x, frame, s);
    }
  }
  return StepStatus::kOk;
}

// The condition is read on the host (one byte down when the device holds it);
// the arguments go where the branch runs, once, in this frame.
StepStatus run_if(Exec& x, Frame& f, const Step& s) {
  const Operation& op = *s.op;
  Value& c = f.values[op.inputs[0]];
  if (!c.present || c.shape.elements() != 1) return step_error(x, f, s, "the condition must hold one BOOL_8 value");
  if (!to_host(x, c)) return step_error(x, f, s, x.error);
  const bool take_then = c.data[0] != std::byte{0};
  Frame& callee = x.state.frames[take_then ? s.callee_a : s.callee_b];
  for (size_t j = 0; j + 3 < op.inputs.size(); ++j) {
    const uint32_t k = op.inputs[3 + j];
    const bool placed = s.callees_on_device ? to_device(x, f.values[k], f.device[k]) : to_host(x, f.values[k]);
    if (!placed || !bind_input(x, callee, j, f.values[k])) return step_error(x, f, s, x.error);
  }
  const StepStatus st = call(x, callee, "/op" + std::to_string(s.operation) + (take_then ? ".then" : ".else"));
  if (st != StepStatus::kOk) return st;
  for (size_t j = 0; j < op.outputs.size(); ++j) {
    const uint32_t k = callee.plan->decl->outputs[j];
    const StepStatus out = s.callees_on_device ? copy_out_device(x, f, s, j, callee, k)
                                               : copy_out(x, f, s, j, callee.values[k]);
    if (out != StepStatus::kOk) return out;
  }
  return StepStatus::kOk;
}

// NNAPI WHILE: inputs [cond, body, m loop-carried, k loop-state-only, n
// input-only]; the body's m + k outputs replace the first m + k values after
// each iteration; the WHILE's m outputs are the final loop-carried values.
// When the condition and body run in device memory, the m + k values live in
// device slots (the body's outputs are taken by exchanging buffers) and only
// the condition's one byte comes to the host per iteration.
StepStatus run_while(Exec& x, Frame& f, const Step& s) {
  const Operation& op = *s.op;
  Frame& cond = x.state.frames[s.callee_a];
  Frame& body = x.state.frames[s.callee_b];
  const size_t m = op.outputs.size(), mk = body.plan->decl->outputs.size(), total = op.inputs.size() - 2;
  const bool on_device = s.callees_on_device;
  std::vector<LoopSlot>& slots = f.loops[s.index];
  slots.resize(mk);
  for (size_t j = 0; j < mk; ++j) {
    const uint32_t k = op.inputs[2 + j];
    Value& v = f.values[k];
    if (on_device) {
      // A constant goes up once per execution state, then is copied on the device.
      if (f.plan->operands[k].storage == Storage::kConstant && !to_device(x, v, f.device[k]))
        return step_error(x, f, s, x.error);
      if (!store_on_device(x, slots[j], v)) return step_error(x, f, s, x.error);
    } else {
      if (!to_host(x, v)) return step_error(x, f, s, x.error);
      store(slots[j], v);
    }
  }
  for (size_t j = mk; j < total; ++j) {  // input-only: placed once, read every iteration
    const uint32_t k = op.inputs[2 + j];
    if (!(on_device ? to_device(x, f.values[k], f.device[k]) : to_host(x, f.values[k])))
      return step_error(x, f, s, x.error);
  }
  auto bind_all = [&](Frame& callee) {
    for (size_t j = 0; j < total; ++j)
      if (!bind_input(x, callee, j, j < mk ? slots[j].value : f.values[op.inputs[2 + j]])) return false;
    return true;
  };
  const uint32_t cond_out = cond.plan->decl->outputs[0];
  const std::string op_site = x.observer ? "/op" + std::to_string(s.operation) : std::string();
  for (uint64_t iteration = 0;; ++iteration) {
    if (Clock::now() > x.deadline) return missed_deadline(x, f, s, iteration);
    if (!bind_all(cond)) return step_error(x, f, s, x.error);
    StepStatus st = call(x, cond, x.observer ? op_site + ".cond[" + std::to_string(iteration) + "]" : std::string());
    if (st != StepStatus::kOk) return st;
    Value& c = cond.values[cond_out];
    if (!c.present || c.shape.elements() != 1)
      return step_error(x, f, s, "the condition subgraph must produce one BOOL_8 value");
    if (!to_host(x, c)) return step_error(x, f, s, x.error);
    if (c.data[0] == std::byte{0}) break;
    if (!bind_all(body)) return step_error(x, f, s, x.error);
    st = call(x, body, x.observer ? op_site + ".body[" + std::to_string(iteration) + "]" : std::string());
    if (st != StepStatus::kOk) return st;
    for (size_t j = 0; j < mk; ++j) {
      const uint32_t k = body.plan->decl->outputs[j];
      Value& v = body.values[k];
      if (!v.present) return step_error(x, f, s, "body output " + std::to_string(j) + " has no value");
      if (on_device && v.on_device) {
        LoopSlot& slot = slots[j];
        if (slot.storage.size() < v.bytes) slot.storage.resize(v.bytes);
        try {
          slot.value = take_device_value(x, body, k, slot.device, slot.storage.data());
        } catch (const std::exception& e) {
          return step_error(x, f, s, e.what());
        }
      } else {
        if (!to_host(x, v)) return step_error(x, f, s, x.error);
        store(slots[j], v);
      }
    }
    ++x.iterations;
  }
  for (size_t j = 0; j < m; ++j) {
    LoopSlot& slot = slots[j];
    StepStatus out;
    if (slot.value.present && slot.value.on_device) {
      // The slot's buffer becomes the output's; the slot takes the output's old one.
      Value* y = make_output(x, f, s, j, slot.value.shape);
      if (y == nullptr) return StepStatus::kError;
      const uint32_t k = op.outputs[j];
      if (slot.value.on_host && slot.value.bytes) std::memcpy(y->data, slot.value.data, slot.value.bytes);
      std::swap(slot.device, f.device[k]);
      y->device = f.device[k].get();
      y->on_host = slot.value.on_host;
      y->on_device = true;
      slot.value.device = slot.device.get();
      slot.value.on_device = false;
      out = StepStatus::kOk;
    } else {
      out = copy_out(x, f, s, j, slot.value);
    }
    if (out != StepStatus::kOk) return out;
  }
  return StepStatus::kOk;
}

// A package op through the C ABI (or a built-in placed on a device, through
// the package op that computes it). prepare() runs when input shapes change
// (data pointers NULL, as the ABI says). An output dimension prepare() leaves
// at -1 depends on input values: resolve_shapes() then runs before every
// execute with host pointers to the inputs and gives the final dims.
// Host-memory backends (cpu, dsp) get host pointers; device backends get
// device buffers that stay resident (device_values.cpp): the kernel is
// enqueued on the execution's stream and its outputs stay on the device.
StepStatus run_package_op(Exec& x, Frame& f, const Step& s) {
  const PackageNode& node = x.impl.nodes[s.kernel_node];
  KernelInstance& ki = x.state.kernels[s.kernel_node];
  const Operation& op = *s.op;
  const std::vector<uint32_t>& inputs = node.inputs;
  auto fail = [&](const std::string& what, oprig_status st) {
    return step_error(x, f, s, what + " of " + node.display_name + " on " +
                                   std::string(backend_name(node.backend->kind())) + " returned " + status_name(st));
  };
  if (node.host_memory && x.impl.device_memory && !inputs_to_host(x, f, inputs)) return step_error(x, f, s, x.error);
  bool reprepare = !ki.prepared;
  for (size_t j = 0; j < inputs.size(); ++j) {
    const Value& v = f.values[inputs[j]];
    oprig_tensor& t = ki.in_desc[j];
    const Shape shape = v.present ? v.shape : Shape{};
    t.rank = shape.rank;
    std::copy(shape.dims, shape.dims + OPRIG_MAX_RANK, t.dims);
    t.data = nullptr;
    t.offset = 0;
    t.bytes = v.present ? v.bytes : 0;
    if (!(ki.prepared_inputs[j] == shape)) reprepare = true;
  }
  auto reset_outputs = [&] {
    for (size_t j = 0; j < ki.out_desc.size(); ++j) {
      oprig_tensor& t = ki.out_desc[j];
      t.rank = ki.out_shapes[j].rank;
      std::copy(ki.out_shapes[j].dims, ki.out_shapes[j].dims + OPRIG_MAX_RANK, t.dims);
      t.data = nullptr;
      t.offset = 0;
      t.bytes = 0;
    }
  };
  std::optional<std::vector<int64_t>> builtin_shape;  // the built-in's own result shape, when adapted
  if (reprepare && node.adapter == InputAdapter::kOneElementAsScalar) {
    const std::vector<int64_t> a(ki.in_desc[0].dims, ki.in_desc[0].dims + ki.in_desc[0].rank);
    const std::vector<int64_t> b(ki.in_desc[1].dims, ki.in_desc[1].dims + ki.in_desc[1].rank);
    builtin_shape = shape_rules::broadcast(a, b);
    if (!builtin_shape)
      return step_error(x, f, s, "input shapes " + dims_text(a) + " and " + dims_text(b) + " do not broadcast");
    adapt_one_element(ki.in_desc[0], ki.in_desc[1]);
    ki.scalar_input = ki.in_desc[0].rank != a.size() ? 0 : ki.in_desc[1].rank != b.size() ? 1 : -1;
  } else if (ki.scalar_input >= 0) {
    oprig_tensor& t = ki.in_desc[static_cast<size_t>(ki.scalar_input)];
    t.rank = 0;
    std::fill(std::begin(t.dims), std::end(t.dims), 0);
  }
  if (reprepare) {
    for (Shape& out : ki.out_shapes) out = Shape{};
    reset_outputs();
    const oprig_status st = ki.impl->prepare(ki.kernel, ki.in_desc.data(), ki.in_desc.size(), ki.out_desc.data(),
                                             ki.out_desc.size());
    if (st != OPRIG_STATUS_OK) {
      ki.prepared = false;
      return fail("prepare()", st);
    }
    ki.data_dependent = false;
    for (size_t j = 0; j < op.outputs.size(); ++j) {
      if (ki.out_desc[j].rank > OPRIG_MAX_RANK) return step_error(x, f, s, "prepare() set a rank over 8");
      Shape& out = ki.out_shapes[j];
      out.rank = ki.out_desc[j].rank;
      std::copy(ki.out_desc[j].dims, ki.out_desc[j].dims + OPRIG_MAX_RANK, out.dims);
      for (uint32_t d = 0; d < out.rank; ++d) ki.data_dependent |= out.dims[d] < 0;
    }
    if (builtin_shape && !(ki.out_shapes[0] == shape_from_dims(*builtin_shape))) {
      ki.prepared = false;
      return step_error(x, f, s, node.display_name + " gave shape " + shape_text(ki.out_shapes[0]) +
                                     ", the built-in's result is " + dims_text(*builtin_shape));
    }
    if (ki.data_dependent && ki.impl->resolve_shapes == nullptr)
      return step_error(x, f, s, "prepare() left a dimension at -1 but the kernel has no resolve_shapes()");
    for (size_t j = 0; j < inputs.size(); ++j)
      ki.prepared_inputs[j] = f.values[inputs[j]].present ? f.values[inputs[j]].shape : Shape{};
    ki.prepared = true;
  }
  const Shape* out_shapes = ki.out_shapes.data();
  if (ki.data_dependent) {
    // resolve_shapes() reads input values on the host, whatever the backend:
    // all of them, or those the node names (the others keep a NULL pointer).
    for (size_t j = 0; j < inputs.size(); ++j) {
      Value& v = f.values[inputs[j]];
      const bool read = node.resolve_inputs.empty() ||
                        std::find(node.resolve_inputs.begin(), node.resolve_inputs.end(), j) != node.resolve_inputs.end();
      if (read && !to_host(x, v)) return step_error(x, f, s, x.error);
      ki.in_desc[j].data = read && v.present ? v.data : nullptr;
    }
    reset_outputs();
    const oprig_status st = ki.impl->resolve_shapes(ki.kernel, ki.in_desc.data(), ki.in_desc.size(),
                                                    ki.out_desc.data(), ki.out_desc.size());
    if (st != OPRIG_STATUS_OK) return fail("resolve_shapes()", st);
    ki.resolved_shapes.resize(op.outputs.size());
    for (size_t j = 0; j < op.outputs.size(); ++j) {
      Shape& out = ki.resolved_shapes[j];
      out.rank = ki.out_desc[j].rank;
      if (out.rank > OPRIG_MAX_RANK) return step_error(x, f, s, "resolve_shapes() set a rank over 8");
      std::copy(ki.out_desc[j].dims, ki.out_desc[j].dims + OPRIG_MAX_RANK, out.dims);
      for (uint32_t d = 0; d < out.rank; ++d)
        if (out.dims[d] < 0) return step_error(x, f, s, "resolve_shapes() left a dimension unresolved");
    }
    out_shapes = ki.resolved_shapes.data();
  }
  for (size_t j = 0; j < op.outputs.size(); ++j) {
    Value* y = make_output(x, f, s, j, out_shapes[j]);
    if (y == nullptr) return StepStatus::kError;
    ki.out_desc[j].rank = out_shapes[j].rank;
    std::copy(out_shapes[j].dims, out_shapes[j].dims + OPRIG_MAX_RANK, ki.out_desc[j].dims);
    ki.out_desc[j].data = y->data;
    ki.out_desc[j].offset = 0;
    ki.out_desc[j].bytes = y->bytes;
  }
  oprig_status st;
  if (node.host_memory) {
    for (size_t j = 0; j < inputs.size(); ++j) {
      const Value& v = f.values[inputs[j]];
      ki.in_desc[j].data = v.present ? v.data : nullptr;
    }
    ExecTiming timing;
    st = node.backend->execute(*ki.impl, ki.kernel, ki.in_desc, ki.out_desc, timing);
  } else {
    x.error.clear();
    st = device_enqueue(x, f, s, ki);
    if (st != OPRIG_STATUS_OK && !x.error.empty()) return step_error(x, f, s, x.error);
  }
  if (st != OPRIG_STATUS_OK) return fail("execute()", st);
  return StepStatus::kOk;
}

std::string_view execution_status_name(ExecutionStatus status) {
  switch (status) {
    case ExecutionStatus::kOk: return "OK";
    case ExecutionStatus::kMissedDeadline: return "MISSED_DEADLINE";
    case ExecutionStatus::kInvalidInput: return "INVALID_INPUT";
    case ExecutionStatus::kError: return "ERROR";
  }
  return "?";
}

Nanoseconds effective_loop_timeout(std::optional<Nanoseconds> requested) {
  if (!requested) return kDefaultLoopTimeout;
  return std::clamp(*requested, Nanoseconds{0}, kMaxLoopTimeout);
}

ExecutionResult PreparedModel::execute(std::span<const HostTensor> inputs, const ExecutionOptions& options) const {
  const Clock::time_point start = Clock::now();
  const PreparedImpl& p = *impl_;
  ExecutionResult r;
  r.loop_timeout = effective_loop_timeout(options.loop_timeout);
  auto finish = [&](ExecutionStatus status, std::string message) {
    r.status = status;
    r.message = std::move(message);
    if (status != ExecutionStatus::kOk) r.outputs.clear();
    r.elapsed = std::chrono::duration_cast<Nanoseconds>(Clock::now() - start);
    return r;
  };

  const Plan& main = p.plans[p.main_plan];
  const Subgraph& g = *main.decl;
  if (inputs.size() != g.inputs.size())
    return finish(ExecutionStatus::kInvalidInput, "the model takes " + std::to_string(g.inputs.size()) +
                                                      " input(s), got " + std::to_string(inputs.size()));
  for (size_t j = 0; j < inputs.size(); ++j) {
    const Operand& d = g.operands[g.inputs[j]];
    const HostTensor& t = inputs[j];
    std::string why;
    if (t.dtype != d.dtype) {
      why = "has type " + std::string(dtype_name(t.dtype));
    } else if (t.shape.size() > OPRIG_MAX_RANK || !shape_fits(d.dims, shape_from_dims(t.shape))) {
      why = "has shape " + dims_text(t.shape);
    } else if (t.data.size() != shape_from_dims(t.shape).elements() * dtype_size(d.dtype)) {
      why = "holds " + std::to_string(t.data.size()) + " bytes, its shape needs " +
            std::to_string(shape_from_dims(t.shape).elements() * dtype_size(d.dtype));
    } else if (t.scale != 0 && (t.scale != d.scale || t.zero_point != d.zero_point)) {
      why = "has quantisation (" + std::to_string(t.scale) + ", " + std::to_string(t.zero_point) + ")";
    }
    if (!why.empty())
      return finish(ExecutionStatus::kInvalidInput,
                    "input " + std::to_string(j) + " " + why + "; the model declares " + operand_type_text(d));
  }

  std::unique_ptr<ExecutionState> state;
  {
    std::lock_guard lock(p.pool_mutex);
    if (!p.pool.empty()) {
      state = std::move(p.pool.back());
      p.pool.pop_back();
    }
  }
  if (!state) {
    try {
      state = p.make_state();
    } catch (const std::exception& e) {
      return finish(ExecutionStatus::kError, e.what());
    }
    std::lock_guard lock(p.pool_mutex);
    ++p.states_created;
  }
  struct GiveBack {
    const PreparedImpl& p;
    std::unique_ptr<ExecutionState>& state;
    ~GiveBack() {
      std::lock_guard lock(p.pool_mutex);
      p.pool.push_back(std::move(state));
    }
  } give_back{p, state};

  Exec x{p, *state, start + r.loop_timeout, options.observer ? &options.observer : nullptr};
  x.timeout = r.loop_timeout;
  if (x.observer) x.site = "sg" + std::to_string(main.subgraph);
  Frame& f = state->frames[p.main_plan];
  for (size_t j = 0; j < inputs.size(); ++j) {
    Value& v = f.values[g.inputs[j]];
    v.data = const_cast<std::byte*>(inputs[j].data.data());  // read only: no step writes an input
    v.bytes = inputs[j].data.size();
    v.shape = shape_from_dims(inputs[j].shape);
    v.present = true;
    v.on_host = true;
    v.on_device = false;
  }
  StepStatus st = run_plan(x, f);
  r.loop_iterations = x.iterations;
  if (st == StepStatus::kOk) {
    for (uint32_t k : g.outputs)
      if (!to_host(x, f.values[k])) {
        st = StepStatus::kError;
        break;
      }
  }
  // Every piece of device work is complete (and its failure known) before
  // the state goes back to the pool.
  if (state->stream) {
    oprig_status done = OPRIG_STATUS_OK;
    try {
      done = state->stream->finish();
    } catch (const std::exception& e) {
      x.error = e.what();
      done = OPRIG_STATUS_BACKEND_ERROR;
    }
    release_retired(x);
    if (done != OPRIG_STATUS_OK && st == StepStatus::kOk) {
      if (x.error.empty()) x.error = "the " + p.target_name + " device reported " + status_name(done) + " for a kernel";
      st = StepStatus::kError;
    }
  }
  r.transfers = x.transfers;
  if (st == StepStatus::kMissedDeadline) return finish(ExecutionStatus::kMissedDeadline, x.error);
  if (st == StepStatus::kError) return finish(ExecutionStatus::kError, x.error);
  for (uint32_t k : g.outputs) {
    const Value& v = f.values[k];
    const Operand& d = g.operands[k];
    HostTensor out;
    out.dtype = d.dtype;
    out.shape.assign(v.shape.dims, v.shape.dims + v.shape.rank);
    out.scale = d.scale;
    out.zero_point = d.zero_point;
    out.data.assign(v.data, v.data + v.bytes);
    r.outputs.push_back(std::move(out));
  }
  return finish(ExecutionStatus::kOk, {});
}

}  // namespace oprig::graph
