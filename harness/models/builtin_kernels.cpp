#include "models/builtin_kernels.hpp"

#include <cstdlib>
#include <cstring>

#include "runner/suite.hpp"

namespace oprig::harness::models {
namespace {

using graph::BuiltinOp;

graph::Param enum_index(const char* name, uint32_t index) {
  graph::Param p;
  p.name = name;
  p.dtype = OPRIG_DTYPE_UINT_32;  // the specs' enumeration type: the value's index
  p.data.resize(sizeof index);
  std::memcpy(p.data.data(), &index, sizeof index);
  return p;
}

// NNAPI's fused-activation operand (input `position`, an INT32 scalar) as
// the enumeration index of a package op's `fused_activation` (NONE, RELU,
// RELU1, RELU6: the FuseCode values in order). Only a constant can become a
// parameter; nullopt with *why otherwise. No such input: NONE.
std::optional<uint32_t> constant_activation(std::span<const graph::Operand* const> inputs, size_t position,
                                            std::string* why) {
  if (position >= inputs.size()) return 0;
  const graph::Operand& act = *inputs[position];
  if (act.lifetime != graph::Lifetime::kConstant || act.value.size() != sizeof(int32_t)) {
    *why = "the fused activation is not a constant (the device kernels take it as a parameter)";
    return std::nullopt;
  }
  int32_t code;
  std::memcpy(&code, act.value.data(), sizeof code);
  if (!graph::is_fuse_code(code)) {
    *why = "the fused activation " + std::to_string(code) + " is not a FuseCode";
    return std::nullopt;
  }
  return static_cast<uint32_t>(code);
}

graph::Param int32_param(const char* name, int32_t value) {
  graph::Param p;
  p.name = name;
  p.dtype = OPRIG_DTYPE_INT_32;
  p.data.resize(sizeof value);
  std::memcpy(p.data.data(), &value, sizeof value);
  return p;
}

bool any_quantised(std::span<const graph::Operand* const> operands) {
  for (const graph::Operand* o : operands)
    if (o->scale != 0) return true;
  return false;
}

}  // namespace

std::filesystem::path default_builtins_package_path() {
  if (const char* env = std::getenv("OPRIG_BUILTINS_PACKAGE")) return env;
  if (auto p = installed_path("lib/oprig/liboprig_builtins.so"); !p.empty()) return p;
  return OPRIG_BUILT_BUILTINS_PATH;
}

OpsuiteBuiltinKernels::OpsuiteBuiltinKernels(const std::filesystem::path& opsuite_package,
                                             const std::filesystem::path& builtins_package)
    : opsuite_(Package::load(opsuite_package)), builtins_(Package::load(builtins_package)) {}

std::unique_ptr<OpsuiteBuiltinKernels> OpsuiteBuiltinKernels::bundled() {
  return std::make_unique<OpsuiteBuiltinKernels>(default_package_path(), default_builtins_package_path());
}

std::optional<graph::DeviceKernel> OpsuiteBuiltinKernels::kernel_for(BuiltinOp op,
                                                                      std::span<const graph::Operand* const> inputs,
                                                                      std::span<const graph::Operand* const> outputs,
                                                                      std::string* why) const {
  graph::DeviceKernel k;
  auto in_builtins = [&](const char* name) {
    k.package = builtins_.get();
    k.op = name;
  };
  const bool quantised = any_quantised(inputs) || any_quantised(outputs);
  // Quantised comparisons go to Compare too: it compares the real values
  // (each input with its own scale and zero point) as the host does.
  switch (op) {
    case BuiltinOp::kAdd:
    case BuiltinOp::kSub:
    case BuiltinOp::kMul: {
      // The activation operand becomes the package op's fused_activation.
      const std::optional<uint32_t> act = constant_activation(inputs, 2, why);
      if (!act) return std::nullopt;
      if (quantised) {
        // NNAPI's integer requantisation, code for code.
        in_builtins("QuantizedArithmetic");
      } else {
        k.package = opsuite_.get();
        k.op = "ElementwiseBinary";
      }
      k.params.push_back(enum_index("operation", op == BuiltinOp::kAdd ? 0 : op == BuiltinOp::kSub ? 1 : 2));
      k.params.push_back(enum_index("fused_activation", *act));
      k.inputs = {0, 1};
      return k;
    }
    case BuiltinOp::kDiv: {
      // IEEE division for floats; TENSOR_INT32 is NNAPI's floor division
      // (x / 0 = 0, INT32_MIN / -1 wraps), ElementwiseBinary's FLOOR.
      const std::optional<uint32_t> act = constant_activation(inputs, 2, why);
      if (!act) return std::nullopt;
      k.package = opsuite_.get();
      k.op = "ElementwiseBinary";
      k.params.push_back(enum_index("operation", 3));
      k.params.push_back(enum_index("fused_activation", *act));
      k.params.push_back(enum_index("integer_division", 1));
      k.inputs = {0, 1};
      return k;
    }
    case BuiltinOp::kFullyConnected: {
      const std::optional<uint32_t> act = constant_activation(inputs, 3, why);
      if (!act) return std::nullopt;
      in_builtins("FullyConnected");
      k.params.push_back(enum_index("fused_activation", *act));
      k.inputs = {0, 1, 2};
      return k;
    }
    case BuiltinOp::kSlice:
      // The output shape depends on begin and size: the kernel reads only
      // those two on the host (resolve_shapes); the input stays where it is.
      in_builtins("Slice");
      k.resolve_inputs = {1, 2};
      return k;
    case BuiltinOp::kConcatenation: {
      // Concat copies; NNAPI requantises an input whose quantisation differs
      // from the output's, which a copy cannot.
      const graph::Operand& axis = *inputs.back();
      const graph::Operand& out = *outputs[0];
      for (size_t i = 0; i + 1 < inputs.size(); ++i)
        if (inputs[i]->scale != out.scale || inputs[i]->zero_point != out.zero_point) {
          *why = "an input's quantisation differs from the output's: NNAPI requantises it, Concat copies";
          return std::nullopt;
        }
      if (axis.lifetime != graph::Lifetime::kConstant || axis.value.size() != sizeof(int32_t)) {
        *why = "the axis is not a constant (Concat takes it as a parameter)";
        return std::nullopt;
      }
      int32_t a;
      std::memcpy(&a, axis.value.data(), sizeof a);
      if (a < 0) {  // NNAPI refuses it (Concat would count from the end)
        *why = "a negative axis";
        return std::nullopt;
      }
      k.package = opsuite_.get();
      k.op = "Concat";
      k.params.push_back(int32_param("axis", a));
      for (uint32_t i = 0; i + 1 < inputs.size(); ++i) k.inputs.push_back(i);
      return k;
    }
    case BuiltinOp::kLess: in_builtins("Compare"); k.params.push_back(enum_index("operation", 0)); return k;
    case BuiltinOp::kLessEqual: in_builtins("Compare"); k.params.push_back(enum_index("operation", 1)); return k;
    case BuiltinOp::kGreater: in_builtins("Compare"); k.params.push_back(enum_index("operation", 2)); return k;
    case BuiltinOp::kGreaterEqual: in_builtins("Compare"); k.params.push_back(enum_index("operation", 3)); return k;
    case BuiltinOp::kEqual: in_builtins("Compare"); k.params.push_back(enum_index("operation", 4)); return k;
    case BuiltinOp::kNotEqual: in_builtins("Compare"); k.params.push_back(enum_index("operation", 5)); return k;
    case BuiltinOp::kLogicalAnd: in_builtins("Logical"); k.params.push_back(enum_index("operation", 0)); return k;
    case BuiltinOp::kLogicalOr: in_builtins("Logical"); k.params.push_back(enum_index("operation", 1)); return k;
    case BuiltinOp::kLogicalNot: in_builtins("LogicalNot"); return k;
    case BuiltinOp::kCast:
      if (quantised) {
        *why = "a quantised CAST keeps the built-in's requantisation on the host";
        return std::nullopt;
      }
      in_builtins("Cast");
      return k;
    default:
      *why = "the opsuite has no kernel for it";
      return std::nullopt;
  }
}

}  // namespace oprig::harness::models
