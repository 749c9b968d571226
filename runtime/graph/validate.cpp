// Semantic validation of a model, run at load before anything executes. Each
// error carries the subgraph, operation and operand index and the JSON line.
#include <algorithm>
#include <set>

#include "core/dtype.hpp"
#include "graph/model.hpp"
#include "graph/shape_rules.hpp"
#include "package/loader.hpp"

namespace oprig::graph {
namespace {

class Validator {
 public:
  Validator(Model& model, const PackageResolver& packages) : m_(model), packages_(packages) {}

  void run() {
    resolve_extensions();
    for (size_t s = 0; s < m_.subgraphs.size(); ++s) check_operands(static_cast<int>(s));
    for (size_t s = 0; s < m_.subgraphs.size(); ++s) check_io(static_cast<int>(s));
    check_cycles();
    for (size_t s = 0; s < m_.subgraphs.size(); ++s) check_operations(static_cast<int>(s));
  }

 private:
  [[noreturn]] void fail(int subgraph, int operation, int operand, int line, const std::string& reason) const {
    Location at;
    at.file = m_.path.string();
    at.line = line;
    at.subgraph = subgraph;
    at.operation = operation;
    at.operand = operand;
    throw ModelError(at, reason);
  }

  void resolve_extensions() {
    if (m_.main >= m_.subgraphs.size()) fail(-1, -1, -1, 0, "main subgraph " + std::to_string(m_.main) + " does not exist");
    for (size_t i = 0; i < m_.extensions.size(); ++i) {
      Extension& ext = m_.extensions[i];
      if (ext.prefix == 0 || ext.prefix > kExtensionLowMask)
        fail(-1, -1, -1, 0, "extension " + std::to_string(i) + ": prefix must be in 1..65535");
      for (size_t j = 0; j < i; ++j)
        if (m_.extensions[j].prefix == ext.prefix || m_.extensions[j].package == ext.package)
          fail(-1, -1, -1, 0, "extension " + std::to_string(i) + ": prefix <-> package must be one to one");
      if (ext.resolved == nullptr) ext.resolved = packages_.find(ext.package);
      if (ext.resolved == nullptr) fail(-1, -1, -1, 0, "package '" + ext.package + "' is not loaded");
    }
  }

  void check_operands(int s) {
    const Subgraph& g = m_.subgraphs[s];
    for (size_t k = 0; k < g.operands.size(); ++k) {
      const Operand& o = g.operands[k];
      const int idx = static_cast<int>(k);
      if (o.lifetime == Lifetime::kSubgraph && o.subgraph >= m_.subgraphs.size())
        fail(s, -1, idx, o.line, "references subgraph " + std::to_string(o.subgraph) + ", the model has " +
                                     std::to_string(m_.subgraphs.size()));
      if (o.scale != 0 && !(dtype_is_signed_integer(o.dtype) || dtype_is_unsigned_integer(o.dtype)))
        fail(s, -1, idx, o.line, "only integer operands are quantised (scale != 0)");
      if (o.dims && o.dims->size() > OPRIG_MAX_RANK) fail(s, -1, idx, o.line, "rank over 8");
      if (o.scalar && (!o.dims || !o.dims->empty())) fail(s, -1, idx, o.line, "a scalar has rank 0 (dims [])");
      if (o.lifetime == Lifetime::kConstant) {
        if (!o.fully_known_shape()) fail(s, -1, idx, o.line, "a CONSTANT needs fully known dims");
        if (o.value.size() != shape_rules::element_count(*o.dims) * dtype_size(o.dtype))
          fail(s, -1, idx, o.line, "constant data size does not match dims and type");
      }
    }
  }

  void check_io(int s) {
    const Subgraph& g = m_.subgraphs[s];
    auto check_list = [&](const std::vector<uint32_t>& list, Lifetime lifetime, const char* what) {
      std::set<uint32_t> seen;
      for (size_t i = 0; i < list.size(); ++i) {
        if (list[i] >= g.operands.size())
          fail(s, -1, static_cast<int>(list[i]), g.line,
               std::string(what) + " " + std::to_string(i) + " is operand " + std::to_string(list[i]) +
                   ", which does not exist (the subgraph has " + std::to_string(g.operands.size()) + " operands)");
        const Operand& o = g.operands[list[i]];
        if (o.lifetime != lifetime)
          fail(s, -1, static_cast<int>(list[i]), o.line,
               std::string("listed as ") + what + " but its lifetime is " + std::string(lifetime_name(o.lifetime)));
        if (!seen.insert(list[i]).second)
          fail(s, -1, static_cast<int>(list[i]), o.line, std::string("listed twice as ") + what);
      }
      for (size_t k = 0; k < g.operands.size(); ++k)
        if (g.operands[k].lifetime == lifetime && !seen.count(static_cast<uint32_t>(k)))
          fail(s, -1, static_cast<int>(k), g.operands[k].line,
               "lifetime " + std::string(lifetime_name(lifetime)) + " but not listed in the subgraph's " + what + "s");
    };
    check_list(g.inputs, Lifetime::kSubgraphInput, "input");
    check_list(g.outputs, Lifetime::kSubgraphOutput, "output");
  }

  // Subgraph references form a DAG: a subgraph that reaches itself would
  // recurse forever.
  void check_cycles() {
    std::vector<int> state(m_.subgraphs.size(), 0);  // 0 new, 1 on the stack, 2 done
    std::vector<int> stack;
    for (size_t s = 0; s < m_.subgraphs.size(); ++s) visit(static_cast<int>(s), state, stack);
  }

  void visit(int s, std::vector<int>& state, std::vector<int>& stack) {
    if (state[s] == 2) return;
    stack.push_back(s);
    state[s] = 1;
    const Subgraph& g = m_.subgraphs[s];
    for (size_t k = 0; k < g.operands.size(); ++k) {
      const Operand& o = g.operands[k];
      if (o.lifetime != Lifetime::kSubgraph) continue;
      const int t = static_cast<int>(o.subgraph);
      if (state[t] == 1) {
        std::string path;
        auto from = std::find(stack.begin(), stack.end(), t);
        for (auto it = from; it != stack.end(); ++it) path += std::to_string(*it) + " -> ";
        path += std::to_string(t);
        fail(s, -1, static_cast<int>(k), o.line,
             "subgraph " + std::to_string(t) + " references itself " + (from + 1 == stack.end() ? "directly" : "indirectly") +
                 " (cycle of subgraphs " + path + ")");
      }
      visit(t, state, stack);
    }
    state[s] = 2;
    stack.pop_back();
  }

  void check_operations(int s) {
    Subgraph& g = m_.subgraphs[s];
    std::vector<bool> written(g.operands.size(), false);
    for (size_t k = 0; k < g.operands.size(); ++k) {
      const Lifetime l = g.operands[k].lifetime;
      written[k] = l != Lifetime::kTemporary && l != Lifetime::kSubgraphOutput;
    }
    for (size_t i = 0; i < g.operations.size(); ++i) {
      Operation& op = g.operations[i];
      const int oi = static_cast<int>(i);
      resolve_type(s, oi, op);
      for (size_t j = 0; j < op.inputs.size(); ++j) {
        const uint32_t k = op.inputs[j];
        if (k >= g.operands.size())
          fail(s, oi, static_cast<int>(k), op.line,
               "input " + std::to_string(j) + " is operand " + std::to_string(k) +
                   ", which does not exist (the subgraph has " + std::to_string(g.operands.size()) + " operands)");
        if (!written[k])
          fail(s, oi, static_cast<int>(k), op.line,
               "input " + std::to_string(j) + " (operand " + std::to_string(k) +
                   ") is used before any operation writes it");
      }
      for (size_t j = 0; j < op.outputs.size(); ++j) {
        const uint32_t k = op.outputs[j];
        if (k >= g.operands.size())
          fail(s, oi, static_cast<int>(k), op.line,
               "output " + std::to_string(j) + " is operand " + std::to_string(k) +
                   ", which does not exist (the subgraph has " + std::to_string(g.operands.size()) + " operands)");
        const Operand& o = g.operands[k];
        if (o.lifetime != Lifetime::kTemporary && o.lifetime != Lifetime::kSubgraphOutput)
          fail(s, oi, static_cast<int>(k), op.line,
               "output " + std::to_string(j) + " has lifetime " + std::string(lifetime_name(o.lifetime)) +
                   "; operations write only TEMPORARY or SUBGRAPH_OUTPUT operands");
        if (written[k]) fail(s, oi, static_cast<int>(k), op.line, "operand " + std::to_string(k) + " is written twice");
        written[k] = true;
      }
      if (op.builtin) {
        if (*op.builtin == BuiltinOp::kIf) check_if(s, oi, op);
        else if (*op.builtin == BuiltinOp::kWhile) check_while(s, oi, op);
        else check_builtin(s, oi, op);
      } else {
        check_package_op(s, oi, op);
      }
    }
    for (uint32_t k : g.outputs)
      if (!written[k])
        fail(s, -1, static_cast<int>(k), g.operands[k].line, "subgraph output " + std::to_string(k) + " is never written");
  }

  void resolve_type(int s, int oi, Operation& op) {
    const uint32_t prefix = extension_prefix(op.type), index = extension_index(op.type);
    if (prefix == 0) {
      op.builtin = builtin_from_code(index);
      if (!op.builtin) fail(s, oi, -1, op.line, "unknown built-in operation code " + std::to_string(index));
      return;
    }
    const Extension* ext = nullptr;
    for (const Extension& e : m_.extensions)
      if (e.prefix == prefix) ext = &e;
    if (ext == nullptr)
      fail(s, oi, -1, op.line, "type " + std::to_string(op.type) + " has extension prefix " + std::to_string(prefix) +
                                   ", which the model's \"extensions\" do not map to a package");
    const auto& ops = ext->resolved->ops();
    if (index >= ops.size())
      fail(s, oi, -1, op.line, "package '" + ext->package + "' has " + std::to_string(ops.size()) +
                                   " op(s); type " + std::to_string(op.type) + " asks for op index " +
                                   std::to_string(index));
    op.package = ext->resolved;
    op.package_op = ops[index].name;
  }

  const Operand& operand(int s, uint32_t k) const { return m_.subgraphs[s].operands[k]; }

  void check_package_op(int s, int oi, const Operation& op) {
    const PackageOp* reg = op.package->find_op(op.package_op);
    if (op.inputs.size() != reg->num_inputs || op.outputs.size() != reg->num_outputs)
      fail(s, oi, -1, op.line, op.display_name() + " takes " + std::to_string(reg->num_inputs) + " input(s) and " +
                                   std::to_string(reg->num_outputs) + " output(s), the operation has " +
                                   std::to_string(op.inputs.size()) + " and " + std::to_string(op.outputs.size()));
    for (const Param& p : op.params)
      if (std::find(reg->param_names.begin(), reg->param_names.end(), p.name) == reg->param_names.end())
        fail(s, oi, -1, op.line, op.display_name() + " has no parameter '" + p.name + "'");
    for (uint32_t k : op.inputs)
      if (operand(s, k).is_subgraph_reference)
        fail(s, oi, static_cast<int>(k), op.line, "a package op cannot take a SUBGRAPH operand");
    // The package sees an extension operand type only as its index: types of
    // another package would be ambiguous to it.
    auto own_types_only = [&](const std::vector<uint32_t>& list) {
      for (uint32_t k : list) {
        const Operand& o = operand(s, k);
        if (o.extension && o.extension->package != op.package->name())
          fail(s, oi, static_cast<int>(k), op.line,
               op.display_name() + " cannot take an operand of another package's type (" + operand_type_text(o) + ")");
      }
    };
    own_types_only(op.inputs);
    own_types_only(op.outputs);
    call_validate_hook(s, oi, op);
  }

  // The operand as the package's validate hook sees it at load: declared type
  // and dims (an unknown dimension is 0, an unknown rank is rank 0), the value
  // of a CONSTANT in host memory, no data otherwise; an omitted optional
  // operand (NO_VALUE) has dtype INVALID, as at prepare.
  oprig_tensor declared(int s, uint32_t k) const {
    const Operand& o = operand(s, k);
    oprig_tensor t{};
    if (o.lifetime == Lifetime::kNoValue) return t;
    t.dtype = abi_dtype(o);
    t.scale = o.scale;
    t.zero_point = o.zero_point;
    if (o.dims) {
      t.rank = static_cast<uint32_t>(o.dims->size());
      for (size_t i = 0; i < o.dims->size() && i < OPRIG_MAX_RANK; ++i) t.dims[i] = (*o.dims)[i];
    }
    if (o.lifetime == Lifetime::kConstant && !o.value.empty()) {
      t.data = const_cast<std::byte*>(o.value.data());
      t.bytes = o.value.size();
    }
    return t;
  }

  // NNAPI rejects a wrongly typed extension operand when the model is
  // compiled, not when it runs: the package's validate hook (optional) is
  // that check, so it runs here, before any kernel exists.
  void call_validate_hook(int s, int oi, const Operation& op) {
    const auto hook = op.package->registration().validate;
    if (hook == nullptr) return;
    std::vector<oprig_param> params;
    for (const Param& p : op.params)
      params.push_back({p.name.c_str(), static_cast<uint32_t>(p.dtype),
                        static_cast<uint32_t>(p.data.size() / dtype_size(p.dtype)), p.data.data()});
    std::vector<oprig_tensor> in, out;
    for (uint32_t k : op.inputs) in.push_back(declared(s, k));
    for (uint32_t k : op.outputs) out.push_back(declared(s, k));
    char message[512] = {};
    const oprig_status st = hook(op.package_op.c_str(), params.data(), params.size(), in.data(), in.size(), out.data(),
                                 out.size(), message, sizeof message);
    message[sizeof message - 1] = '\0';
    if (st != OPRIG_STATUS_OK)
      fail(s, oi, -1, op.line, op.display_name() + " is rejected by its package's validate hook (" +
                                   std::string(status_name(st)) + ")" + (message[0] ? ": " + std::string(message) : ""));
  }

  void check_builtin(int s, int oi, const Operation& op) {
    std::vector<const Operand*> in, out;
    for (uint32_t k : op.inputs) {
      const Operand& o = operand(s, k);
      if (o.is_subgraph_reference || o.lifetime == Lifetime::kNoValue)
        fail(s, oi, static_cast<int>(k), op.line,
             op.display_name() + " needs a tensor with a value, operand " + std::to_string(k) + " is " +
                 std::string(lifetime_name(o.lifetime)));
      in.push_back(&o);
    }
    for (uint32_t k : op.outputs) out.push_back(&operand(s, k));
    std::string why;
    int culprit = -1;
    if (!shape_rules::check_builtin(*op.builtin, in, out, &why, &culprit)) {
      const int operand_index = culprit < 0 ? -1
                                : culprit < static_cast<int>(op.inputs.size())
                                    ? static_cast<int>(op.inputs[culprit])
                                    : static_cast<int>(op.outputs[culprit - op.inputs.size()]);
      fail(s, oi, operand_index, op.line, op.display_name() + ": " + why);
    }
  }

  const Subgraph& referenced(int s, int oi, const Operation& op, size_t input, const char* role) const {
    if (input >= op.inputs.size()) fail(s, oi, -1, op.line, std::string("missing the ") + role + " subgraph input");
    const Operand& o = operand(s, op.inputs[input]);
    if (o.lifetime != Lifetime::kSubgraph)
      fail(s, oi, static_cast<int>(op.inputs[input]), op.line,
           "input " + std::to_string(input) + " (" + role + ") must be a SUBGRAPH operand, is " + operand_type_text(o));
    return m_.subgraphs[o.subgraph];
  }

  // A value flowing from `from` into `to` must agree in type, quantisation
  // and, where both know them, rank and dimensions.
  void check_compatible(int s, int oi, int operand_index, int line, const Operand& from, const Operand& to,
                        const std::string& what) const {
    std::string why;
    if (from.is_subgraph_reference || to.is_subgraph_reference) {
      if (from.is_subgraph_reference != to.is_subgraph_reference) why = "SUBGRAPH versus tensor";
    } else if (from.dtype != to.dtype || from.scale != to.scale || from.zero_point != to.zero_point ||
               from.scalar != to.scalar || from.extension != to.extension) {
      why = "type differs";
    } else if (!shape_rules::dims_compatible(from.dims, to.dims)) {
      why = "shape differs";
    }
    if (!why.empty())
      fail(s, oi, operand_index, line, what + ": " + why + " (" + operand_type_text(from) + " versus " +
                                           operand_type_text(to) + ")");
  }

  // NNAPI validateConditionOperand: a TENSOR_BOOL8 of shape [1]. An operand
  // without a value (NO_VALUE) can never be read: NNAPI's executor fails on
  // it ("Cannot read IF condition operand value"); oprig rejects the model
  // when it is loaded instead (opsuite/controlflow/bad/if_condition_no_value.json).
  void check_condition_operand(int s, int oi, int operand_index, int line, const Operand& c, const std::string& what) const {
    if (c.lifetime == Lifetime::kNoValue)
      fail(s, oi, operand_index, line, what + " has no value (lifetime NO_VALUE): an IF needs a condition to branch on");
    const bool shape_ok = !c.dims || (c.dims->size() == 1 && ((*c.dims)[0] == 1 || (*c.dims)[0] == 0));
    if (c.is_subgraph_reference || c.scalar || c.extension || c.dtype != OPRIG_DTYPE_BOOL_8 || !shape_ok)
      fail(s, oi, operand_index, line, what + " must be BOOL_8 [1], is " + operand_type_text(c));
  }

  void check_if(int s, int oi, const Operation& op) {
    if (op.inputs.size() < 3) fail(s, oi, -1, op.line, "IF needs inputs [condition, then, else, ...]");
    check_condition_operand(s, oi, static_cast<int>(op.inputs[0]), op.line, operand(s, op.inputs[0]), "IF condition (input 0)");
    const char* roles[2] = {"then", "else"};
    for (int b = 0; b < 2; ++b) {
      const Subgraph& branch = referenced(s, oi, op, 1 + b, roles[b]);
      const uint32_t bi = operand(s, op.inputs[1 + b]).subgraph;
      const std::string name = std::string(roles[b]) + " branch (subgraph " + std::to_string(bi) + ")";
      if (branch.inputs.size() != op.inputs.size() - 3 || branch.outputs.size() != op.outputs.size())
        fail(s, oi, static_cast<int>(op.inputs[1 + b]), op.line,
             name + " has " + std::to_string(branch.inputs.size()) + " inputs and " +
                 std::to_string(branch.outputs.size()) + " outputs; the IF passes " +
                 std::to_string(op.inputs.size() - 3) + " and expects " + std::to_string(op.outputs.size()));
      for (size_t j = 0; j < branch.inputs.size(); ++j)
        check_compatible(s, oi, static_cast<int>(op.inputs[3 + j]), op.line, operand(s, op.inputs[3 + j]),
                         branch.operands[branch.inputs[j]], name + " input " + std::to_string(j));
      for (size_t j = 0; j < branch.outputs.size(); ++j)
        check_compatible(s, oi, static_cast<int>(op.outputs[j]), op.line, branch.operands[branch.outputs[j]],
                         operand(s, op.outputs[j]), name + " output " + std::to_string(j));
    }
  }

  void check_while(int s, int oi, const Operation& op) {
    if (op.inputs.size() < 2) fail(s, oi, -1, op.line, "WHILE needs inputs [condition, body, ...]");
    const Subgraph& cond = referenced(s, oi, op, 0, "condition");
    const Subgraph& body = referenced(s, oi, op, 1, "body");
    const size_t operands_in = op.inputs.size() - 2;  // m + k + n
    const size_t m = op.outputs.size();
    if (m == 0) fail(s, oi, -1, op.line, "WHILE needs at least one output (loop-carried operand)");
    const size_t mk = body.outputs.size();
    if (mk < m || mk > operands_in)
      fail(s, oi, static_cast<int>(op.inputs[1]), op.line,
           "body has " + std::to_string(mk) + " outputs; it needs one per loop-carried (" + std::to_string(m) +
               ") and loop-state-only operand, at most the WHILE's " + std::to_string(operands_in) + " operand inputs");
    if (body.inputs.size() != operands_in)
      fail(s, oi, static_cast<int>(op.inputs[1]), op.line,
           "body has " + std::to_string(body.inputs.size()) + " inputs, the WHILE passes " + std::to_string(operands_in));
    if (cond.inputs.size() != operands_in || cond.outputs.size() != 1)
      fail(s, oi, static_cast<int>(op.inputs[0]), op.line,
           "condition subgraph has " + std::to_string(cond.inputs.size()) + " inputs and " +
               std::to_string(cond.outputs.size()) + " outputs; it needs " + std::to_string(operands_in) + " and 1");
    check_condition_operand(s, oi, static_cast<int>(op.inputs[0]), op.line, cond.operands[cond.outputs[0]],
                            "condition subgraph output");
    for (size_t j = 0; j < operands_in; ++j) {
      const Operand& given = operand(s, op.inputs[2 + j]);
      check_compatible(s, oi, static_cast<int>(op.inputs[2 + j]), op.line, given, body.operands[body.inputs[j]],
                       "body input " + std::to_string(j));
      check_compatible(s, oi, static_cast<int>(op.inputs[2 + j]), op.line, given, cond.operands[cond.inputs[j]],
                       "condition input " + std::to_string(j));
    }
    for (size_t j = 0; j < mk; ++j)
      check_compatible(s, oi, static_cast<int>(op.inputs[2 + j]), op.line, body.operands[body.outputs[j]],
                       body.operands[body.inputs[j]], "body output " + std::to_string(j) + " feeding back into body input " + std::to_string(j));
    for (size_t j = 0; j < m; ++j)
      check_compatible(s, oi, static_cast<int>(op.outputs[j]), op.line, body.operands[body.outputs[j]],
                       operand(s, op.outputs[j]), "WHILE output " + std::to_string(j));
  }

  Model& m_;
  const PackageResolver& packages_;
};

}  // namespace

void validate_model(Model& model, const PackageResolver& packages) { Validator(model, packages).run(); }

}  // namespace oprig::graph
