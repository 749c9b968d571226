// prepare(): placement (partitioning), kernel resolution and memory planning.
#include <algorithm>
#include <map>
#include <optional>

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

// A kernel to place: a package op of the model, or the package op a
// built-in kernel map names for a built-in.
struct KernelRef {
  Package* package = nullptr;
  std::string op_name;
  std::string display;              // for notes: "org.oprig.opsuite:Atan"
  const std::vector<Param>* params = nullptr;
  std::vector<uint32_t> inputs;  // operand indices the kernel takes (a built-in's may be a subset)
  std::vector<uint32_t> resolve_inputs;  // positions in `inputs` resolve_shapes() reads; empty: all
  InputAdapter adapter = InputAdapter::kNone;
};

bool elementwise_binary(BuiltinOp op) {
  switch (op) {
    case BuiltinOp::kAdd: case BuiltinOp::kSub: case BuiltinOp::kMul:
    case BuiltinOp::kLess: case BuiltinOp::kLessEqual: case BuiltinOp::kGreater: case BuiltinOp::kGreaterEqual:
    case BuiltinOp::kEqual: case BuiltinOp::kNotEqual: case BuiltinOp::kLogicalAnd: case BuiltinOp::kLogicalOr:
      return true;
    default:
      return false;
  }
}

std::vector<oprig_param> param_views(const std::vector<Param>& params) {
  std::vector<oprig_param> views;
  for (const Param& p : params)
    views.push_back({p.name.c_str(), static_cast<uint32_t>(p.dtype),
                     static_cast<uint32_t>(p.data.size() / dtype_size(p.dtype)), p.data.data()});
  return views;
}

// Names for dumps and placements of IF/WHILE whose callees mix host
// built-ins and target kernels (possible only without a built-in kernel map).
const char* mixed_name(oprig_backend_kind kind) {
  switch (kind) {
    case OPRIG_BACKEND_OPENCL: return "cpu+opencl";
    case OPRIG_BACKEND_VULKAN: return "cpu+vulkan";
    case OPRIG_BACKEND_DSP: return "cpu+dsp";
    default: return "cpu";
  }
}

class Preparer {
 public:
  Preparer(PreparedImpl& impl, const PrepareOptions& options) : p_(impl), map_(options.builtin_kernels) {}

  void run() {
    Backend* target = p_.backends.target;
    p_.target_name = std::string(backend_name(target->kind()));
    same_ = p_.backends.target == p_.backends.cpu;
    p_.device_memory = !same_ && !host_memory_backend(*target);
    p_.main_plan = plan_for(p_.model.main, /*on_target=*/true);
    for (const Plan& plan : p_.plans) p_.stats.arena_bytes += plan.arena_bytes;
  }

 private:
  // Can `backend` run this kernel on these operands? Probes create() and
  // prepare() with the declared types (unknown dimensions as 1, data NULL as
  // in every prepare), so "no kernel for this dtype" is found here rather
  // than in the middle of an execution. Operands of unknown rank are probed
  // as ones of rank 1, then 2, 3 and 4 (all of them the same rank; 4 is
  // NNAPI's limit for the built-ins with kernels), and the kernel is taken if
  // one of these shapes is accepted: CONCATENATION of an unknown-rank
  // tensor with a [1, 1] one is fine at rank 2, not at the rank-1 guess.
  bool node_supported(Backend& backend, const KernelRef& k, const Subgraph& g, const Operation& op, std::string* why) {
    const PackageOp* reg = k.package->find_op(k.op_name);
    const std::string bname(backend_name(backend.kind()));
    if (reg == nullptr) {
      *why = k.package->name() + " has no op " + k.op_name;
      return false;
    }
    if (!(reg->backend_mask & OPRIG_BACKEND_BIT(backend.kind()))) {
      *why = k.package->name() + " registers no " + bname + " kernel for " + k.op_name;
      return false;
    }
    std::string load_why;
    const oprig_implementation_v1* impl = k.package->implementation(backend.kind(), &load_why);
    if (impl == nullptr) {
      *why = "the " + bname + " implementation of " + k.package->name() + " cannot be loaded: " + load_why;
      return false;
    }
    std::vector<oprig_param> params = param_views(*k.params);
    oprig_kernel* kernel = nullptr;
    oprig_status st = impl->create(&backend.context(), k.op_name.c_str(), params.data(), params.size(), &kernel);
    if (st != OPRIG_STATUS_OK || kernel == nullptr) {
      *why = "the " + bname + " create() of " + k.op_name + " returned " + status_name(st);
      return false;
    }
    bool unknown_rank = false;
    for (uint32_t kk : k.inputs)
      unknown_rank |= g.operands[kk].lifetime != Lifetime::kNoValue && !g.operands[kk].dims;
    for (size_t guess = 1;; ++guess) {
      std::vector<oprig_tensor> in, out;
      for (uint32_t kk : k.inputs) {
        const Operand& d = g.operands[kk];
        oprig_tensor t = declared_tensor(d);
        if (d.lifetime == Lifetime::kNoValue) {
          in.push_back(t);
          continue;
        }
        const std::vector<int64_t> dims = d.dims ? *d.dims : std::vector<int64_t>(guess, 1);
        t.rank = static_cast<uint32_t>(dims.size());
        for (size_t i = 0; i < dims.size(); ++i) t.dims[i] = dims[i] == 0 ? 1 : dims[i];
        t.bytes = shape_rules::element_count(std::vector<int64_t>(t.dims, t.dims + t.rank)) * dtype_size(d.dtype);
        in.push_back(t);
      }
      if (k.adapter == InputAdapter::kOneElementAsScalar && in.size() == 2) adapt_one_element(in[0], in[1]);
      for (uint32_t kk : op.outputs) out.push_back(declared_tensor(g.operands[kk]));
      st = impl->prepare(kernel, in.data(), in.size(), out.data(), out.size());
      if (st == OPRIG_STATUS_OK || !unknown_rank || guess == 4) break;
    }
    impl->destroy(kernel);
    if (st != OPRIG_STATUS_OK) {
      std::string types;
      for (uint32_t kk : k.inputs) types += (types.empty() ? "" : ", ") + operand_type_text(g.operands[kk]);
      *why = "the " + bname + " prepare() of " + k.op_name + " returned " + status_name(st) + " for " + types;
      return false;
    }
    return true;
  }

  KernelRef package_ref(const Operation& op) {
    KernelRef k;
    k.package = op.package;
    k.op_name = op.package_op;
    k.display = op.display_name();
    k.params = &op.params;
    k.inputs = op.inputs;
    return k;
  }

  // The device kernel of built-in o of subgraph s on the target, or nullopt
  // with *why.
  std::optional<KernelRef> builtin_on_target(uint32_t s, uint32_t o, std::string* why) {
    const Subgraph& g = p_.model.subgraphs[s];
    const Operation& op = g.operations[o];
    const Backend& target = *p_.backends.target;
    std::vector<const Operand*> in, out;
    for (uint32_t k : op.inputs) in.push_back(&g.operands[k]);
    for (uint32_t k : op.outputs) out.push_back(&g.operands[k]);
    // A device without the element type has no kernel for it, whatever a
    // package says (the dsp simulator is fixed-point: no float types).
    const std::vector<oprig_dtype>& types = target.info().dtypes;
    for (const Operand* d : in) {
      if (d->lifetime == Lifetime::kNoValue || std::find(types.begin(), types.end(), d->dtype) != types.end())
        continue;
      std::string list;
      for (oprig_dtype t : types) list += (list.empty() ? "" : ", ") + std::string(dtype_name(t));
      *why = p_.target_name + " has no " + std::string(dtype_name(d->dtype)) + " kernels (" + target.info().device_name +
             " computes " + list + " only)";
      return std::nullopt;
    }
    auto [it, inserted] = mapped_.try_emplace({s, o});
    if (inserted) it->second.kernel = map_->kernel_for(*op.builtin, in, out, &it->second.why);
    if (!it->second.kernel) {
      std::string types_text;
      for (const Operand* d : in) types_text += (types_text.empty() ? "" : ", ") + operand_type_text(*d);
      *why = "no device kernel for " + op.display_name() + " on " + types_text +
             (it->second.why.empty() ? "" : " (" + it->second.why + ")");
      return std::nullopt;
    }
    KernelRef k;
    const DeviceKernel& mapped = *it->second.kernel;
    k.package = mapped.package;
    k.op_name = mapped.op;
    k.display = mapped.display_name();
    k.params = &mapped.params;
    if (mapped.inputs.empty()) {
      k.inputs = op.inputs;
    } else {
      for (uint32_t position : mapped.inputs) {
        if (position >= op.inputs.size()) {
          *why = op.display_name() + " as " + k.display + ": the map names input " + std::to_string(position) +
                 " of " + std::to_string(op.inputs.size());
          return std::nullopt;
        }
        k.inputs.push_back(op.inputs[position]);
      }
    }
    for (uint32_t position : mapped.resolve_inputs) {
      if (position >= k.inputs.size()) {
        *why = op.display_name() + " as " + k.display + ": the map names kernel input " + std::to_string(position) +
               " of " + std::to_string(k.inputs.size());
        return std::nullopt;
      }
    }
    k.resolve_inputs = mapped.resolve_inputs;
    if (elementwise_binary(*op.builtin)) k.adapter = InputAdapter::kOneElementAsScalar;
    std::string reason;
    if (!node_supported(*p_.backends.target, k, g, op, &reason)) {
      *why = op.display_name() + " as " + k.display + ": " + reason;
      return std::nullopt;
    }
    return k;
  }

  // Every operation in s and, recursively, in every subgraph s references:
  // package ops always; built-ins when there is a built-in kernel map.
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
      std::string reason;
      if (op.package) {
        if (!node_supported(*p_.backends.target, package_ref(op), g, op, &reason)) {
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
      } else if (map_ != nullptr && !builtin_on_target(s, o, &reason)) {
        ok = false;
        *why = where(s, o, op) + ": " + reason;
      }
    }
    support_[s] = {ok, ok ? std::string() : *why};
    return ok;
  }

  static std::vector<uint32_t> callees(const Subgraph& g, const Operation& op) {
    return {g.operands[op.inputs[*op.builtin == BuiltinOp::kIf ? 1 : 0]].subgraph,
            g.operands[op.inputs[*op.builtin == BuiltinOp::kIf ? 2 : 1]].subgraph};
  }

  const char* target_text() const { return backend_name(p_.backends.target->kind()).data(); }

  uint32_t plan_for(uint32_t s, bool on_target) {
    if (same_) on_target = true;
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
    bool all_on_target = true;
    for (uint32_t o = 0; o < g.operations.size(); ++o) {
      const Operation& op = g.operations[o];
      Step step;
      step.op = &op;
      step.operation = o;
      step.index = o;
      std::string kernel_text;
      if (op.package) {
        Backend* backend = p_.plans[index].backend;
        const KernelRef k = package_ref(op);
        std::string why;
        if (on_target && !same_ && !node_supported(*backend, k, g, op, &why)) {
          p_.notes.push_back(where(s, o, op) + " runs on cpu: " + why);
          backend = p_.backends.cpu;
        }
        std::string cpu_why;
        if (backend != p_.backends.target && !node_supported(*backend, k, g, op, &cpu_why))
          throw PrepareError(where(s, o, op) + " cannot run: no " + p_.target_name + " kernel (" + why +
                             ") and no cpu kernel (" + cpu_why + ")");
        step.run = &run_package_op;
        step.kernel_node = add_node(op, index, *backend, k, nullptr);
        step.backend = backend_name(backend->kind()).data();
        all_on_target &= backend == p_.backends.target;
      } else if (is_control_flow(*op.builtin)) {
        bool callee_on_target = on_target;
        if (on_target && !same_) {
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
        const bool callees_all = p_.plans[step.callee_a].all_on_target && p_.plans[step.callee_b].all_on_target;
        step.callees_on_device = p_.device_memory && callee_on_target && callees_all;
        step.backend = !callee_on_target ? "cpu" : callees_all ? target_text() : mixed_name(p_.backends.target->kind());
        all_on_target &= callee_on_target && callees_all;
      } else {
        std::optional<KernelRef> k;
        if (on_target && !same_ && map_ != nullptr) {
          std::string why;
          k = builtin_on_target(s, o, &why);
          if (!k) p_.notes.push_back(where(s, o, op) + " runs on cpu: " + why);
        }
        if (k) {
          step.run = &run_package_op;
          step.kernel_node = add_node(op, index, *p_.backends.target, *k, &map_params(s, o));
          step.backend = target_text();
          kernel_text = k->display;
        } else {
          step.run = builtin_kernel(*op.builtin, p_.plans[index], op);
          if (step.run == nullptr) throw PrepareError(where(s, o, op) + ": no host kernel for these operand types");
          step.host_inputs = p_.device_memory;
          all_on_target &= same_;
        }
      }
      p_.placements.push_back({s, o, op.display_name(), step.backend, kernel_text});
      steps.push_back(step);
    }
    p_.plans[index].steps = std::move(steps);
    p_.plans[index].all_on_target = on_target && all_on_target;
    return index;
  }

  const std::vector<Param>& map_params(uint32_t s, uint32_t o) { return mapped_.at({s, o}).kernel->params; }

  uint32_t add_node(const Operation& op, uint32_t plan, Backend& backend, const KernelRef& k,
                    const std::vector<Param>* builtin_params) {
    PackageNode node;
    node.op = &op;
    node.inputs = k.inputs;
    node.resolve_inputs = k.resolve_inputs;
    node.plan = plan;
    node.backend = &backend;
    node.host_memory = host_memory_backend(backend);
    std::string why;
    node.impl = k.package->implementation(backend.kind(), &why);
    node.op_name = k.op_name;
    node.display_name = builtin_params ? op.display_name() + " (" + k.display + ")" : k.display;
    if (builtin_params) node.param_values = *builtin_params;
    node.adapter = k.adapter;
    p_.nodes.push_back(std::move(node));
    PackageNode& stored = p_.nodes.back();
    stored.params = param_views(builtin_params ? stored.param_values : op.params);
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
  const BuiltinKernelMap* map_;
  bool same_ = false;
  std::map<std::pair<uint32_t, bool>, uint32_t> plan_index_;
  std::map<uint32_t, std::pair<bool, std::string>> support_;
  struct Mapped {
    std::optional<DeviceKernel> kernel;
    std::string why;
  };
  std::map<std::pair<uint32_t, uint32_t>, Mapped> mapped_;
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
      scalar_input(other.scalar_input) {
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
    f.device.resize(plan.operands.size());
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
    const oprig_status st = node.impl->create(&node.backend->context(), node.op_name.c_str(), node.params.data(),
                                              node.params.size(), &ki.kernel);
    if (st != OPRIG_STATUS_OK || ki.kernel == nullptr)
      throw PrepareError(node.display_name + ": create() on " + std::string(backend_name(node.backend->kind())) +
                         " returned " + status_name(st));
    const Subgraph& g = *plans[node.plan].decl;
    for (uint32_t k : node.inputs) ki.in_desc.push_back(declared_tensor(g.operands[k]));
    for (uint32_t k : node.op->outputs) ki.out_desc.push_back(declared_tensor(g.operands[k]));
    ki.prepared_inputs.resize(node.inputs.size());
    ki.out_shapes.resize(node.op->outputs.size());
  }
  return state;
}

PreparedModel prepare(const Model& model, const BackendSet& backends, const PrepareOptions& options) {
  if (backends.target == nullptr || backends.cpu == nullptr) throw PrepareError("prepare() needs a target and a cpu backend");
  auto impl = std::make_shared<PreparedImpl>();
  impl->model = model;
  impl->backends = backends;
  Preparer(*impl, options).run();
  // The first execution state is built now, so kernel creation errors surface
  // at prepare and the first execute() allocates nothing.
  impl->pool.push_back(impl->make_state());
  impl->states_created = 1;
  PreparedModel prepared;
  prepared.impl_ = std::move(impl);
  return prepared;
}

const std::vector<std::string>& PreparedModel::placement_notes() const { return impl_->notes; }
const std::vector<OperationPlacement>& PreparedModel::placements() const { return impl_->placements; }

std::string DeviceKernel::display_name() const { return (package ? package->name() : std::string("?")) + ":" + op; }
MemoryStats PreparedModel::memory_stats() const { return impl_->stats; }
const Model& PreparedModel::model() const { return impl_->model; }
std::string_view PreparedModel::target_name() const { return impl_->target_name; }
size_t PreparedModel::execution_states() const {
  std::lock_guard lock(impl_->pool_mutex);
  return impl_->states_created;
}

}  // namespace oprig::graph
