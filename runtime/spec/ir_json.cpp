#include "spec/ir_json.hpp"

namespace oprig::spec::ir_json {
namespace {

const Json& member(const Json& object, const char* key, const char* what) {
  if (!object.is_object()) throw IrJsonError(std::string(what) + " must be an object");
  auto it = object.find(key);
  if (it == object.end()) throw IrJsonError(std::string(what) + " lacks \"" + key + "\"");
  return *it;
}

std::string optional_string(const Json& object, const char* key, const char* what) {
  auto it = object.find(key);
  return it == object.end() ? std::string() : string_from_json(*it, what);
}

void expect_array(const Json& value, const char* what) {
  if (!value.is_array()) throw IrJsonError(std::string(what) + " must be a list");
}

Json supplemental_tensor_to_json(const SupplementalTensor& t) {
  Json out = Json::object();
  out["name"] = t.name;
  if (!t.constraints.empty()) out["constraints"] = constraints_to_json(t.constraints);
  if (!t.quant_params.empty()) {
    Json params = Json::array();
    for (const QuantParam& q : t.quant_params) {
      Json fields = Json::array();
      for (const auto& [name, text] : q.fields) fields.push_back(Json::array({name, text}));
      params.push_back(fields);
    }
    out["quant_params"] = params;
  }
  if (!t.datatypes.empty()) out["datatypes"] = datatypes_to_json(t.datatypes);
  if (t.layout != Layout::kUnspecified) out["layout"] = std::string(layout_name(t.layout));
  if (!t.shape_text.empty()) out["shape_text"] = t.shape_text;
  if (t.only_default_supported) out["only_default_supported"] = *t.only_default_supported;
  return out;
}

SupplementalTensor supplemental_tensor_from_json(const Json& value) {
  SupplementalTensor t;
  t.name = string_from_json(member(value, "name", "a supplemental tensor"), "a supplemental tensor's name");
  for (const auto& [key, v] : value.items()) {
    if (key == "name") continue;
    if (key == "constraints") t.constraints = constraints_from_json(v);
    else if (key == "quant_params") {
      expect_array(v, "quant_params");
      for (const Json& q : v) {
        expect_array(q, "a quant_param");
        QuantParam param;
        for (const Json& field : q) {
          if (!field.is_array() || field.size() != 2) throw IrJsonError("a quant_param field must be [name, text]");
          param.fields.emplace_back(string_from_json(field[0], "a quant_param field"),
                                    string_from_json(field[1], "a quant_param field"));
        }
        t.quant_params.push_back(std::move(param));
      }
    } else if (key == "datatypes") t.datatypes = datatypes_from_json(v);
    else if (key == "layout") {
      std::string text = string_from_json(v, "layout");
      std::optional<Layout> layout = parse_layout(text);
      if (!layout) throw IrJsonError("unknown layout '" + text + "'");
      t.layout = *layout;
    } else if (key == "shape_text") t.shape_text = string_from_json(v, "shape_text");
    else if (key == "only_default_supported") {
      if (!v.is_boolean()) throw IrJsonError("only_default_supported must be true or false");
      t.only_default_supported = v.get<bool>();
    } else throw IrJsonError("unknown key '" + key + "' in a supplemental tensor");
  }
  return t;
}

}  // namespace

std::string string_from_json(const Json& value, const char* what) {
  if (!value.is_string()) throw IrJsonError(std::string(what) + " must be a string");
  return value.get<std::string>();
}

std::vector<std::string> strings_from_json(const Json& value, const char* what) {
  expect_array(value, what);
  std::vector<std::string> out;
  for (const Json& item : value) out.push_back(string_from_json(item, what));
  return out;
}

Json description_to_json(const Description& d) {
  Json out = Json::object();
  if (!d.blocks.empty()) {
    Json blocks = Json::array();
    for (const DescriptionBlock& b : d.blocks) blocks.push_back(Json::object({{b.is_code ? "code" : "content", b.text}}));
    out["blocks"] = blocks;
    return out;
  }
  if (!d.content.empty()) out["content"] = d.content;
  if (!d.code.empty()) out["code"] = d.code;
  return out;
}

Description description_from_json(const Json& value) {
  if (!value.is_object()) throw IrJsonError("description must be an object");
  Description d;
  for (const auto& [key, v] : value.items()) {
    if (key == "content") d.content = string_from_json(v, "description content");
    else if (key == "code") d.code = string_from_json(v, "description code");
    else if (key == "blocks") {
      expect_array(v, "description blocks");
      for (const Json& block : v) {
        if (!block.is_object() || block.size() != 1) throw IrJsonError("a description block must be {\"content\"|\"code\": text}");
        auto only = block.begin();
        const std::string& kind = only.key();
        if (kind != "content" && kind != "code") throw IrJsonError("a description block must be content or code");
        d.blocks.push_back({kind == "code", string_from_json(only.value(), "a description block")});
      }
    } else {
      throw IrJsonError("unknown key '" + key + "' in description");
    }
  }
  derive_description_text(d);
  return d;
}

Json constraints_to_json(const std::vector<Constraint>& constraints) {
  Json out = Json::array();
  for (const Constraint& c : constraints) {
    Json item = Json::object();
    item["id"] = c.id;
    item["type"] = std::string(constraint_type_name(c.type));
    item["text"] = c.text;
    if (!c.code.empty()) item["code"] = c.code;
    out.push_back(item);
  }
  return out;
}

std::vector<Constraint> constraints_from_json(const Json& value) {
  expect_array(value, "constraints");
  std::vector<Constraint> out;
  for (const Json& item : value) {
    if (!item.is_object()) throw IrJsonError("a constraint must be an object");
    Constraint c;
    for (const auto& [key, v] : item.items()) {
      if (key == "id") c.id = string_from_json(v, "constraint id");
      else if (key == "text") c.text = string_from_json(v, "constraint text");
      else if (key == "code") c.code = string_from_json(v, "constraint code");
      else if (key == "type") {
        std::string text = string_from_json(v, "constraint type");
        std::optional<ConstraintType> type = parse_constraint_type(text);
        if (!type) throw IrJsonError("unknown constraint type '" + text + "'");
        c.type = *type;
      } else {
        throw IrJsonError("unknown key '" + key + "' in a constraint");
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

Json references_to_json(const std::vector<Reference>& references) {
  Json out = Json::array();
  for (const Reference& r : references) {
    Json item = Json::object();
    item["source"] = r.source;
    if (!r.url.empty()) item["url"] = r.url;
    out.push_back(item);
  }
  return out;
}

std::vector<Reference> references_from_json(const Json& value) {
  expect_array(value, "references");
  std::vector<Reference> out;
  for (const Json& item : value) {
    if (!item.is_object()) throw IrJsonError("a reference must be an object");
    out.push_back({string_from_json(member(item, "source", "a reference"), "reference source"),
                   optional_string(item, "url", "reference url")});
  }
  return out;
}

Json datatypes_to_json(const std::vector<DataType>& types) {
  Json out = Json::array();
  for (DataType t : types) out.push_back(std::string(data_type_name(t)));
  return out;
}

std::vector<DataType> datatypes_from_json(const Json& value) {
  std::vector<DataType> out;
  for (const std::string& name : strings_from_json(value, "datatypes")) {
    std::optional<DataType> type = parse_data_type(name);
    if (!type) throw IrJsonError("unknown data type '" + name + "'");
    out.push_back(*type);
  }
  return out;
}

Json supplementals_to_json(const std::vector<SupplementalList>& lists) {
  Json out = Json::array();
  for (const SupplementalList& list : lists) {
    Json l = Json::object();
    l["backend"] = list.backend;
    if (!list.runtime.empty()) l["runtime"] = list.runtime;
    if (!list.supported_ops.empty()) l["supported_ops"] = list.supported_ops;
    Json ops = Json::array();
    for (const SupplementalOpDef& sup : list.ops) {
      Json s = Json::object();
      s["name"] = sup.name;
      for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter}) {
        const std::vector<SupplementalTensor>& tensors = tensors_of(sup, role);
        if (tensors.empty()) continue;
        Json items = Json::array();
        for (const SupplementalTensor& t : tensors) items.push_back(supplemental_tensor_to_json(t));
        s[std::string(role_name(role)) + "s"] = items;
      }
      ops.push_back(s);
    }
    if (!ops.empty()) l["ops"] = ops;
    out.push_back(l);
  }
  return out;
}

std::vector<SupplementalList> supplementals_from_json(const Json& value) {
  expect_array(value, "supplementals");
  std::vector<SupplementalList> out;
  for (const Json& item : value) {
    if (!item.is_object()) throw IrJsonError("a supplemental list must be an object");
    SupplementalList list;
    list.backend = string_from_json(member(item, "backend", "a supplemental list"), "backend");
    for (const auto& [key, v] : item.items()) {
      if (key == "backend") continue;
      if (key == "runtime") list.runtime = string_from_json(v, "runtime");
      else if (key == "supported_ops") list.supported_ops = strings_from_json(v, "supported_ops");
      else if (key == "ops") {
        expect_array(v, "ops");
        for (const Json& s : v) {
          SupplementalOpDef sup;
          sup.name = string_from_json(member(s, "name", "a supplemental op"), "a supplemental op's name");
          for (const auto& [skey, sv] : s.items()) {
            if (skey == "name") continue;
            std::vector<SupplementalTensor>* into = skey == "inputs"       ? &sup.inputs
                                                    : skey == "outputs"    ? &sup.outputs
                                                    : skey == "parameters" ? &sup.parameters
                                                                           : nullptr;
            if (!into) throw IrJsonError("unknown key '" + skey + "' in a supplemental op");
            expect_array(sv, skey.c_str());
            for (const Json& t : sv) into->push_back(supplemental_tensor_from_json(t));
          }
          list.ops.push_back(std::move(sup));
        }
      } else {
        throw IrJsonError("unknown key '" + key + "' in a supplemental list");
      }
    }
    out.push_back(std::move(list));
  }
  return out;
}

}  // namespace oprig::spec::ir_json
