// Model JSON (oprig.model/1, `oprig model run`, model suites): parse_model
// with the com.example.fibonacci package loaded (extension types and ops)
// and tests/data/models as the folder of .npy constants; what it accepts is
// written with write_model_json and reads back into the same model.
#include "fuzz_support.hpp"
#include "graph/model.hpp"
#include "graph/package_library.hpp"

namespace {

using namespace oprig;
using namespace oprig::graph;

const PackageLibrary& packages() {
  static const PackageLibrary library = [] {
    PackageLibrary l;
    l.load(OPRIG_FIBONACCI_PACKAGE);
    return l;
  }();
  return library;
}

// Everything but the line numbers, which the writer's layout changes.
bool same(const Operand& a, const Operand& b) {
  return a.name == b.name && a.is_subgraph_reference == b.is_subgraph_reference && a.dtype == b.dtype &&
         a.scalar == b.scalar && a.extension == b.extension && a.dims == b.dims && a.scale == b.scale &&
         a.zero_point == b.zero_point && a.lifetime == b.lifetime && a.value == b.value && a.subgraph == b.subgraph;
}

bool same(const Operation& a, const Operation& b) {
  if (a.type != b.type || a.inputs != b.inputs || a.outputs != b.outputs || a.builtin != b.builtin ||
      a.package != b.package || a.package_op != b.package_op || a.params.size() != b.params.size())
    return false;
  for (size_t i = 0; i < a.params.size(); ++i)
    if (a.params[i].name != b.params[i].name || a.params[i].dtype != b.params[i].dtype ||
        a.params[i].data != b.params[i].data)
      return false;
  return true;
}

bool same(const Model& a, const Model& b) {
  if (a.relax_float32_to_float16 != b.relax_float32_to_float16 || a.main != b.main ||
      a.extensions.size() != b.extensions.size() || a.subgraphs.size() != b.subgraphs.size())
    return false;
  for (size_t i = 0; i < a.extensions.size(); ++i)
    if (a.extensions[i].prefix != b.extensions[i].prefix || a.extensions[i].package != b.extensions[i].package ||
        a.extensions[i].resolved != b.extensions[i].resolved)
      return false;
  for (size_t s = 0; s < a.subgraphs.size(); ++s) {
    const Subgraph &x = a.subgraphs[s], &y = b.subgraphs[s];
    if (x.name != y.name || x.inputs != y.inputs || x.outputs != y.outputs || x.operands.size() != y.operands.size() ||
        x.operations.size() != y.operations.size())
      return false;
    for (size_t k = 0; k < x.operands.size(); ++k)
      if (!same(x.operands[k], y.operands[k])) return false;
    for (size_t k = 0; k < x.operations.size(); ++k)
      if (!same(x.operations[k], y.operations[k])) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)packages();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::filesystem::path models = fuzz::source_path("tests/data/models");
  Model model;
  if (!fuzz::reads_or_refuses<ModelError>([&] { model = parse_model(text, "fuzz.json", models, packages()); },
                                          "fuzz.json"))
    return 0;
  std::string written;
  try {
    written = write_model_json(model);
  } catch (const std::invalid_argument&) {
    return 0;  // a non-finite constant from a .npy file
  }
  Model back;
  try {
    back = parse_model(written, "written.json", models, packages());
  } catch (const ModelError& e) {
    fuzz::finding(std::string("the written model does not read back: ") + e.what() + "\n" + written);
  }
  if (!same(model, back)) fuzz::finding("model -> JSON -> model changed it:\n" + written);
  if (write_model_json(back) != written) fuzz::finding("write_model_json is not stable:\n" + written);
  return 0;
}
