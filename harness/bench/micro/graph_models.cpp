#include "graph_models.hpp"

#include <cstring>

namespace oprig::bench {

const char* const kCountingLoop = R"({"format": "oprig.model/1", "subgraphs": [
  {"operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [0]},
     {"type": "SUBGRAPH", "lifetime": "SUBGRAPH", "subgraph": 1},
     {"type": "SUBGRAPH", "lifetime": "SUBGRAPH", "subgraph": 2},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "WHILE", "inputs": [2, 3, 1, 0], "outputs": [4]}],
   "inputs": [0], "outputs": [4]},
  {"operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "BOOL_8", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "LESS", "inputs": [0, 1], "outputs": [2]}],
   "inputs": [0, 1], "outputs": [2]},
  {"operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [1]},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "ADD", "inputs": [0, 2], "outputs": [3]}],
   "inputs": [0, 1], "outputs": [3]}]})";

graph::HostTensor int_input(int32_t v) {
  graph::HostTensor t;
  t.dtype = OPRIG_DTYPE_INT_32;
  t.shape = {1};
  t.data.resize(sizeof v);
  std::memcpy(t.data.data(), &v, sizeof v);
  return t;
}

double ns_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace oprig::bench
