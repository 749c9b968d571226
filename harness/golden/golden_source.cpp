#include "golden/golden_source.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "core/dtype.hpp"
#include "spec/opdef.hpp"

namespace oprig::harness {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::filesystem::path& manifest, const std::string& what) {
  throw std::runtime_error(manifest.string() + ": " + what);
}

void find_manifests(const std::filesystem::path& dir, int depth, std::vector<std::filesystem::path>& out) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_directory()) continue;
    if (std::filesystem::exists(entry.path() / "manifest.json")) out.push_back(entry.path() / "manifest.json");
    else if (depth > 0) find_manifests(entry.path(), depth - 1, out);
  }
}

CaseTensor tensor_from(const json& t, const std::filesystem::path& manifest, const std::string& where, bool output) {
  CaseTensor ct;
  if (t.is_null() || (t.is_object() && t.value("present", true) == false)) {
    ct.present = false;
    if (t.is_object()) ct.name = t.value("name", "");
    return ct;
  }
  if (!t.is_object()) bad(manifest, where + ": expected an object");
  ct.name = t.value("name", "");
  ct.file = t.value("file", "");
  if (ct.file.empty()) bad(manifest, where + ": needs \"file\" (the .npy beside the manifest)");
  // Float outputs may be stored wider than the kernel's type ("of_dtype").
  const std::string type_name = output && t.contains("of_dtype") ? t.at("of_dtype").get<std::string>()
                                                                  : t.value("dtype", "");
  const auto dtype = dtype_from_name(type_name);
  if (!dtype) bad(manifest, where + ": unknown dtype '" + type_name + "'");
  ct.quant.scale = t.value("scale", 0.0);
  ct.quant.zero_point = t.value("zero_point", 0);
  ct.type = {*dtype, ct.quant.scale != 0};
  ct.shape = t.value("shape", std::vector<int64_t>{});
  ct.layout = t.value("layout", "");
  return ct;
}

// A golden case runs on a backend only where the spec allows its types.
bool types_allowed(const Case& c, const OpCaseSpace& space, const std::string& backend) {
  auto fits = [&](const std::vector<CaseTensor>& tensors, const std::vector<TensorSlot>& slots) {
    for (size_t k = 0; k < tensors.size(); ++k) {
      if (!tensors[k].present || slots.empty()) continue;
      const TensorSlot& slot = slots[std::min(k, slots.size() - 1)];
      const auto it = slot.types_by_backend.find(backend);
      if (it == slot.types_by_backend.end() ||
          std::find(it->second.begin(), it->second.end(), tensors[k].type) == it->second.end())
        return false;
    }
    return true;
  };
  return fits(c.inputs, space.inputs) && fits(c.outputs, space.outputs);
}

}  // namespace

json manifest_params(const json& manifest) {
  json out = json::object();
  const json params = manifest.value("params", json::object());
  if (!params.is_object()) return out;
  for (const auto& [name, value] : params.items())
    out[name] = value.is_object() && value.contains("value") ? value.at("value") : value;
  return out;
}

std::vector<Case> golden_folder_cases(const std::filesystem::path& root, const OpCaseSpace& space,
                                      const std::vector<std::string>& backends) {
  if (!std::filesystem::is_directory(root)) throw std::runtime_error(root.string() + ": not a golden folder");
  std::vector<std::filesystem::path> manifests;
  find_manifests(root, 3, manifests);
  std::sort(manifests.begin(), manifests.end());
  std::vector<Case> out;
  for (const auto& manifest : manifests) {
    std::ifstream in(manifest);
    json m;
    try {
      m = json::parse(in);
    } catch (const json::exception& e) {
      bad(manifest, std::string("not valid JSON: ") + e.what());
    }
    if (!m.is_object() || !spec::iequals(m.value("op", ""), space.op)) continue;
    Case base;
    base.op = space.op;
    base.package = m.value("package", space.package);
    base.golden_dir = manifest.parent_path().string();
    base.fill = "golden";
    base.variant = "golden";
    base.params = manifest_params(m);
    const json inputs = m.value("inputs", json::array());
    const json outputs = m.value("outputs", json::array());
    if (!inputs.is_array() || !outputs.is_array() || outputs.empty())
      bad(manifest, "needs \"inputs\" and a non-empty \"outputs\" array");
    for (size_t k = 0; k < inputs.size(); ++k)
      base.inputs.push_back(tensor_from(inputs[k], manifest, "inputs[" + std::to_string(k) + "]", false));
    for (size_t k = 0; k < outputs.size(); ++k)
      base.outputs.push_back(tensor_from(outputs[k], manifest, "outputs[" + std::to_string(k) + "]", true));
    // Unnamed tensors take the spec's names by position.
    for (size_t k = 0; k < base.inputs.size(); ++k)
      if (base.inputs[k].name.empty() && !space.inputs.empty())
        base.inputs[k].name = space.inputs[std::min(k, space.inputs.size() - 1)].name;
    for (size_t k = 0; k < base.outputs.size(); ++k)
      if (base.outputs[k].name.empty() && !space.outputs.empty())
        base.outputs[k].name = space.outputs[std::min(k, space.outputs.size() - 1)].name;
    while (!base.inputs.empty() && !base.inputs.back().present) base.inputs.pop_back();
    const CaseTensor& primary = base.inputs.empty() ? base.outputs.front() : base.inputs.front();
    base.dtype = primary.type.dtype;
    base.quantized = primary.type.quantized;
    base.types_text = std::string(dtype_short_name(base.dtype));
    base.shape_text = "golden";
    base.golden_id = "golden__" + id_text(manifest.parent_path().filename().string());
    base.seed = seed_of(base.op, base.golden_id);
    for (const std::string& backend : backends) {
      if (std::find(space.backends.begin(), space.backends.end(), backend) == space.backends.end()) continue;
      if (!types_allowed(base, space, backend)) continue;
      Case c = base;
      // A tensor's layout: the manifest's, and the case runs only where the
      // spec's layout agrees; without one, the backend's layout.
      bool layouts_agree = true;
      for (size_t k = 0; k < c.inputs.size(); ++k) {
        const std::string backend_layout = space.input_layout(k, backend);
        if (c.inputs[k].layout.empty()) c.inputs[k].layout = backend_layout;
        else if (!backend_layout.empty() && !spec::iequals(c.inputs[k].layout, backend_layout)) layouts_agree = false;
      }
      if (!layouts_agree) continue;
      c.backend = backend;
      c.id = op_key(c.op) + "__" + c.golden_id + "__" + backend;
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace oprig::harness
