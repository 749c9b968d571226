#include "graph_test_support.hpp"
#include "registry.hpp"

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

}  // namespace oprig::graph::test
