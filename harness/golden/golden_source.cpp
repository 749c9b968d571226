#include "golden/golden_source.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "compare/tolerance.hpp"
#include "core/dtype.hpp"
#include "runner/case_tolerance.hpp"
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

const TensorSlot* slot_of(const std::vector<TensorSlot>& slots, size_t k) {
  return slots.empty() ? nullptr : &slots[std::min(k, slots.size() - 1)];  // a Repeated last def covers the rest
}

// The layout the spec declares for a tensor on a backend; "" where it declares
// none that says how values are laid out (UNDEFINED, BACKEND_SPECIFIC left
// unresolved, NOT_YET_DEFINED).
std::string slot_layout(const TensorSlot& slot, const std::string& backend) {
  const auto it = slot.layout_by_backend.find(backend);
  const std::string layout = it != slot.layout_by_backend.end() && !it->second.empty() ? it->second : slot.layout;
  for (const char* vague : {"UNDEFINED", "BACKEND_SPECIFIC", "NOT_YET_DEFINED"})
    if (spec::iequals(layout, vague)) return "";
  return layout;
}

// "NHWC on cpu, NCHW on opencl, vulkan" when the spec's backends disagree on
// the tensor's layout; empty when they agree (or none declares one).
std::string differing_layouts(const TensorSlot& slot, const std::vector<std::string>& backends) {
  std::vector<std::pair<std::string, std::string>> by_layout;  // layout, its backends
  for (const std::string& b : backends) {
    const std::string layout = slot_layout(slot, b);
    if (layout.empty()) continue;
    auto it = std::find_if(by_layout.begin(), by_layout.end(), [&](const auto& e) { return e.first == layout; });
    if (it == by_layout.end()) by_layout.emplace_back(layout, b);
    else it->second += ", " + b;
  }
  if (by_layout.size() < 2) return "";
  std::string text;
  for (const auto& [layout, where] : by_layout) text += (text.empty() ? "" : ", ") + layout + " on " + where;
  return text;
}

std::string types_of(const TensorSlot& slot, const std::string& backend) {
  std::string text;
  const auto it = slot.types_by_backend.find(backend);
  if (it != slot.types_by_backend.end())
    for (const TypeChoice& t : it->second)
      text += (text.empty() ? "" : ", ") + std::string(dtype_name(t.dtype)) + (t.quantized ? " (quantised)" : "");
  return text.empty() ? "none" : text;
}

// Why a golden case cannot run on `backend` (empty: it can): the op, a
// tensor's data type or its layout is not what the spec declares there.
std::string not_runnable_reason(const Case& c, const OpCaseSpace& space, const std::string& backend) {
  if (std::find(space.backends.begin(), space.backends.end(), backend) == space.backends.end())
    return "golden case: " + space.op + "'s spec does not list " + backend + " among its backends";
  std::string reason;
  auto note = [&](const std::string& what) { reason += (reason.empty() ? "golden case: " : "; ") + what; };
  auto check = [&](const char* role, const std::vector<CaseTensor>& tensors, const std::vector<TensorSlot>& slots) {
    for (size_t k = 0; k < tensors.size(); ++k) {
      const TensorSlot* slot = slot_of(slots, k);
      if (!tensors[k].present || slot == nullptr) continue;
      const auto allowed = slot->types_by_backend.find(backend);
      if (allowed == slot->types_by_backend.end() ||
          std::find(allowed->second.begin(), allowed->second.end(), tensors[k].type) == allowed->second.end())
        note(std::string(role) + " " + tensors[k].name + " is " + std::string(dtype_name(tensors[k].type.dtype)) +
             (tensors[k].type.quantized ? " (quantised)" : "") + ", which the spec does not declare for " + backend +
             " (it declares " + types_of(*slot, backend) + ")");
      const std::string declared = slot_layout(*slot, backend);
      if (!tensors[k].layout.empty() && !declared.empty() && !spec::iequals(tensors[k].layout, declared))
        note(std::string(role) + " " + tensors[k].name + " is in layout " + tensors[k].layout + ", but the spec declares " +
             declared + " for it on " + backend);
    }
  };
  check("input", c.inputs, space.inputs);
  check("output", c.outputs, space.outputs);
  return reason;
}

// Where the spec's backends disagree on an input's layout, a golden case must
// say which one its values are in: read in each backend's own layout, one set
// of numbers would mean two different tensors.
void require_layouts(const Case& c, const OpCaseSpace& space, const std::filesystem::path& manifest) {
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    const TensorSlot* slot = slot_of(space.inputs, k);
    if (!c.inputs[k].present || slot == nullptr || !c.inputs[k].layout.empty()) continue;
    const std::string layouts = differing_layouts(*slot, space.backends);
    if (!layouts.empty())
      bad(manifest, "golden case " + manifest.parent_path().filename().string() + ": inputs[" + std::to_string(k) +
                        "] (" + c.inputs[k].name + ") has no \"layout\", but " + space.op + "'s spec declares " +
                        layouts + " for it; add \"layout\" to say which one the values are in");
  }
}

// The manifest's "tolerance": one tolerance for every output (it has a
// "reason"), or a table keyed by data type or output name as in plan.json.
void check_manifest_tolerance(const json& tolerance, const OpCaseSpace& space, const std::filesystem::path& manifest) {
  try {
    if (is_single_tolerance(tolerance)) compare::parse_tolerance(tolerance);
    else parse_tolerance_table(tolerance, space);
  } catch (const std::exception& e) {
    bad(manifest, std::string("tolerance: ") + e.what());
  }
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
    if (m.contains("tolerance")) {
      check_manifest_tolerance(m.at("tolerance"), space, manifest);
      base.tolerance = m.at("tolerance");
    }
    require_layouts(base, space, manifest);
    for (const std::string& backend : backends) {
      Case c = base;
      c.backend = backend;
      c.id = op_key(c.op) + "__" + c.golden_id + "__" + backend;
      c.not_runnable = not_runnable_reason(c, space, backend);
      // A tensor without a layout of its own (the spec's backends agree on it) takes the backend's.
      for (size_t k = 0; k < c.inputs.size(); ++k)
        if (c.inputs[k].layout.empty()) c.inputs[k].layout = space.input_layout(k, backend);
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace oprig::harness
