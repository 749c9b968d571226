// Shared helpers of the graph runtime tests: packages, backends, tensors.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "graph/model.hpp"
#include "graph/package_library.hpp"
#include "graph/prepared_model.hpp"

namespace oprig::graph::test {

// The bundled opsuite package (org.oprig.opsuite, Atan = op 0) and the iota
// test package, loaded once per test binary.
const PackageLibrary& packages();
// The cpu backend, created once; nullptr never (the cpu backend always exists).
Backend& cpu();
// A backend by name, or nullptr when unavailable here.
Backend* backend_or_null(const std::string& name);

std::string model_path(const std::string& name);  // tests/data/models/<name>
Model load(const std::string& name);
Model parse(const std::string& json);
PreparedModel prepare_on_cpu(const Model& model);

template <typename T>
HostTensor tensor(oprig_dtype dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}
HostTensor i32(int32_t v);
HostTensor b8(bool v);

// A one-subgraph model of one operation. `operands` are JSON object bodies
// (without braces), each with its "lifetime"; the operation reads operands
// `in` and writes `out`; the subgraph's inputs and outputs are its
// SUBGRAPH_INPUT and SUBGRAPH_OUTPUT operands in order. `model_keys` adds
// top-level keys (e.g. "\"relax_float32_to_float16\": true").
std::string one_op(const std::string& op, const std::vector<std::string>& operands, const std::vector<int>& in,
                   const std::vector<int>& out, const std::string& model_keys = "");
// Loads, prepares on cpu and runs a model text with these inputs.
ExecutionResult run_json(const std::string& json, const std::vector<HostTensor>& inputs = {});
// The load error of a model text ("" when it loads).
std::string load_error(const std::string& json);
// FLOAT_16 elements of a tensor as floats.
std::vector<float> halves(const HostTensor& t);

template <typename T>
std::vector<T> values(const HostTensor& t) {
  std::vector<T> out(t.data.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.data.data(), t.data.size());
  return out;
}

}  // namespace oprig::graph::test
