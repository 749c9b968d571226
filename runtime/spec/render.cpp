// The IR as JSON (every field) and as text for people.
#include <sstream>
#include <unordered_set>

#include "spec/ir_json.hpp"
#include "spec/resolve.hpp"
#include "spec/write.hpp"

namespace oprig::spec {
namespace {

using Json = nlohmann::json;

Json plain(const ir_json::Json& ordered) { return Json::parse(ordered.dump()); }

Json types_json(const std::vector<DataType>& types) {
  Json out = Json::array();
  for (DataType t : types) out.push_back(data_type_name(t));
  return out;
}

Json unknown_json(const UnknownFields& fields) { return fields.is_object() ? plain(fields) : Json::object(); }

Json description_json(const Description& d) {
  Json out = {{"content", d.content}, {"code", d.code}};
  if (!d.blocks.empty()) out["blocks"] = plain(ir_json::description_to_json(d))["blocks"];
  return out;
}

Json tensor_json(const TensorDef& t) {
  Json out = {{"name", t.name},
              {"description", description_json(t.description)},
              {"constraints", plain(ir_json::constraints_to_json(t.constraints))},
              {"mandatory", t.mandatory},
              {"datatypes", types_json(t.datatypes)},
              {"shape", {{"rank", rank_name(t.shape.rank)}, {"layout", layout_name(t.shape.layout)}, {"text", t.shape.text}}},
              {"repeated", t.repeated},
              {"static", t.is_static},
              {"enumeration", t.enumeration},
              {"quantization_mode", t.quantization_mode},
              {"unknown_fields", unknown_json(t.unknown_fields)}};
  out["default"] = t.default_value ? Json{{"raw", t.default_value->raw}, {"parsed", t.default_value->parsed}} : Json(nullptr);
  return out;
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : std::string(sep)) + item;
  return out;
}

std::string types_text(const std::vector<DataType>& types) {
  std::vector<std::string> names;
  for (DataType t : types) names.emplace_back(data_type_name(t));
  return join(names, "|");
}

std::string plural(size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

std::string unknown_text(const UnknownFields& fields) {
  std::vector<std::string> names;
  if (fields.is_object())
    for (const auto& item : fields.items()) names.push_back(item.key());
  return join(names, ", ");
}

void render_constraints(std::ostringstream& out, const std::vector<Constraint>& constraints, const char* indent) {
  for (const Constraint& c : constraints)
    out << indent << "constraint " << (c.id.empty() ? "" : c.id + " ") << "(" << constraint_type_name(c.type)
        << "): " << c.text << (c.code.empty() ? "" : " [" + c.code + "]") << "\n";
}

bool lists_op(const SupplementalList& list, const std::string& op) {
  for (const std::string& name : list.supported_ops)
    if (iequals(name, op)) return true;
  return false;
}

}  // namespace

nlohmann::json to_ir_json(const Package& package) {
  Json ops = Json::array();
  for (const OpDef& op : package.ops) {
    Json o = {{"name", op.name},
              {"description", description_json(op.description)},
              {"references", plain(ir_json::references_to_json(op.references))},
              {"inputs", Json::array()},
              {"outputs", Json::array()},
              {"parameters", Json::array()},
              {"supported_backends", op.supported_backends},
              {"dsp_arch_types", op.dsp_arch_types},
              {"unknown_fields", unknown_json(op.unknown_fields)}};
    for (const TensorDef& t : op.inputs) o["inputs"].push_back(tensor_json(t));
    for (const TensorDef& t : op.outputs) o["outputs"].push_back(tensor_json(t));
    for (const TensorDef& t : op.parameters) o["parameters"].push_back(tensor_json(t));
    o["use_default_translation"] = op.use_default_translation ? Json(*op.use_default_translation) : Json(nullptr);
    ops.push_back(o);
  }
  Json sups = plain(ir_json::supplementals_to_json(package.supplementals));
  return {{"package", package.name}, {"domain", package.domain}, {"version", package.version},
          {"ops", ops}, {"supplementals", sups}, {"unknown_fields", unknown_json(package.unknown_fields)}};
}

std::string op_summary(const OpDef& op) {
  std::string backends = op.supported_backends.empty() ? "(none declared)" : join(op.supported_backends, ", ");
  return printable(op.name + ": " + plural(op.inputs.size(), "input") + ", " + plural(op.outputs.size(), "output") +
                       ", " + plural(op.parameters.size(), "parameter") + "; backends " + backends,
                   false);
}

std::string render_text(const Package& package) {
  std::ostringstream out;
  out << "package " << package.name;
  if (!package.domain.empty()) out << "  domain " << package.domain;
  if (!package.version.empty()) out << "  version " << package.version;
  out << "\n";
  if (!unknown_text(package.unknown_fields).empty()) out << "  kept unknown fields: " << unknown_text(package.unknown_fields) << "\n";
  std::unordered_set<std::string> defined;
  for (const OpDef& op : package.ops) {
    std::string lowered = op.name;
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    defined.insert(lowered);
    out << "\nop " << op.name << "\n";
    if (!op.description.content.empty()) out << "  " << op.description.content << "\n";
    if (!op.description.code.empty()) out << "  code: " << op.description.code << "\n";
    for (const Reference& r : op.references) out << "  reference: " << r.source << (r.url.empty() ? "" : " <" + r.url + ">") << "\n";
    if (!op.supported_backends.empty()) out << "  backends: " << join(op.supported_backends, ", ") << "\n";
    std::vector<std::string> listed_in;
    for (const SupplementalList& list : package.supplementals)
      if (lists_op(list, op.name)) listed_in.push_back(list.backend);
    if (!listed_in.empty()) out << "  in SupportedOps of: " << join(listed_in, ", ") << "\n";
    std::vector<std::string> runs_on;
    for (const char* backend : {"cpu", "opencl", "vulkan", "dsp"})
      if (op_supported_on(package, op, backend)) runs_on.emplace_back(backend);
    out << "  oprig backends: " << (runs_on.empty() ? "none" : join(runs_on, ", ")) << "\n";
    if (!op.dsp_arch_types.empty()) out << "  dsp arch: " << join(op.dsp_arch_types, ", ") << "\n";
    if (op.use_default_translation) out << "  use default translation: " << (*op.use_default_translation ? "yes" : "no") << "\n";
    if (!unknown_text(op.unknown_fields).empty()) out << "  kept unknown fields: " << unknown_text(op.unknown_fields) << "\n";
    for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter}) {
      for (const TensorDef& t : tensors_of(op, role)) {
        out << "  " << role_name(role) << " " << t.name << ": " << types_text(t.datatypes);
        if (t.shape.rank != Rank::kUnspecified) out << ", rank " << rank_name(t.shape.rank);
        if (t.shape.layout != Layout::kUnspecified) out << ", layout " << layout_name(t.shape.layout);
        if (!t.shape.text.empty()) out << ", shape " << t.shape.text;
        out << (t.mandatory ? ", mandatory" : ", optional");
        if (t.default_value) out << ", default " << t.default_value->raw;
        if (t.repeated) out << ", repeated";
        if (t.is_static) out << ", static";
        if (!t.quantization_mode.empty()) out << ", quantization " << t.quantization_mode;
        if (!t.enumeration.empty()) out << ", enum {" << join(t.enumeration, ", ") << "}";
        out << "\n";
        if (!t.description.content.empty()) out << "    " << t.description.content << "\n";
        render_constraints(out, t.constraints, "    ");
        if (!unknown_text(t.unknown_fields).empty()) out << "    kept unknown fields: " << unknown_text(t.unknown_fields) << "\n";
      }
    }
  }
  for (const SupplementalList& list : package.supplementals) {
    out << "\nbackend " << list.backend;
    if (!list.runtime.empty()) out << "  runtime " << list.runtime;
    out << "\n";
    if (!list.supported_ops.empty()) {
      size_t defined_listed = 0;
      for (const std::string& name : list.supported_ops) {
        std::string lowered = name;
        for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        defined_listed += defined.count(lowered);
      }
      out << "  supports only: " << join(list.supported_ops, ", ");
      if (defined_listed < package.ops.size())
        out << " (" << defined_listed << " of the " << plural(package.ops.size(), "op")
            << " defined here; ops not listed do not run on " << list.backend
            << " unless their SupportedBackend names it)";
      out << "\n";
    }
    for (const SupplementalOpDef& sup : list.ops) {
      std::string lowered = sup.name;
      for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (!defined.count(lowered)) out << "  " << sup.name << ": no OpDef in this file\n";
      for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter})
        for (const SupplementalTensor& t : tensors_of(sup, role)) {
          out << "  " << sup.name << " " << role_name(role) << " " << t.name << ":";
          if (!t.datatypes.empty()) out << " " << types_text(t.datatypes);
          if (t.layout != Layout::kUnspecified) out << " layout " << layout_name(t.layout);
          if (!t.shape_text.empty()) out << " shape " << t.shape_text;
          if (t.only_default_supported) out << (*t.only_default_supported ? " only-default" : " any-value");
          for (const QuantParam& q : t.quant_params) {
            out << " quant{";
            for (size_t i = 0; i < q.fields.size(); ++i) out << (i ? " " : "") << q.fields[i].first << "=" << q.fields[i].second;
            out << "}";
          }
          out << "\n";
          render_constraints(out, t.constraints, "    ");
        }
    }
  }
  return printable(out.str());
}

}  // namespace oprig::spec
