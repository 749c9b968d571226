// A model every layer that measures or tests per-operation overhead runs: a
// chain of INT_32 [1] ADDs. The graph tests (execution, placement,
// residency) and the graph benchmarks (harness/bench/micro) build it here,
// so their figures and checks are of the same model.
#pragma once

#include <string>

namespace oprig::graph {

// y = ((x + 1) + 1) ... + 1 with `n` >= 1 ADDs, as oprig.model/1 JSON: input
// operand 0, the constant 1 as operand 1, ADD i writing operand i + 2.
std::string add_chain_model(int n);

}  // namespace oprig::graph
