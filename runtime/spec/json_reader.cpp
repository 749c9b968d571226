// JSON UDO config -> IR. Each top-level object member is one package
// ("UdoPackage_0", ...). per_core_data_types become a BACKEND_SPECIFIC data
// type plus one SupplementalOpDef per core, so XML and JSON resolve through
// the same code. In the SNPE JSON format the DSP runtime is fixed point: a
// DSP UINT_8/UINT_16 tensor carries scale and offset, so it is read as
// UFIXED_POINT_8/16 (and written back as UINT_8/16).
//
// Tolerant where the SNPE tools are: they read keys by name and ignore the
// rest, take the last of duplicated keys (Python's json), assume FLOAT_32
// for a tensor without a data type, let per_core_data_types win over
// data_type, accept ALL_VALID per core. Each such case is a warning, and
// unknown keys are kept in the IR. The "oprig_extension" key (written by
// oprig's JSON writer) restores what the format has no place for.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "spec/ir_json.hpp"
#include "spec/udo_json.hpp"

namespace oprig::spec {
namespace {

using Json = nlohmann::ordered_json;
using ir_json::IrJsonError;

// A value, its position (may be null), and where it is: its parent and its
// key or index, so the dotted path for a message is built only when needed.
// A node refers to its parent, which must outlive it (nodes live on the
// reader's stack, parents above children).
struct Node {
  const Json* value = nullptr;
  const JsonPosition* pos = nullptr;
  const Node* parent = nullptr;
  std::string_view key;  // member name, or the top-level name for a package
  size_t index = 0;
  bool is_index = false;
  int fallback_line = 0;

  int line() const { return pos ? pos->line() : fallback_line; }
  const Json& operator*() const { return *value; }
  const Json* operator->() const { return value; }
  bool present() const { return value != nullptr; }

  std::string path() const {
    std::string above = parent ? parent->path() : std::string();
    if (is_index) return above + "[" + std::to_string(index) + "]";
    return above.empty() ? std::string(key) : above + "." + std::string(key);
  }

  // The member `key`, or a node with a null value at this object's line.
  Node member(std::string_view name) const {
    if (value->is_object()) {
      size_t ordinal = 0;
      for (const auto& item : value->items()) {
        if (item.key() == name) return child(&item.value(), ordinal, item.key());
        ++ordinal;
      }
    }
    Node absent{nullptr, nullptr, this, name, 0, false, line()};
    return absent;
  }
  Node at(size_t i) const {
    return Node{&(*value)[i], pos ? pos->child(i) : nullptr, this, {}, i, true, line()};
  }
  // Visits every member with its node, in file order.
  template <typename F>
  void each_member(F&& visit) const {
    size_t ordinal = 0;
    for (const auto& item : value->items()) {
      visit(item.key(), child(&item.value(), ordinal, item.key()));
      ++ordinal;
    }
  }

 private:
  Node child(const Json* v, size_t ordinal, std::string_view name) const {
    return Node{v, pos ? pos->child(ordinal) : nullptr, this, name, 0, false, line()};
  }
};

// What a tensor's oprig_extension may hold.
struct TensorExtension {
  std::optional<Description> description;
  std::optional<std::vector<Constraint>> constraints;
  std::optional<bool> mandatory;
  std::optional<std::vector<DataType>> datatypes;
  std::optional<Rank> rank;
  std::optional<Layout> layout;
  std::optional<std::string> shape_text;
  std::optional<std::vector<std::string>> enumeration;
  std::optional<std::string> default_raw;
  std::optional<bool> repeated;
  UnknownFields xml_attributes;
};

// Builds the per-core supplemental lists of one package as tensors are read.
class PerCoreLists {
 public:
  explicit PerCoreLists(std::vector<SupplementalList>& lists) : lists_(lists) {}
  void start_op(const std::string& op) {
    op_ = op;
    op_slot_.clear();
  }
  SupplementalTensor& tensor(const std::string& core, TensorRole role, const std::string& name) {
    auto [list_it, new_list] = list_index_.try_emplace(core, lists_.size());
    if (new_list) lists_.push_back(SupplementalList{core, "", {}, {}});
    SupplementalList& list = lists_[list_it->second];
    auto [op_it, new_op] = op_slot_.try_emplace(list_it->second, list.ops.size());
    if (new_op) list.ops.push_back(SupplementalOpDef{op_, {}, {}, {}});
    SupplementalOpDef& sup = list.ops[op_it->second];
    std::vector<SupplementalTensor>& tensors = role == TensorRole::kInput    ? sup.inputs
                                               : role == TensorRole::kOutput ? sup.outputs
                                                                             : sup.parameters;
    tensors.push_back({});
    tensors.back().name = name;
    return tensors.back();
  }

 private:
  std::vector<SupplementalList>& lists_;
  std::unordered_map<std::string, size_t> list_index_;
  std::unordered_map<size_t, size_t> op_slot_;
  std::string op_;
};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class UdoReader {
 public:
  // `consume`: the reader owns the document and frees each operator's part
  // once read, so the document and the IR are not both held whole at once.
  UdoReader(std::string_view file, std::vector<SpecError>& errors, std::vector<SpecError>& warnings,
            bool consume = false)
      : file_(file), errors_(errors), warnings_(warnings), consume_(consume) {}

  Package read_package(const Node& node) {
    Package package;
    if (!node->is_object()) {
      error(node, "a UDO package must be an object");
      return package;
    }
    Node ops_node, name_node, ext_node;
    node.each_member([&](const std::string& key, const Node& child) {
      if (key == "Operators") ops_node = child;
      else if (key == "UDO_PACKAGE_NAME") name_node = child;
      else if (key == udo::kExtensionKey) ext_node = child;
      else unknown_key(child, key, package.unknown_fields);
    });
    if (!name_node.present()) {
      error(node, "missing UDO_PACKAGE_NAME");
    } else if (auto name = string_of(name_node)) {
      package.name = *name;
      if (package.name.empty()) error(name_node, "empty package name");
    }
    if (!ops_node.present() || !ops_node->is_array() || ops_node->empty()) {
      error(ops_node.present() ? ops_node : node, "needs a non-empty Operators list");
    } else {
      PerCoreLists per_core(package.supplementals);
      std::unordered_set<std::string> names;
      package.ops.reserve(ops_node->size());
      for (size_t i = 0; i < ops_node->size(); ++i) {
        Node op_node = ops_node.at(i);
        package.ops.push_back(read_op(op_node, per_core));
        const std::string& name = package.ops.back().name;
        if (!name.empty() && !names.insert(lower(name)).second)
          error(op_node.member("type"), "op type '" + name + "' used twice");
        if (consume_) {
          const_cast<Json&>(*op_node.value) = Json();
          if (op_node.pos) const_cast<JsonPosition*>(op_node.pos)->release_children();
        }
      }
    }
    if (ext_node.present()) apply_package_extension(ext_node, package);
    order_unknown_fields(package.unknown_fields);
    return package;
  }

 private:
  void error(const Node& at, std::string message) {
    errors_.push_back({file_, at.line(), at.path(), std::move(message)});
  }
  void warn(const Node& at, std::string message) {
    warnings_.push_back({file_, at.line(), at.path(), std::move(message), true});
  }

  // Keys the SNPE tools read that oprig does not model: kept, no warning.
  static bool quiet_snpe_key(std::string_view key) { return key == "dims" || key == "data"; }

  // Keys of one JSON object are unique (duplicates were resolved while
  // parsing), so the field is appended without a search.
  void unknown_key(const Node& at, const std::string& key, UnknownFields& into, bool quiet = false) {
    if (!quiet) warn(at, "unknown key, kept as written (the SNPE tools ignore keys they do not know)");
    append_unknown_field(into, key, *at);
  }

  std::optional<std::string> string_of(const Node& at) {
    if (at->is_string()) return at->get<std::string>();
    error(at, "must be a string");
    return std::nullopt;
  }

  std::optional<bool> bool_of(const Node& at) {
    const Json& v = *at;
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_number_integer() && (v == 0 || v == 1)) return v == 1;
    if (v.is_string())
      if (auto parsed = parse_bool(v.get<std::string>())) return parsed;
    error(at, "'" + (v.is_string() ? v.get<std::string>() : v.dump()) + "' is not a boolean (true, false, 0, 1)");
    return std::nullopt;
  }

  std::vector<DataType> datatype_of(const Node& at, bool dsp, bool per_core) {
    std::optional<std::string> text = string_of(at);
    if (!text) return {};
    if (*text == udo::kAllValid) {
      if (!per_core) warn(at, "ALL_VALID is for per_core_data_types; the SNPE tools reject it in data_type");
      return udo::all_valid_types(dsp);
    }
    std::optional<DataType> type = parse_data_type(*text);
    if (!type) {
      error(at, "unknown data type '" + *text + "'");
      return {};
    }
    if (*type == DataType::kBackendSpecific) {
      error(at, "BACKEND_SPECIFIC is XML-only; use per_core_data_types");
      return {};
    }
    if (!udo::snpe_data_type_name(*text))
      warn(at, "'" + *text + "' is not an SNPE UDO data type (FLOAT_16, FLOAT_32, FIXED_4/8/16, UINT_8/16/32, "
                             "INT_32, STRING); the SNPE tools reject it");
    if (dsp && *type == DataType::kUInt8) type = DataType::kUFixed8;
    if (dsp && *type == DataType::kUInt16) type = DataType::kUFixed16;
    return {*type};
  }

  // One name, or (oprig's earlier extension) a list of names.
  std::vector<DataType> datatypes_of(const Node& at, bool dsp, bool per_core) {
    if (!at->is_array()) return datatype_of(at, dsp, per_core);
    warn(at, "a list of data types: the SNPE tools take one name here (oprig_extension carries several)");
    if (at->empty()) error(at, "empty list of data types");
    std::vector<DataType> types;
    for (size_t i = 0; i < at->size(); ++i)
      for (DataType t : datatype_of(at.at(i), dsp, per_core)) types.push_back(t);
    return types;
  }

  TensorExtension tensor_extension(const Node& at) {
    TensorExtension ext;
    if (!at->is_object()) {
      error(at, "must be an object");
      return ext;
    }
    at.each_member([&](const std::string& key, const Node& child) {
      try {
        const Json& v = *child;
        if (key == "description") ext.description = ir_json::description_from_json(v);
        else if (key == "constraints") ext.constraints = ir_json::constraints_from_json(v);
        else if (key == "datatypes") ext.datatypes = ir_json::datatypes_from_json(v);
        else if (key == "enumeration") ext.enumeration = ir_json::strings_from_json(v, "enumeration");
        else if (key == "shape_text") ext.shape_text = ir_json::string_from_json(v, "shape_text");
        else if (key == "default") ext.default_raw = ir_json::string_from_json(v, "default");
        else if (key == "mandatory" || key == "repeated") {
          if (!v.is_boolean()) throw IrJsonError(key + " must be true or false");
          (key == "mandatory" ? ext.mandatory : ext.repeated) = v.get<bool>();
        } else if (key == "rank") {
          std::string text = ir_json::string_from_json(v, "rank");
          ext.rank = text.empty() ? std::optional<Rank>(Rank::kUnspecified) : parse_rank(text);
          if (!ext.rank) throw IrJsonError("unknown rank '" + text + "'");
        } else if (key == "layout") {
          std::string text = ir_json::string_from_json(v, "layout");
          ext.layout = text.empty() ? std::optional<Layout>(Layout::kUnspecified) : parse_layout(text);
          if (!ext.layout) throw IrJsonError("unknown layout '" + text + "'");
        } else if (key == "xml_attributes") {
          if (!v.is_object()) throw IrJsonError("xml_attributes must be an object");
          ext.xml_attributes = v;
        } else {
          throw IrJsonError("unknown key '" + key + "'");
        }
      } catch (const IrJsonError& e) {
        error(child, e.what());
      }
    });
    return ext;
  }

  static void merge_xml_attributes(const UnknownFields& attributes, UnknownFields& into) {
    if (!attributes.is_object()) return;
    if (into.is_null()) into = Json::object();
    for (const auto& [name, value] : attributes.items()) into["@" + name] = value;
  }

  TensorDef read_tensor(const Node& node, TensorRole role, bool scalar, size_t index, PerCoreLists& per_core) {
    TensorDef tensor;
    if (!node->is_object()) {
      error(node, "must be an object");
      return tensor;
    }
    bool parameter = role == TensorRole::kParameter;
    Node name_node, type_node, per_core_node, default_node;
    TensorExtension ext;
    node.each_member([&](const std::string& key, const Node& child) {
      if (key == "name") name_node = child;
      else if (key == "data_type") type_node = child;
      else if (key == "per_core_data_types") per_core_node = child;
      else if (key == "default_value") default_node = child;
      else if (key == udo::kExtensionKey) ext = tensor_extension(child);
      else if (key == "static") tensor.is_static = bool_of(child).value_or(false);
      else if (key == "repeated" && !parameter) tensor.repeated = bool_of(child).value_or(false);
      else if (key == "quantization_mode") tensor.quantization_mode = string_of(child).value_or("");
      else if (key == "tensor_layout") read_layout(child, tensor.shape.layout);
      else unknown_key(child, key, tensor.unknown_fields, quiet_snpe_key(key));
    });
    // Input and output names are optional in the format; oprig needs one to
    // address the tensor, so it uses the seed's in[i] / out[i].
    if (name_node.present())
      if (auto name = string_of(name_node)) tensor.name = *name;
    if (tensor.name.empty()) {
      if (parameter) error(node, "a parameter needs a name");
      else tensor.name = (role == TensorRole::kInput ? "in[" : "out[") + std::to_string(index) + "]";
    }
    tensor.shape.rank = scalar ? Rank::kScalar : Rank::kND;

    // The writer gives a backend-specific tensor without per-core types no
    // data_type of its own: one beside such an extension is the unknown field
    // of a file that had both keys (whatever its value), kept as one again.
    const bool data_type_kept = ext.datatypes && !per_core_node.present() && type_node.present() &&
                                *ext.datatypes == std::vector<DataType>{DataType::kBackendSpecific};
    if (per_core_node.present()) {
      tensor.datatypes = {DataType::kBackendSpecific};
      if (!per_core_node->is_object() || per_core_node->empty()) {
        error(per_core_node, "must be a non-empty object {CORE: DATA_TYPE}");
      } else {
        per_core_node.each_member([&](const std::string& core, const Node& type) {
          if (!udo::snpe_core_type(core))
            warn(type, "core type '" + core + "' is not one the SNPE tools know (CPU, GPU, DSP, HTP)");
          std::vector<DataType> types = datatypes_of(type, iequals(core, "DSP"), true);
          if (!types.empty() && !tensor.name.empty()) per_core.tensor(core, role, tensor.name).datatypes = types;
        });
      }
      if (type_node.present()) {
        warn(type_node, "beside per_core_data_types: the SNPE tools use per_core_data_types for the cores it names");
        unknown_key(type_node, "data_type", tensor.unknown_fields, true);
      }
    } else if (data_type_kept) {
      unknown_key(type_node, "data_type", tensor.unknown_fields, true);
    } else if (type_node.present()) {
      tensor.datatypes = datatypes_of(type_node, false, false);
    } else if (!ext.datatypes) {
      warn(node, "no data_type: the SNPE tools assume FLOAT_32");
      tensor.datatypes = {DataType::kFloat32};
    }
    if (ext.datatypes) {
      bool open = tensor.datatypes.size() == 1 && tensor.datatypes[0] == DataType::kBackendSpecific;
      if (!data_type_kept && !tensor.datatypes.empty() && !open && !ext.datatypes->empty() &&
          tensor.datatypes[0] != (*ext.datatypes)[0])
        warn(type_node.present() ? type_node : node,
             "disagrees with oprig_extension.datatypes, which is used (was the file edited by hand?)");
      tensor.datatypes = *ext.datatypes;
    }

    bool boolean = std::count(tensor.datatypes.begin(), tensor.datatypes.end(), DataType::kBool8) > 0;
    if (default_node.present()) {
      const Json& d = *default_node;
      if (role == TensorRole::kOutput)
        warn(default_node, "an output with a default value (the XML format forbids one; the SNPE tools ignore it)");
      if (d.is_string()) tensor.default_value = parse_default(d.get<std::string>(), boolean);
      // A boolean tensor's 0/1 means false/true, as the XML reader reads it.
      else if (boolean && (d.is_number() || d.is_array()))
        tensor.default_value = parse_default(d.dump(), boolean);
      else if (d.is_number() || d.is_boolean() || d.is_array())
        tensor.default_value = DefaultValue{d.dump(), nlohmann::json(d)};
      else error(default_node, "must be a number, boolean, list or string");
    }
    // SNPE's notion: a parameter without a default must be given.
    tensor.mandatory = parameter ? !tensor.default_value.has_value() : true;

    if (ext.description) tensor.description = *ext.description;
    if (ext.constraints) tensor.constraints = *ext.constraints;
    if (ext.mandatory) tensor.mandatory = *ext.mandatory;
    if (ext.rank) tensor.shape.rank = *ext.rank;
    if (ext.layout) tensor.shape.layout = *ext.layout;
    if (ext.shape_text) tensor.shape.text = *ext.shape_text;
    if (ext.enumeration) tensor.enumeration = *ext.enumeration;
    if (ext.repeated) tensor.repeated = *ext.repeated;
    if (ext.default_raw) tensor.default_value = parse_default(*ext.default_raw, boolean);
    merge_xml_attributes(ext.xml_attributes, tensor.unknown_fields);
    order_unknown_fields(tensor.unknown_fields);
    return tensor;
  }

  void read_layout(const Node& at, Layout& into) {
    std::optional<std::string> text = string_of(at);
    if (!text) return;
    std::optional<Layout> layout = parse_layout(*text);
    if (!layout || *layout == Layout::kBackendSpecific) {
      error(at, "unknown layout '" + *text + "'");
      return;
    }
    if (!udo::snpe_layout(*layout))
      warn(at, "'" + *text + "' is not an SNPE tensor_layout (NHWC, NCHW, NDCHW, GPU_OPTIMAL1/2, DSP_OPTIMAL1/2, "
                             "NONTRIVIAL, NOT_YET_DEFINED); the SNPE tools reject it");
    into = *layout;
  }

  std::vector<TensorDef> read_tensors(const Node& list, TensorRole role, bool scalar, PerCoreLists& per_core) {
    std::vector<TensorDef> tensors;
    if (!list.present()) return tensors;
    if (!list->is_array()) {
      error(list, "must be a list");
      return tensors;
    }
    for (size_t i = 0; i < list->size(); ++i) tensors.push_back(read_tensor(list.at(i), role, scalar, i, per_core));
    return tensors;
  }

  std::vector<std::string> strings_of(const Node& list) {
    std::vector<std::string> out;
    if (!list.present()) return out;
    if (!list->is_array()) {
      error(list, "must be a list of strings");
      return out;
    }
    for (size_t i = 0; i < list->size(); ++i)
      if (auto s = string_of(list.at(i))) out.push_back(*s);
    return out;
  }

  OpDef read_op(const Node& node, PerCoreLists& per_core) {
    OpDef op;
    if (!node->is_object()) {
      error(node, "an operator must be an object");
      return op;
    }
    Node type_node, inputs, outputs, scalars, tensors, cores, archs, ext_node;
    node.each_member([&](const std::string& key, const Node& child) {
      if (key == "type") type_node = child;
      else if (key == "inputs") inputs = child;
      else if (key == "outputs") outputs = child;
      else if (key == "scalar_params") scalars = child;
      else if (key == "tensor_params") tensors = child;
      else if (key == "core_types") cores = child;
      else if (key == "dsp_arch_types") archs = child;
      else if (key == udo::kExtensionKey) ext_node = child;
      else unknown_key(child, key, op.unknown_fields);
    });
    if (!type_node.present()) {
      error(node, "missing type");
    } else if (auto type = string_of(type_node)) {
      op.name = *type;
      if (op.name.empty()) error(type_node, "empty op type");
    }
    per_core.start_op(op.name);
    op.inputs = read_tensors(inputs, TensorRole::kInput, false, per_core);
    op.outputs = read_tensors(outputs, TensorRole::kOutput, false, per_core);
    op.parameters = read_tensors(scalars, TensorRole::kParameter, true, per_core);
    for (TensorDef& t : read_tensors(tensors, TensorRole::kParameter, false, per_core))
      op.parameters.push_back(std::move(t));
    if (op.inputs.empty()) error(node, "needs at least one input");
    if (op.outputs.empty()) error(node, "needs at least one output");
    op.supported_backends = strings_of(cores);
    for (size_t i = 0; cores.present() && cores->is_array() && i < cores->size(); ++i)
      if (cores->at(i).is_string() && !udo::snpe_core_type(cores->at(i).get<std::string>()))
        warn(cores.at(i), "core type '" + cores->at(i).get<std::string>() +
                              "' is not one the SNPE tools know (CPU, GPU, DSP, HTP)");
    op.dsp_arch_types = strings_of(archs);
    if (ext_node.present()) apply_op_extension(ext_node, op);
    order_unknown_fields(op.unknown_fields);
    if (!cores.present() && !ext_node.present()) warn(node, "no core_types: the SNPE tools require them");
    check_tensor_names(node, op);
    return op;
  }

  void check_tensor_names(const Node& node, const OpDef& op) {
    std::vector<std::string_view> names;  // sorted, not hashed: ops have few tensors
    for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter})
      for (const TensorDef& t : tensors_of(op, role)) names.push_back(t.name);
    std::sort(names.begin(), names.end());
    for (size_t i = 1; i < names.size(); ++i)
      if (!names[i].empty() && names[i] == names[i - 1] && (i + 1 == names.size() || names[i + 1] != names[i]))
        warn(node, "tensor name '" + std::string(names[i]) +
                       "' used twice; per-core types and the harness address tensors by name");
  }

  void apply_op_extension(const Node& at, OpDef& op) {
    if (!at->is_object()) {
      error(at, "must be an object");
      return;
    }
    at.each_member([&](const std::string& key, const Node& child) {
      try {
        const Json& v = *child;
        if (key == "description") op.description = ir_json::description_from_json(v);
        else if (key == "references") op.references = ir_json::references_from_json(v);
        else if (key == "supported_backends") op.supported_backends = ir_json::strings_from_json(v, key.c_str());
        else if (key == "dsp_arch_types") op.dsp_arch_types = ir_json::strings_from_json(v, key.c_str());
        else if (key == "parameter_order") reorder_parameters(child, ir_json::strings_from_json(v, key.c_str()), op);
        else if (key == "use_default_translation") {
          if (!v.is_boolean()) throw IrJsonError("use_default_translation must be true or false");
          op.use_default_translation = v.get<bool>();
        } else if (key == "xml_attributes") {
          if (!v.is_object()) throw IrJsonError("xml_attributes must be an object");
          merge_xml_attributes(v, op.unknown_fields);
        } else {
          throw IrJsonError("unknown key '" + key + "'");
        }
      } catch (const IrJsonError& e) {
        error(child, e.what());
      }
    });
  }

  // The format lists scalar_params before tensor_params; the extension gives
  // the spec's own order back.
  void reorder_parameters(const Node& at, const std::vector<std::string>& order, OpDef& op) {
    std::vector<TensorDef> ordered;
    std::vector<bool> used(op.parameters.size(), false);
    for (const std::string& name : order) {
      size_t i = 0;
      while (i < op.parameters.size() && (used[i] || op.parameters[i].name != name)) ++i;
      if (i == op.parameters.size()) {
        warn(at, "names parameter '" + name + "' that the operator does not have; order left as written");
        return;
      }
      used[i] = true;
      ordered.push_back(op.parameters[i]);
    }
    if (ordered.size() != op.parameters.size()) {
      warn(at, "does not name every parameter; order left as written");
      return;
    }
    op.parameters = std::move(ordered);
  }

  void apply_package_extension(const Node& at, Package& package) {
    if (!at->is_object()) {
      error(at, "must be an object");
      return;
    }
    at.each_member([&](const std::string& key, const Node& child) {
      try {
        const Json& v = *child;
        if (key == "domain") package.domain = ir_json::string_from_json(v, "domain");
        else if (key == "version") package.version = ir_json::string_from_json(v, "version");
        else if (key == "supplementals") package.supplementals = ir_json::supplementals_from_json(v);
        else if (key == "xml_attributes") {
          if (!v.is_object()) throw IrJsonError("xml_attributes must be an object");
          merge_xml_attributes(v, package.unknown_fields);
        } else {
          throw IrJsonError("unknown key '" + key + "'");
        }
      } catch (const IrJsonError& e) {
        error(child, e.what());
      }
    });
  }

  std::string file_;
  std::vector<SpecError>& errors_;
  std::vector<SpecError>& warnings_;
  bool consume_;
};

}  // namespace

namespace udo {

PackageRead read_package(const Json& value, const JsonPosition* positions, const std::string& package_key,
                         std::string_view file_name) {
  PackageRead out;
  UdoReader reader(file_name, out.errors, out.warnings);
  out.package = reader.read_package(Node{&value, positions, nullptr, package_key, 0, false, 0});
  return out;
}

}  // namespace udo

LoadResult read_json(std::string_view text, std::string_view file_name) {
  LoadResult result;
  std::string file(file_name);
  if (text.size() > kMaxSpecBytes) {
    result.errors.push_back({file, 0, "file", "larger than the limit for spec files"});
    return result;
  }
  PositionedJson doc = parse_json_with_positions(text, kMaxJsonNesting);
  if (!doc.error.empty()) {
    result.errors.push_back({file, doc.error_line, "JSON", doc.error});
    return result;
  }
  for (const DuplicateKey& d : doc.duplicate_keys)
    result.warnings.push_back({file, d.line, d.path,
                               "duplicate key; the last value is used, as the SNPE tools (Python's json) do", true});
  const Json& root = doc.value;
  if (!root.is_object()) {
    result.errors.push_back({file, doc.positions.line(), "(root)", "the file must hold one JSON object of UDO packages"});
    return result;
  }
  if (root.empty()) result.errors.push_back({file, doc.positions.line(), "(root)", "no UDO package in the file"});
  std::vector<Package> packages;
  UdoReader reader(file, result.errors, result.warnings, /*consume=*/true);
  size_t ordinal = 0;
  for (const auto& item : root.items()) {
    Node node{&item.value(), doc.positions.child(ordinal++), nullptr, item.key(), 0, false, doc.positions.line()};
    packages.push_back(reader.read_package(node));
  }
  if (result.errors.empty()) result.packages = std::move(packages);
  return result;
}

}  // namespace oprig::spec
