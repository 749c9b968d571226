// prepare(): placement (partitioning), kernel resolution and memory planning.
#include <algorithm>
#include <map>

#include "core/dtype.hpp"
#include "graph/runtime_types.hpp"
#include "graph/shape_rules.hpp"
#include "package/loader.hpp"

namespace oprig::graph {
namespace {

size_t align_up(size_t n) { return (n + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment; }

bool host_memory_backend(const Backend& b) {
  return b.kind() == OPRIG_BACKEND_CPU || b.kind() == OPRIG_BACKEND_DSP;
}

std::string where(uint32_t s, uint32_t o, const Operation& op) {
  return "subgraph " + std::to_string(s) + " operation " + std::to_string(o) + " (" + op.display_name() + ")";
}

oprig_tensor declared_tensor(const Operand& o) {
  oprig_tensor t{};
  t.dtype = abi_dtype(o);  // an extension operand type reaches its package as OPRIG_DTYPE_EXTENSION(index)
  t.scale = o.scale;
  t.zero_point = o.zero_point;
  return t;
}

class Preparer {
 public:
  Preparer(PreparedImpl& impl) : p_(impl) {}

  void run() {
    Backend* target = p_.backends.target;
    p_.target_name = std::string(backend_name(target->kind()));
    p_.main_plan = plan_for(p_.model.main, /*on_target=*/true);
    for (const Plan& plan : p_.plans) p_.stats.arena_bytes += plan.arena_bytes;
  }

 private:
  // Can the target run this package op? Probes create() and prepare() with
  // the declared types (unknown dimensions as 1, data NULL as in every
  // prepare), so "no kernel for this dtype" is found here rather than in the
  // middle of an execution.
  bool node_supported(Backend& backend, uint32_t s, uint32_t o, std::string* why) {
    const Subgraph& g = p_.model.subgraphs[s];
    const Operation& op = g.operations[o];
    const PackageOp* reg = op.package->find_op(op.package_op);
    const std::string bname(backend_name(backend.kind()));
    if (!(reg->backend_mask & OPRIG_BACKEND_BIT(backend.kind()))) {
      *why = op.package->name() + " registers no " + bname + " kernel for " + op.package_op;
      return false;
    }
    std::string load_why;
    const oprig_implementation_v1* impl = op.package->implementation(backend.kind(), &load_why);
    if (impl == nullptr) {
      *why = "the " + bname + " implementation of " + op.package->name() + " cannot be loaded: " + load_why;
      return false;
    }
    std::vector<oprig_param> params = params_of(op);
    oprig_kernel* kernel = nullptr;
    oprig_status st = impl->create(&backend.context(), op.package_op.c_str(), params.data(), params.size(), &kernel);
    if (st != OPRIG_STATUS_OK || kernel == nullptr) {
      *why = "the " + bname + " create() of " + op.package_op + " returned " + status_name(st);
      return false;
    }
    std::vector<oprig_tensor> in, out;
    for (uint32_t k : op.inputs) {
      const Operand& d = g.operands[k];
      oprig_tensor t = declared_tensor(d);
      if (d.lifetime == Lifetime::kNoValue) {
        in.push_back(t);
        continue;
      }
      const std::vector<int64_t> dims = d.dims ? *d.dims : std::vector<int64_t>{1};
      t.rank = static_cast<uint32_t>(dims.size());
      for (size_t i = 0; i < dims.size(); ++i) t.dims[i] = dims[i] == 0 ? 1 : dims[i];
      t.bytes = shape_rules::element_count(std::vector<int64_t>(t.dims, t.dims + t.rank)) * dtype_size(d.dtype);
      in.push_back(t);
    }
    for (uint32_t k : op.outputs) out.push_back(declared_tensor(g.operands[k]));
    st = impl->prepare(kernel, in.data(), in.size(), out.data(), out.size());
    impl->destroy(kernel);
    if (st != OPRIG_STATUS_OK) {
      std::string types;
      for (uint32_t k : op.inputs) types += (types.empty() ? "" : ", ") + operand_type_text(g.operands[k]);
      *why = "the " + bname + " prepare() of " + op.package_op + " returned " + status_name(st) + " for " + types;
      return false;
    }
    return true;
  }

  // Every package op in s and, recursively, in every subgraph s references.
  bool subgraph_supported(uint32_t s, std::string* why) {
    auto cached = support_.find(s);
    if (cached != support_.end()) {
      *why = cached->second.second;
      return cached->second.first;
    }
    bool ok = true;
    const Subgraph& g = p_.model.subgraphs[s];
    for (uint32_t o = 0; o < g.operations.size() && ok; ++o) {
      const Operation& op = g.operations[o];
      if (op.package) {
        std::string reason;
        if (!node_supported(*p_.backends.target, s, o, &reason)) {
          ok = false;
          *why = where(s, o, op) + ": " + reason;
        }
      } else if (is_control_flow(*op.builtin)) {
        for (uint32_t callee : callees(g, op)) {
          if (!subgraph_supported(callee, why)) {
            ok = false;
            break;
          }
        }
      }
    }
    support_[s] = {ok, ok ? std::string() : *why};
    return ok;
  }

  static std::vector<uint32_t> callees(const Subgraph& g, const Operation& op) {
    return {g.operands[op.inputs[*op.builtin == BuiltinOp::kIf ? 1 : 0]].subgraph,
            g.operands[op.inputs[*op.builtin == BuiltinOp::kIf ? 2 : 1]].subgraph};
  }

  static std::vector<oprig_param> params_of(const Operation& op) {
    std::vector<oprig_param> params;
    for (const Param& p : op.params)
      params.push_back({p.name.c_str(), static_cast<uint32_t>(p.dtype),
                        static_cast<uint32_t>(p.data.size() / dtype_size(p.dtype)), p.data.data()});
    return params;
  }

  uint32_t plan_for(uint32_t s, bool on_target) {
    const bool same = p_.backends.target == p_.backends.cpu;
    if (same) on_target = true;
    const auto key = std::make_pair(s, on_target);
    if (auto it = plan_index_.find(key); it != plan_index_.end()) return it->second;
    const uint32_t index = static_cast<uint32_t>(p_.plans.size());
    plan_index_[key] = index;
    p_.plans.emplace_back();
    {
      Plan& plan = p_.plans[index];
      plan.subgraph = s;
      plan.on_target = on_target;
      plan.backend = on_target ? p_.backends.target : p_.backends.cpu;
      plan.decl = &p_.model.subgraphs[s];
    }
    plan_operands(index);
    const Subgraph& g = p_.model.subgraphs[s];
    std::vector<Step> steps;
    for (uint32_t o = 0; o < g.operations.size(); ++o) {
      const Operation& op = g.operations[o];
      Step step;
      step.op = &op;
      step.operation = o;
      step.index = o;
      if (op.package) {
        Backend* backend = p_.plans[index].backend;
        std::string why;
        if (on_target && !same && !node_supported(*backend, s, o, &why)) {
          p_.notes.push_back(where(s, o, op) + " runs on cpu: " + why);
          backend = p_.backends.cpu;
        }
        std::string cpu_why;
        if (backend != p_.backends.target && !node_supported(*backend, s, o, &cpu_why))
          throw PrepareError(where(s, o, op) + " cannot run: no " + p_.target_name + " kernel (" + why +
                             ") and no cpu kernel (" + cpu_why + ")");
        step.run = &run_package_op;
        step.kernel_node = add_node(op, index, *backend);
      } else if (is_control_flow(*op.builtin)) {
        bool callee_on_target = on_target;
        if (on_target && !same) {
          std::string why;
          if (!subgraph_supported(callees(g, op)[0], &why) || !subgraph_supported(callees(g, op)[1], &why)) {
            callee_on_target = false;
            p_.notes.push_back(where(s, o, op) + " runs on cpu with every subgraph it references, because " +
                               p_.target_name + " lacks a kernel: " + why);
          }
        }
        const std::vector<uint32_t> targets = callees(g, op);
        step.callee_a = plan_for(targets[0], callee_on_target);
        step.callee_b = plan_for(targets[1], callee_on_target);
        step.run = *op.builtin == BuiltinOp::kIf ? &run_if : &run_while;
      } else {
        step.run = builtin_kernel(*op.builtin, p_.plans[index], op);
        if (step.run == nullptr) throw PrepareError(where(s, o, op) + ": no host kernel for these operand types");
      }
      steps.push_back(step);
    }
    p_.plans[index].steps = std::move(steps);
    return index;
  }

  uint32_t add_node(const Operation& op, uint32_t plan, Backend& backend) {
    PackageNode node;
    node.op = &op;
    node.plan = plan;
    node.backend = &backend;
    node.host_memory = host_memory_backend(backend);
    std::string why;
    node.impl = op.package->implementation(backend.kind(), &why);
    node.params = params_of(op);
    p_.nodes.push_back(std::move(node));
    return static_cast<uint32_t>(p_.nodes.size() - 1);
  }

  // Storage classes, then liveness-based reuse of arena buffers: an operand
  // gets a buffer no longer needed by any operand whose last reader ran
  // before its writer (best fit), else a new one.
  void plan_operands(uint32_t index) {
    Plan& plan = p_.plans[index];
    const Subgraph& g = *plan.decl;
    plan.operands.resize(g.operands.size());
    std::vector<int> writer(g.operands.size(), -1), last_use(g.operands.size(), -1);
    for (size_t i = 0; i < g.operations.size(); ++i) {
      for (uint32_t k : g.operations[i].inputs) last_use[k] = static_cast<int>(i);
      for (uint32_t k : g.operations[i].outputs) writer[k] = static_cast<int>(i);
    }
    for (size_t k = 0; k < g.operands.size(); ++k) {
      const Operand& d = g.operands[k];
      OperandInfo& info = plan.operands[k];
      info.decl = &d;
      info.dtype = d.dtype;
      info.element_size = d.is_subgraph_reference ? 0 : dtype_size(d.dtype);
      switch (d.lifetime) {
        case Lifetime::kConstant: info.storage = Storage::kConstant; info.static_shape = shape_from_dims(*d.dims); break;
        case Lifetime::kSubgraphInput: info.storage = Storage::kInput; break;
        case Lifetime::kNoValue: info.storage = Storage::kNoValue; break;
        case Lifetime::kSubgraph: info.storage = Storage::kSubgraphRef; break;
        case Lifetime::kTemporary:
        case Lifetime::kSubgraphOutput:
          if (d.fully_known_shape()) {
            info.storage = Storage::kArena;
            info.static_shape = shape_from_dims(*d.dims);
          } else {
            info.storage = Storage::kDynamic;
            ++p_.stats.dynamic_operands;
          }
          break;
      }
    }
    struct Buffer {
      size_t bytes;
      int busy_until;  // last step that reads the current occupant; INT_MAX: never freed
    };
    std::vector<Buffer> buffers;
    std::vector<size_t> buffer_of(g.operands.size(), 0);
    for (size_t i = 0; i < g.operations.size(); ++i) {
      for (uint32_t k : g.operations[i].outputs) {
        OperandInfo& info = plan.operands[k];
        if (info.storage != Storage::kArena) continue;
        const size_t bytes = align_up(std::max<size_t>(1, info.static_shape.elements() * info.element_size));
        const int until = g.operands[k].lifetime == Lifetime::kSubgraphOutput ? INT32_MAX
                                                                               : std::max(last_use[k], static_cast<int>(i));
        size_t best = buffers.size();
        for (size_t b = 0; b < buffers.size(); ++b)
          if (buffers[b].busy_until < static_cast<int>(i) && buffers[b].bytes >= bytes &&
              (best == buffers.size() || buffers[b].bytes < buffers[best].bytes))
            best = b;
        if (best == buffers.size()) buffers.push_back({bytes, until});
        else buffers[best].busy_until = until;
        buffer_of[k] = best;
        ++p_.stats.planned_operands;
        p_.stats.naive_bytes += bytes;
      }
    }
    std::vector<size_t> offset(buffers.size());
    size_t total = 0;
    for (size_t b = 0; b < buffers.size(); ++b) {
      offset[b] = total;
      total += buffers[b].bytes;
    }
    for (size_t k = 0; k < g.operands.size(); ++k)
      if (plan.operands[k].storage == Storage::kArena) plan.operands[k].arena_offset = offset[buffer_of[k]];
    plan.arena_bytes = total;
    p_.stats.buffers += buffers.size();
  }

  PreparedImpl& p_;
  std::map<std::pair<uint32_t, bool>, uint32_t> plan_index_;
  std::map<uint32_t, std::pair<bool, std::string>> support_;
};

}  // namespace

Shape shape_from_dims(const std::vector<int64_t>& dims) {
  Shape s;
  s.rank = static_cast<uint32_t>(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) s.dims[i] = dims[i];
  return s;
}

KernelInstance::KernelInstance(KernelInstance&& other) noexcept
    : impl(other.impl),
      kernel(other.kernel),
      prepared(other.prepared),
      prepared_inputs(std::move(other.prepared_inputs)),
      in_desc(std::move(other.in_desc)),
      out_desc(std::move(other.out_desc)),
      out_shapes(std::move(other.out_shapes)),
      data_dependent(other.data_dependent),
      resolved_shapes(std::move(other.resolved_shapes)),
      in_buf(std::move(other.in_buf)),
      out_buf(std::move(other.out_buf)) {
  other.kernel = nullptr;
}

KernelInstance::~KernelInstance() {
  if (kernel != nullptr && impl != nullptr) impl->destroy(kernel);
}

std::unique_ptr<ExecutionState> PreparedImpl::make_state() const {
  auto state = std::make_unique<ExecutionState>();
  state->frames.resize(plans.size());
  for (size_t i = 0; i < plans.size(); ++i) {
    const Plan& plan = plans[i];
    Frame& f = state->frames[i];
    f.plan = &plan;
    f.values.resize(plan.operands.size());
    f.dynamic.resize(plan.operands.size());
    f.loops.resize(plan.steps.size());
    f.arena.reset(new (std::align_val_t{kArenaAlignment}) std::byte[std::max<size_t>(plan.arena_bytes, 1)]);
    for (size_t k = 0; k < plan.operands.size(); ++k) {
      const OperandInfo& info = plan.operands[k];
      Value& v = f.values[k];
      if (info.storage == Storage::kConstant) {
        v.data = const_cast<std::byte*>(info.decl->value.data());
        v.bytes = info.decl->value.size();
        v.shape = info.static_shape;
        v.present = true;
      } else if (info.storage == Storage::kArena) {
        v.data = f.arena.get() + info.arena_offset;
        v.bytes = info.static_shape.elements() * info.element_size;
        v.shape = info.static_shape;
        v.present = true;
      }
    }
  }
  state->kernels.resize(nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n) {
    const PackageNode& node = nodes[n];
    KernelInstance& ki = state->kernels[n];
    ki.impl = node.impl;
    const oprig_status st = node.impl->create(&node.backend->context(), node.op->package_op.c_str(),
                                              node.params.data(), node.params.size(), &ki.kernel);
    if (st != OPRIG_STATUS_OK || ki.kernel == nullptr)
      throw PrepareError(node.op->display_name() + ": create() on " + std::string(backend_name(node.backend->kind())) +
                         " returned " + status_name(st));
    const Subgraph& g = *plans[node.plan].decl;
    for (uint32_t k : node.op->inputs) ki.in_desc.push_back(declared_tensor(g.operands[k]));
    for (uint32_t k : node.op->outputs) ki.out_desc.push_back(declared_tensor(g.operands[k]));
    ki.prepared_inputs.resize(node.op->inputs.size());
    ki.out_shapes.resize(node.op->outputs.size());
    ki.in_buf.resize(node.op->inputs.size());
    ki.out_buf.resize(node.op->outputs.size());
  }
  return state;
}

PreparedModel prepare(const Model& model, const BackendSet& backends) {
  if (backends.target == nullptr || backends.cpu == nullptr) throw PrepareError("prepare() needs a target and a cpu backend");
  auto impl = std::make_shared<PreparedImpl>();
  impl->model = model;
  impl->backends = backends;
  Preparer(*impl).run();
  // The first execution state is built now, so kernel creation errors surface
  // at prepare and the first execute() allocates nothing.
  impl->pool.push_back(impl->make_state());
  impl->states_created = 1;
  PreparedModel prepared;
  prepared.impl_ = std::move(impl);
  return prepared;
}

const std::vector<std::string>& PreparedModel::placement_notes() const { return impl_->notes; }
MemoryStats PreparedModel::memory_stats() const { return impl_->stats; }
const Model& PreparedModel::model() const { return impl_->model; }
std::string_view PreparedModel::target_name() const { return impl_->target_name; }
size_t PreparedModel::execution_states() const {
  std::lock_guard lock(impl_->pool_mutex);
  return impl_->states_created;
}

}  // namespace oprig::graph
