// The IR as JSON (every field) and as text for people.
#include <sstream>

#include "spec/write.hpp"

namespace oprig::spec {
namespace {

using Json = nlohmann::json;

Json constraints_json(const std::vector<Constraint>& constraints) {
  Json out = Json::array();
  for (const Constraint& c : constraints)
    out.push_back({{"id", c.id}, {"type", constraint_type_name(c.type)}, {"text", c.text}, {"code", c.code}});
  return out;
}

Json types_json(const std::vector<DataType>& types) {
  Json out = Json::array();
  for (DataType t : types) out.push_back(data_type_name(t));
  return out;
}

Json tensor_json(const TensorDef& t) {
  Json out = {{"name", t.name},
              {"description", {{"content", t.description.content}, {"code", t.description.code}}},
              {"constraints", constraints_json(t.constraints)},
              {"mandatory", t.mandatory},
              {"datatypes", types_json(t.datatypes)},
              {"shape", {{"rank", rank_name(t.shape.rank)}, {"layout", layout_name(t.shape.layout)}, {"text", t.shape.text}}},
              {"repeated", t.repeated},
              {"static", t.is_static},
              {"enumeration", t.enumeration}};
  out["default"] = t.default_value ? Json{{"raw", t.default_value->raw}, {"parsed", t.default_value->parsed}} : Json(nullptr);
  return out;
}

Json supplemental_tensor_json(const SupplementalTensor& t) {
  Json out = {{"name", t.name},
              {"constraints", constraints_json(t.constraints)},
              {"datatypes", types_json(t.datatypes)},
              {"layout", layout_name(t.layout)},
              {"shape_text", t.shape_text}};
  out["only_default_supported"] = t.only_default_supported ? Json(*t.only_default_supported) : Json(nullptr);
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

}  // namespace

nlohmann::json to_ir_json(const Package& package) {
  Json ops = Json::array();
  for (const OpDef& op : package.ops) {
    Json o = {{"name", op.name},
              {"description", {{"content", op.description.content}, {"code", op.description.code}}},
              {"references", Json::array()},
              {"inputs", Json::array()},
              {"outputs", Json::array()},
              {"parameters", Json::array()},
              {"supported_backends", op.supported_backends},
              {"dsp_arch_types", op.dsp_arch_types}};
    for (const Reference& r : op.references) o["references"].push_back({{"source", r.source}, {"url", r.url}});
    for (const TensorDef& t : op.inputs) o["inputs"].push_back(tensor_json(t));
    for (const TensorDef& t : op.outputs) o["outputs"].push_back(tensor_json(t));
    for (const TensorDef& t : op.parameters) o["parameters"].push_back(tensor_json(t));
    o["use_default_translation"] = op.use_default_translation ? Json(*op.use_default_translation) : Json(nullptr);
    ops.push_back(o);
  }
  Json sups = Json::array();
  for (const SupplementalList& list : package.supplementals) {
    Json l = {{"backend", list.backend}, {"supported_ops", list.supported_ops}, {"ops", Json::array()}};
    for (const SupplementalOpDef& sup : list.ops) {
      Json s = {{"name", sup.name}, {"inputs", Json::array()}, {"outputs", Json::array()}, {"parameters", Json::array()}};
      for (const SupplementalTensor& t : sup.inputs) s["inputs"].push_back(supplemental_tensor_json(t));
      for (const SupplementalTensor& t : sup.outputs) s["outputs"].push_back(supplemental_tensor_json(t));
      for (const SupplementalTensor& t : sup.parameters) s["parameters"].push_back(supplemental_tensor_json(t));
      l["ops"].push_back(s);
    }
    sups.push_back(l);
  }
  return {{"package", package.name}, {"domain", package.domain}, {"version", package.version},
          {"ops", ops}, {"supplementals", sups}};
}

std::string op_summary(const OpDef& op) {
  std::string backends = op.supported_backends.empty() ? "(none declared)" : join(op.supported_backends, ", ");
  return op.name + ": " + plural(op.inputs.size(), "input") + ", " + plural(op.outputs.size(), "output") + ", " +
         plural(op.parameters.size(), "parameter") + "; backends " + backends;
}

std::string render_text(const Package& package) {
  std::ostringstream out;
  out << "package " << package.name;
  if (!package.domain.empty()) out << "  domain " << package.domain;
  if (!package.version.empty()) out << "  version " << package.version;
  out << "\n";
  for (const OpDef& op : package.ops) {
    out << "\nop " << op.name << "\n";
    if (!op.description.content.empty()) out << "  " << op.description.content << "\n";
    if (!op.description.code.empty()) out << "  code: " << op.description.code << "\n";
    for (const Reference& r : op.references) out << "  reference: " << r.source << (r.url.empty() ? "" : " <" + r.url + ">") << "\n";
    if (!op.supported_backends.empty()) out << "  backends: " << join(op.supported_backends, ", ") << "\n";
    if (!op.dsp_arch_types.empty()) out << "  dsp arch: " << join(op.dsp_arch_types, ", ") << "\n";
    for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter}) {
      for (const TensorDef& t : tensors_of(op, role)) {
        out << "  " << role_name(role) << " " << t.name << ": " << types_text(t.datatypes);
        if (t.shape.rank != Rank::kUnspecified) out << ", rank " << rank_name(t.shape.rank);
        if (t.shape.layout != Layout::kUnspecified) out << ", layout " << layout_name(t.shape.layout);
        out << (t.mandatory ? ", mandatory" : ", optional");
        if (t.default_value) out << ", default " << t.default_value->raw;
        if (t.repeated) out << ", repeated";
        if (t.is_static) out << ", static";
        if (!t.enumeration.empty()) out << ", enum {" << join(t.enumeration, ", ") << "}";
        out << "\n";
        for (const Constraint& c : t.constraints)
          out << "    constraint " << (c.id.empty() ? "" : c.id + " ") << "(" << constraint_type_name(c.type) << "): " << c.text
              << (c.code.empty() ? "" : " [" + c.code + "]") << "\n";
      }
    }
  }
  for (const SupplementalList& list : package.supplementals) {
    out << "\nbackend " << list.backend;
    if (!list.supported_ops.empty()) out << "  supports " << join(list.supported_ops, ", ");
    out << "\n";
    for (const SupplementalOpDef& sup : list.ops)
      for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter})
        for (const SupplementalTensor& t : tensors_of(sup, role)) {
          out << "  " << sup.name << " " << role_name(role) << " " << t.name << ":";
          if (!t.datatypes.empty()) out << " " << types_text(t.datatypes);
          if (t.layout != Layout::kUnspecified) out << " layout " << layout_name(t.layout);
          if (t.only_default_supported.value_or(false)) out << " only-default";
          out << "\n";
        }
  }
  return out.str();
}

}  // namespace oprig::spec
