#include "add_chain_model.hpp"

namespace oprig::graph {

std::string add_chain_model(int n) {
  std::string operands = R"({"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},)"
                         R"({"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [1]})";
  std::string operations;
  for (int i = 0; i < n; ++i) {
    operands += std::string(R"(,{"type": "INT_32", "dims": [1], "lifetime": ")") +
                (i == n - 1 ? "SUBGRAPH_OUTPUT" : "TEMPORARY") + "\"}";
    operations += (i ? "," : "") + std::string(R"({"type": "ADD", "inputs": [)") + std::to_string(i == 0 ? 0 : i + 1) +
                  ",1], \"outputs\": [" + std::to_string(i + 2) + "]}";
  }
  return R"({"format": "oprig.model/1", "subgraphs": [{"operands": [)" + operands + R"(], "operations": [)" +
         operations + R"(], "inputs": [0], "outputs": [)" + std::to_string(n + 1) + "]}]}";
}

}  // namespace oprig::graph
