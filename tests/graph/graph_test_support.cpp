#include "graph_test_support.hpp"
#include "registry.hpp"

#include "core/half.hpp"

#include <map>
#include <mutex>

namespace oprig::graph::test {

const PackageLibrary& packages() {
  static const PackageLibrary library = [] {
    PackageLibrary l;
    l.load(OPRIG_OPSUITE_PACKAGE);
    l.load(OPRIG_IOTA_PACKAGE);
    return l;
  }();
  return library;
}

Backend* backend_or_null(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Backend>> backends;
  std::lock_guard lock(mutex);
  auto it = backends.find(name);
  if (it == backends.end()) {
    std::string why;
    it = backends.emplace(name, create_backend(name, &why)).first;
  }
  return it->second.get();
}

Backend& cpu() { return *backend_or_null("cpu"); }

std::string model_path(const std::string& name) { return std::string(OPRIG_MODELS_DIR) + "/" + name; }
Model load(const std::string& name) { return load_model(model_path(name), packages()); }
Model parse(const std::string& json) { return parse_model(json, "inline.json", OPRIG_MODELS_DIR, packages()); }
PreparedModel prepare_on_cpu(const Model& model) { return prepare(model, {&cpu(), &cpu()}); }

HostTensor i32(int32_t v) { return tensor<int32_t>(OPRIG_DTYPE_INT_32, {1}, {v}); }
HostTensor b8(bool v) { return tensor<uint8_t>(OPRIG_DTYPE_BOOL_8, {1}, {static_cast<uint8_t>(v)}); }

std::string one_op(const std::string& op, const std::vector<std::string>& operands, const std::vector<int>& in,
                   const std::vector<int>& out, const std::string& model_keys) {
  auto list = [](const std::vector<int>& v) {
    std::string t;
    for (size_t i = 0; i < v.size(); ++i) t += (i ? "," : "") + std::to_string(v[i]);
    return t;
  };
  std::string body;
  std::vector<int> inputs, outputs;
  for (size_t k = 0; k < operands.size(); ++k) {
    body += (k ? ",\n" : "") + std::string("{") + operands[k] + "}";
    if (operands[k].find("\"SUBGRAPH_INPUT\"") != std::string::npos) inputs.push_back(static_cast<int>(k));
    if (operands[k].find("\"SUBGRAPH_OUTPUT\"") != std::string::npos) outputs.push_back(static_cast<int>(k));
  }
  return "{\"format\": \"oprig.model/1\"," + (model_keys.empty() ? "" : model_keys + ",") +
         "\"subgraphs\": [{\"operands\": [" + body + "], \"operations\": [{\"type\": \"" + op + "\", \"inputs\": [" +
         list(in) + "], \"outputs\": [" + list(out) + "]}], \"inputs\": [" + list(inputs) + "], \"outputs\": [" +
         list(outputs) + "]}]}";
}

ExecutionResult run_json(const std::string& json, const std::vector<HostTensor>& inputs) {
  const PreparedModel p = prepare_on_cpu(parse(json));
  return p.execute(inputs);
}

std::string load_error(const std::string& json) {
  try {
    parse(json);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

std::vector<float> halves(const HostTensor& t) {
  std::vector<float> out;
  for (uint16_t h : values<uint16_t>(t)) out.push_back(half_to_float(h));
  return out;
}

}  // namespace oprig::graph::test
