// IR -> JSON UDO config (seed 000 layout) that the SNPE tools accept and that
// reads back into the same IR.
//
// Two passes per package: first the format's own fields only (one data type
// per tensor and core, SNPE names), then that JSON is read back with the
// JSON reader and every field that did not survive is added under
// "oprig_extension" on the package, operator or tensor it belongs to. So an
// extension appears only where the format could not say something, and what
// the extension holds is exactly what the reader needs to restore it.
#include <algorithm>
#include <unordered_map>

#include "spec/ir_json.hpp"
#include "spec/udo_json.hpp"
#include "spec/write.hpp"

namespace oprig::spec {
namespace {

using Json = nlohmann::ordered_json;

bool backend_specific(const std::vector<DataType>& types) {
  return types.size() == 1 && types[0] == DataType::kBackendSpecific;
}

// The SNPE core a spec backend name belongs to: CPU, GPU, DSP, HTP, or a
// variant of them (DSP_V68, HTP_FP16, GPU_FP16).
std::optional<std::string> core_of_backend(std::string_view backend) {
  if (auto core = udo::snpe_core_type(backend)) return core;
  size_t underscore = backend.find('_');
  if (underscore == std::string_view::npos) return std::nullopt;
  return udo::snpe_core_type(backend.substr(0, underscore));
}

// "DSP_V68" -> "v68".
std::optional<std::string> dsp_arch_of_backend(std::string_view backend) {
  if (backend.size() < 6 || !iequals(backend.substr(0, 5), "DSP_V")) return std::nullopt;
  std::string arch = "v" + std::string(backend.substr(5));
  return arch;
}

class PlainWriter {
 public:
  PlainWriter(const Package& package, WriteNotes* notes) : package_(package), notes_(notes) {
    for (size_t l = 0; l < package.supplementals.size(); ++l) {
      const SupplementalList& list = package.supplementals[l];
      for (size_t s = 0; s < list.ops.size(); ++s) sup_index_.emplace(key(l, list.ops[s].name), s);
    }
  }

  Json package_json() {
    Json operators = Json::array();
    for (const OpDef& op : package_.ops) operators.push_back(op_json(op));
    Json p = Json::object();
    p["Operators"] = operators;
    p["UDO_PACKAGE_NAME"] = package_.name;
    add_unknown_fields(package_.unknown_fields, p);
    return p;
  }

  // The parameters in the order op_json writes them (scalars first).
  static std::vector<size_t> written_parameter_order(const OpDef& op) {
    std::vector<size_t> order;
    for (int pass = 0; pass < 2; ++pass)
      for (size_t i = 0; i < op.parameters.size(); ++i)
        if ((op.parameters[i].shape.rank == Rank::kScalar) == (pass == 0)) order.push_back(i);
    return order;
  }

 private:
  static std::string key(size_t list, const std::string& op) {
    std::string lowered = op;
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return std::to_string(list) + "/" + lowered;
  }

  void note(const std::string& text) {
    if (notes_) notes_->push_back(text);
  }

  static void add_unknown_fields(const UnknownFields& fields, Json& into) {
    if (!fields.is_object()) return;
    for (const auto& [name, value] : fields.items())
      if (!name.starts_with("@") && !into.contains(name)) into[name] = value;
  }

  Json type_name(DataType type, bool dsp, const std::string& where) {
    if (std::optional<std::string> name = udo::snpe_data_type(type, dsp)) return *name;
    note(where + ": data type " + std::string(data_type_name(type)) +
         " has no SNPE UDO name; written as such, which the SNPE tools reject");
    return std::string(data_type_name(type));
  }

  Json per_core_json(const OpDef& op, TensorRole role, const TensorDef& tensor, const std::string& where) {
    Json per_core = Json::object();
    for (size_t l = 0; l < package_.supplementals.size(); ++l) {
      const SupplementalList& list = package_.supplementals[l];
      std::optional<std::string> core = udo::snpe_core_type(list.backend);
      if (!core || per_core.contains(*core)) continue;
      auto sup = sup_index_.find(key(l, op.name));
      if (sup == sup_index_.end()) continue;
      for (const SupplementalTensor& st : tensors_of(list.ops[sup->second], role)) {
        if (st.name != tensor.name || st.datatypes.empty()) continue;
        bool dsp = *core == "DSP";
        if (st.datatypes == udo::all_valid_types(dsp)) per_core[*core] = std::string(udo::kAllValid);
        else per_core[*core] = type_name(st.datatypes[0], dsp, where);
        break;
      }
    }
    return per_core;
  }

  Json tensor_json(const OpDef& op, TensorRole role, const TensorDef& tensor) {
    std::string where = op.name + "." + tensor.name;
    Json out = Json::object();
    out["name"] = tensor.name;
    if (backend_specific(tensor.datatypes)) {
      Json per_core = per_core_json(op, role, tensor, where);
      if (!per_core.empty()) out["per_core_data_types"] = per_core;
    } else if (!tensor.datatypes.empty()) {
      out["data_type"] = type_name(tensor.datatypes[0], false, where);
    }
    if (tensor.is_static) out["static"] = true;
    if (tensor.repeated && role != TensorRole::kParameter) out["repeated"] = true;
    if (udo::snpe_layout(tensor.shape.layout)) out["tensor_layout"] = std::string(layout_name(tensor.shape.layout));
    if (tensor.default_value) {
      const DefaultValue& d = *tensor.default_value;
      // Native JSON where the default parses; the text as written otherwise
      // (the extension gives back a raw text that differs from the parse).
      out["default_value"] = d.parsed.is_string() ? Json(d.raw) : Json::parse(d.parsed.dump());
    }
    if (!tensor.quantization_mode.empty()) out["quantization_mode"] = tensor.quantization_mode;
    add_unknown_fields(tensor.unknown_fields, out);
    return out;
  }

  Json op_json(const OpDef& op) {
    Json o = Json::object();
    o["type"] = op.name;
    for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput}) {
      Json list = Json::array();
      for (const TensorDef& t : tensors_of(op, role)) list.push_back(tensor_json(op, role, t));
      o[role == TensorRole::kInput ? "inputs" : "outputs"] = list;
    }
    Json scalars = Json::array(), tensors = Json::array();
    for (size_t i : written_parameter_order(op)) {
      const TensorDef& t = op.parameters[i];
      (t.shape.rank == Rank::kScalar ? scalars : tensors).push_back(tensor_json(op, TensorRole::kParameter, t));
    }
    if (!scalars.empty()) o["scalar_params"] = scalars;
    if (!tensors.empty()) o["tensor_params"] = tensors;

    // Cores from SupportedBackend and from the SupportedOps lists that name
    // the op; variants fold onto their core (DSP_V68 is DSP, arch v68).
    std::vector<std::string> cores, archs = op.dsp_arch_types;
    auto add_backend = [&](const std::string& backend) {
      if (std::optional<std::string> core = core_of_backend(backend))
        if (std::find(cores.begin(), cores.end(), *core) == cores.end()) cores.push_back(*core);
      if (std::optional<std::string> arch = dsp_arch_of_backend(backend))
        if (std::find(archs.begin(), archs.end(), *arch) == archs.end()) archs.push_back(*arch);
    };
    for (const std::string& backend : op.supported_backends) add_backend(backend);
    for (const SupplementalList& list : package_.supplementals)
      for (const std::string& name : list.supported_ops)
        if (iequals(name, op.name)) add_backend(list.backend);
    if (!cores.empty()) o["core_types"] = cores;
    else note(op.name + ": no core the SNPE tools know (CPU, GPU, DSP, HTP); they require core_types");
    if (!archs.empty()) o["dsp_arch_types"] = archs;
    add_unknown_fields(op.unknown_fields, o);
    return o;
  }

  const Package& package_;
  WriteNotes* notes_;
  std::unordered_map<std::string, size_t> sup_index_;  // "list/op" -> index in list.ops
};

Json xml_attributes(const UnknownFields& fields) {
  Json out = Json::object();
  if (fields.is_object())
    for (const auto& [name, value] : fields.items())
      if (name.starts_with("@")) out[name.substr(1)] = value;
  return out;
}

// The extension of one tensor: every field the plain JSON did not carry.
Json tensor_extension(const TensorDef& want, const TensorDef* got) {
  Json ext = Json::object();
  TensorDef none;
  const TensorDef& back = got ? *got : none;
  if (want.description != back.description) ext["description"] = ir_json::description_to_json(want.description);
  if (want.constraints != back.constraints) ext["constraints"] = ir_json::constraints_to_json(want.constraints);
  if (want.mandatory != back.mandatory || !got) ext["mandatory"] = want.mandatory;
  if (want.datatypes != back.datatypes) ext["datatypes"] = ir_json::datatypes_to_json(want.datatypes);
  if (want.shape.rank != back.shape.rank) ext["rank"] = std::string(rank_name(want.shape.rank));
  if (want.shape.layout != back.shape.layout) ext["layout"] = std::string(layout_name(want.shape.layout));
  if (want.shape.text != back.shape.text) ext["shape_text"] = want.shape.text;
  if (want.enumeration != back.enumeration) ext["enumeration"] = want.enumeration;
  if (want.repeated != back.repeated) ext["repeated"] = want.repeated;
  if (want.default_value && want.default_value != back.default_value) ext["default"] = want.default_value->raw;
  Json attributes = xml_attributes(want.unknown_fields);
  if (!attributes.empty()) ext["xml_attributes"] = attributes;
  return ext;
}

void add_extension(Json& object, Json ext) {
  if (!ext.empty()) object[std::string(udo::kExtensionKey)] = std::move(ext);
}

Json package_json(const Package& package, const std::string& key, WriteNotes* notes) {
  PlainWriter plain_writer(package, notes);
  Json out = plain_writer.package_json();
  udo::PackageRead back = udo::read_package(out, nullptr, key, "");
  const Package& got = back.package;

  for (size_t o = 0; o < package.ops.size(); ++o) {
    const OpDef& op = package.ops[o];
    const OpDef* back_op = o < got.ops.size() ? &got.ops[o] : nullptr;
    Json& op_json = out["Operators"][o];
    OpDef none;
    const OpDef& b = back_op ? *back_op : none;
    Json ext = Json::object();
    if (op.description != b.description) ext["description"] = ir_json::description_to_json(op.description);
    if (op.references != b.references) ext["references"] = ir_json::references_to_json(op.references);
    if (op.use_default_translation != b.use_default_translation && op.use_default_translation)
      ext["use_default_translation"] = *op.use_default_translation;
    if (op.supported_backends != b.supported_backends) ext["supported_backends"] = op.supported_backends;
    if (op.dsp_arch_types != b.dsp_arch_types) ext["dsp_arch_types"] = op.dsp_arch_types;
    std::vector<size_t> order = PlainWriter::written_parameter_order(op);
    bool reordered = false;
    for (size_t i = 0; i < order.size(); ++i) reordered |= order[i] != i;
    if (reordered) {
      Json names = Json::array();
      for (const TensorDef& p : op.parameters) names.push_back(p.name);
      ext["parameter_order"] = names;
    }
    Json attributes = xml_attributes(op.unknown_fields);
    if (!attributes.empty()) ext["xml_attributes"] = attributes;

    for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput}) {
      const std::vector<TensorDef>& tensors = tensors_of(op, role);
      Json& list = op_json[role == TensorRole::kInput ? "inputs" : "outputs"];
      for (size_t t = 0; t < tensors.size(); ++t) {
        const std::vector<TensorDef>& back_tensors = tensors_of(b, role);
        add_extension(list[t], tensor_extension(tensors[t], t < back_tensors.size() ? &back_tensors[t] : nullptr));
      }
    }
    // Written (and read back) scalars first: the k-th written parameter is
    // op.parameters[order[k]], and the JSON entry is the k-th of its list.
    size_t scalars = 0, tensor_params = 0;
    for (size_t k = 0; k < order.size(); ++k) {
      const TensorDef& p = op.parameters[order[k]];
      bool scalar = p.shape.rank == Rank::kScalar;
      Json& entry = op_json[scalar ? "scalar_params" : "tensor_params"][scalar ? scalars++ : tensor_params++];
      add_extension(entry, tensor_extension(p, k < b.parameters.size() ? &b.parameters[k] : nullptr));
    }
    add_extension(op_json, std::move(ext));
  }

  Json ext = Json::object();
  if (!package.domain.empty()) ext["domain"] = package.domain;
  if (!package.version.empty()) ext["version"] = package.version;
  if (package.supplementals != got.supplementals) ext["supplementals"] = ir_json::supplementals_to_json(package.supplementals);
  Json attributes = xml_attributes(package.unknown_fields);
  if (!attributes.empty()) ext["xml_attributes"] = attributes;
  add_extension(out, std::move(ext));
  return out;
}

}  // namespace

std::string write_json(const std::vector<Package>& packages, WriteNotes* notes) {
  Json root = Json::object();
  for (size_t i = 0; i < packages.size(); ++i) {
    std::string key = "UdoPackage_" + std::to_string(i);
    // An XML collection with an empty OpDefList loads; a UDO config with no
    // operator is not one (read_json and the SNPE tools refuse it).
    if (packages[i].ops.empty())
      throw WriteError(key + " (package '" + packages[i].name + "'): a UDO config needs at least one operator");
    root[key] = package_json(packages[i], key, notes);
  }
  try {
    return root.dump(2) + "\n";
  } catch (const nlohmann::json::type_error& e) {
    throw WriteError(std::string("the spec holds text that is not UTF-8: ") + e.what());
  }
}

}  // namespace oprig::spec
