// Which package op computes a built-in operation on a device. The runtime
// never links opsuite/ or backends/ (runtime <- backends <- opsuite <-
// harness): whoever calls prepare() hands it a map, and the built-in then
// runs on the target through the package's C ABI like any package op, when
// the target has that op's kernel for the operand types at hand. Without a
// map every built-in runs on the host (builtin_kernels.cpp), which is also
// the cpu path of built-ins and the fallback of every other backend.
//
// The harness supplies the opsuite's map (harness/models/builtin_kernels.hpp):
// ADD/SUB/MUL -> org.oprig.opsuite:ElementwiseBinary, comparisons, logical
// ops and CAST -> org.oprig.builtins.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "graph/model.hpp"

namespace oprig::graph {

// A package op standing for a built-in: its package (loaded and kept alive by
// the map's owner for as long as any PreparedModel made with it), the op's
// name in the package's registration, the parameters that select the
// built-in's behaviour (e.g. ElementwiseBinary's operation = ADD, or a
// constant operand of the built-in such as NNAPI's fused activation turned
// into a parameter), and which of the built-in's inputs the package op takes.
struct DeviceKernel {
  Package* package = nullptr;
  std::string op;
  std::vector<Param> params;
  // Positions in the built-in's input list, in the order the package op
  // takes them; empty: all of them, in order. (ADD's [a, b, activation]
  // reaches ElementwiseBinary as inputs {0, 1} and a parameter.)
  std::vector<uint32_t> inputs;
  // For a package op whose output shape depends on input values (its
  // prepare() leaves -1, see the ABI's resolve_shapes): positions in the
  // package op's inputs whose values resolve_shapes() reads, which the
  // executor brings to the host before every execute; the others stay where
  // they are (their data pointer is NULL there). Empty: all of them.
  std::vector<uint32_t> resolve_inputs;
  std::string display_name() const;  // "org.oprig.opsuite:ElementwiseBinary"
};

class BuiltinKernelMap {
 public:
  virtual ~BuiltinKernelMap() = default;
  // The package op computing `op` on operands of these declared types
  // (dims may be unknown), or nullopt with *why when the map has none (the
  // built-in then runs on the host; *why goes into the placement note).
  // Whether a given backend has a kernel for it is the package's business:
  // prepare() asks the package (registration, create(), prepare() on the
  // declared types). A map names a package op only where that op computes
  // exactly what the host kernel does.
  virtual std::optional<DeviceKernel> kernel_for(BuiltinOp op, std::span<const Operand* const> inputs,
                                                 std::span<const Operand* const> outputs, std::string* why) const = 0;
};

}  // namespace oprig::graph
