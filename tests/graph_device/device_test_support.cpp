#include "device_test_support.hpp"

#include <map>
#include <mutex>

#include "kept_until_exit.hpp"
#include "registry.hpp"

namespace oprig::graph::device_test {

const PackageLibrary& packages() {
  static const PackageLibrary library = [] {
    PackageLibrary l;
    l.load(OPRIG_OPSUITE_PACKAGE);
    return l;
  }();
  return library;
}

const BuiltinKernelMap& builtin_kernels() {
  static const harness::models::OpsuiteBuiltinKernels map(OPRIG_OPSUITE_PACKAGE, OPRIG_BUILTINS_PACKAGE);
  return map;
}

Backend* backend_or_null(const std::string& name) {
  static std::mutex mutex;
  // Never destroyed (kept_until_exit.hpp: at exit the driver may already be gone).
  static auto& backends = kept_until_exit<std::map<std::string, std::unique_ptr<Backend>>>();
  std::lock_guard lock(mutex);
  auto it = backends.find(name);
  if (it == backends.end()) {
    std::string why;
    it = backends.emplace(name, create_backend(name, &why)).first;
  }
  return it->second.get();
}

Backend& cpu() { return *backend_or_null("cpu"); }
bool device_memory(const std::string& backend) { return backend == "opencl" || backend == "vulkan"; }

Model parse(const std::string& json) { return parse_model(json, "inline.json", ".", packages()); }
PreparedModel prepare_on(Backend& target, const Model& model) {
  return prepare(model, {&target, &cpu()}, {&builtin_kernels()});
}
PreparedModel prepare_on_cpu(const Model& model) { return prepare(model, {&cpu(), &cpu()}); }

const char* const kCountingLoop = R"({"format": "oprig.model/1", "subgraphs": [
  {"name": "main", "operands": [
     {"name": "n", "type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [0]},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [0]},
     {"type": "SUBGRAPH", "lifetime": "SUBGRAPH", "subgraph": 1},
     {"type": "SUBGRAPH", "lifetime": "SUBGRAPH", "subgraph": 2},
     {"name": "i", "type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"},
     {"name": "acc", "type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "WHILE", "inputs": [3, 4, 1, 2, 0], "outputs": [5, 6]}],
   "inputs": [0], "outputs": [5, 6]},
  {"name": "i_less_n", "operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "BOOL_8", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "LESS", "inputs": [0, 2], "outputs": [3]}],
   "inputs": [0, 1, 2], "outputs": [3]},
  {"name": "count_and_sum", "operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [1]},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "ADD", "inputs": [0, 3], "outputs": [4]},
                  {"type": "ADD", "inputs": [1, 4], "outputs": [5]}],
   "inputs": [0, 1, 2], "outputs": [4, 5]}]})";

const char* const kCountingLoopWithQuantisedCast = R"({"format": "oprig.model/1", "subgraphs": [
  {"name": "main", "operands": [
     {"name": "n", "type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [0]},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [0]},
     {"type": "SUBGRAPH", "lifetime": "SUBGRAPH", "subgraph": 1},
     {"type": "SUBGRAPH", "lifetime": "SUBGRAPH", "subgraph": 2},
     {"name": "i", "type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"},
     {"name": "acc", "type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "WHILE", "inputs": [3, 4, 1, 2, 0], "outputs": [5, 6]}],
   "inputs": [0], "outputs": [5, 6]},
  {"name": "i_less_n", "operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "BOOL_8", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "LESS", "inputs": [0, 2], "outputs": [3]}],
   "inputs": [0, 1, 2], "outputs": [3]},
  {"name": "count_sum_and_requantise", "operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [1]},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "TEMPORARY"},
     {"type": "UINT_8", "dims": [1], "scale": 1.0, "zero_point": 0, "lifetime": "TEMPORARY"},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "ADD", "inputs": [0, 3], "outputs": [4]},
                  {"type": "ADD", "inputs": [1, 4], "outputs": [5]},
                  {"type": "CAST", "inputs": [5], "outputs": [6]},
                  {"type": "CAST", "inputs": [6], "outputs": [7]}],
   "inputs": [0, 1, 2], "outputs": [4, 7]}]})";

const char* const kEndlessLoop = R"({"format": "oprig.model/1", "subgraphs": [
  {"name": "main", "operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "SUBGRAPH", "lifetime": "SUBGRAPH", "subgraph": 1},
     {"type": "SUBGRAPH", "lifetime": "SUBGRAPH", "subgraph": 2},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "WHILE", "inputs": [1, 2, 0], "outputs": [3]}],
   "inputs": [0], "outputs": [3]},
  {"name": "i_at_least_0", "operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [0]},
     {"type": "BOOL_8", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "GREATER_EQUAL", "inputs": [0, 1], "outputs": [2]}],
   "inputs": [0], "outputs": [2]},
  {"name": "add_0", "operands": [
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_INPUT"},
     {"type": "INT_32", "dims": [1], "lifetime": "CONSTANT", "value": [0]},
     {"type": "INT_32", "dims": [1], "lifetime": "SUBGRAPH_OUTPUT"}],
   "operations": [{"type": "ADD", "inputs": [0, 1], "outputs": [2]}],
   "inputs": [0], "outputs": [2]}]})";

}  // namespace oprig::graph::device_test
