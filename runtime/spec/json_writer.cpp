// IR -> JSON UDO config (seed 000 layout). BACKEND_SPECIFIC data types
// become per_core_data_types, gathered from the supplemental lists.
#include "spec/write.hpp"

namespace oprig::spec {
namespace {

using Json = nlohmann::ordered_json;

// DSP fixed point is spelled UINT_n in the JSON format (see json_reader.cpp).
std::string json_type_name(DataType type, bool dsp) {
  if (dsp && type == DataType::kUFixed8) return "UINT_8";
  if (dsp && type == DataType::kUFixed16) return "UINT_16";
  return std::string(data_type_seed_name(type));
}

Json types_json(const std::vector<DataType>& types, bool dsp) {
  if (types.size() == 1) return json_type_name(types[0], dsp);
  Json list = Json::array();
  for (DataType t : types) list.push_back(json_type_name(t, dsp));
  return list;
}

Json tensor_json(const Package& package, const OpDef& op, TensorRole role, const TensorDef& tensor) {
  Json out = Json::object();
  out["name"] = tensor.name;
  bool open_type = tensor.datatypes.size() == 1 && tensor.datatypes[0] == DataType::kBackendSpecific;
  if (!open_type) {
    out["data_type"] = types_json(tensor.datatypes, false);
  } else {
    Json per_core = Json::object();
    for (const SupplementalList& list : package.supplementals)
      for (const SupplementalOpDef& sup : list.ops) {
        if (!iequals(sup.name, op.name)) continue;
        for (const SupplementalTensor& st : tensors_of(sup, role))
          if (st.name == tensor.name && !st.datatypes.empty() && !per_core.contains(list.backend))
            per_core[list.backend] = types_json(st.datatypes, iequals(list.backend, "DSP"));
      }
    out["per_core_data_types"] = per_core;
  }
  if (tensor.is_static) out["static"] = true;
  if (tensor.shape.layout != Layout::kUnspecified) out["tensor_layout"] = std::string(layout_name(tensor.shape.layout));
  if (role == TensorRole::kParameter && tensor.default_value) {
    const DefaultValue& d = *tensor.default_value;
    // A native JSON value when that is exactly what was written; otherwise the
    // text as written ("N-1", "1" on a BOOL_8, "[1, 2]" with its spaces), which
    // read_json parses back to the same DefaultValue.
    bool native = !d.parsed.is_string() && d.raw == d.parsed.dump();
    out["default_value"] = native ? Json::parse(d.raw) : Json(d.raw);
  }
  return out;
}

}  // namespace

std::string write_json(const std::vector<Package>& packages) {
  Json root = Json::object();
  for (size_t i = 0; i < packages.size(); ++i) {
    const Package& package = packages[i];
    Json operators = Json::array();
    for (const OpDef& op : package.ops) {
      Json o = Json::object();
      o["type"] = op.name;
      for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput}) {
        Json list = Json::array();
        for (const TensorDef& t : tensors_of(op, role)) list.push_back(tensor_json(package, op, role, t));
        o[role == TensorRole::kInput ? "inputs" : "outputs"] = list;
      }
      Json scalars = Json::array(), tensors = Json::array();
      for (const TensorDef& t : op.parameters) {
        bool scalar = t.shape.rank == Rank::kScalar;
        (scalar ? scalars : tensors).push_back(tensor_json(package, op, TensorRole::kParameter, t));
      }
      if (!scalars.empty()) o["scalar_params"] = scalars;
      if (!tensors.empty()) o["tensor_params"] = tensors;
      if (!op.supported_backends.empty()) o["core_types"] = op.supported_backends;
      if (!op.dsp_arch_types.empty()) o["dsp_arch_types"] = op.dsp_arch_types;
      operators.push_back(o);
    }
    Json p = Json::object();
    p["Operators"] = operators;
    p["UDO_PACKAGE_NAME"] = package.name;
    root["UdoPackage_" + std::to_string(i)] = p;
  }
  return root.dump(2) + "\n";
}

}  // namespace oprig::spec
