// The opsuite's built-in kernel map (runtime/graph/builtin_kernel_map.hpp):
// which package op computes each graph built-in on a device.
//   ADD, SUB, MUL        -> org.oprig.opsuite:ElementwiseBinary (operation ADD, SUB, MUL; a
//                           constant activation operand as its fused_activation, the kernel
//                           taking the two tensors only); quantised: org.oprig.builtins:
//                           QuantizedArithmetic (NNAPI's requantisation, the same parameters)
//   DIV                  -> org.oprig.opsuite:ElementwiseBinary (operation DIV, integer_division
//                           FLOOR: NNAPI's TENSOR_INT32 DIV; floats divide as IEEE)
//   LESS ... NOT_EQUAL   -> org.oprig.builtins:Compare (operation by name)
//   LOGICAL_AND, _OR     -> org.oprig.builtins:Logical (AND, OR)
//   LOGICAL_NOT          -> org.oprig.builtins:LogicalNot
//   CAST                 -> org.oprig.builtins:Cast
//   FULLY_CONNECTED      -> org.oprig.builtins:FullyConnected (the activation as a parameter)
//   SLICE                -> org.oprig.builtins:Slice (begin and size read on the host to size the output)
//   CONCATENATION        -> org.oprig.opsuite:Concat (a copy: inputs quantised as the output; the
//                           constant axis as its parameter)
// Only where the package op computes exactly what the runtime's host kernel
// does (FLOAT_16: ElementwiseBinary computes in fp32 and rounds once,
// Compare orders the bits; quantised: QuantizedArithmetic gives NNAPI's
// codes, Compare compares float((q - zero_point)) * scale as the host does).
// A quantised CAST keeps its conversion on the host and says so in the
// placement note.
#pragma once

#include <filesystem>
#include <memory>

#include "graph/builtin_kernel_map.hpp"
#include "package/loader.hpp"

namespace oprig::harness::models {

class OpsuiteBuiltinKernels final : public graph::BuiltinKernelMap {
 public:
  // Loads the two registration libraries (throws PackageError).
  OpsuiteBuiltinKernels(const std::filesystem::path& opsuite_package, const std::filesystem::path& builtins_package);
  // The bundled ones: default_package_path() and default_builtins_package_path().
  static std::unique_ptr<OpsuiteBuiltinKernels> bundled();

  std::optional<graph::DeviceKernel> kernel_for(graph::BuiltinOp op, std::span<const graph::Operand* const> inputs,
                                                std::span<const graph::Operand* const> outputs,
                                                std::string* why) const override;

 private:
  std::unique_ptr<Package> opsuite_, builtins_;
};

// OPRIG_BUILTINS_PACKAGE when set, else lib/oprig/liboprig_builtins.so of an
// installed oprig, else the build tree's.
std::filesystem::path default_builtins_package_path();

}  // namespace oprig::harness::models
