// JSON UDO config -> IR. Each top-level object member is one package
// ("UdoPackage_0", ...). per_core_data_types become a BACKEND_SPECIFIC data
// type plus one SupplementalOpDef per core, so XML and JSON resolve through
// the same code. In the SNPE JSON format the DSP runtime is fixed point: a
// DSP UINT_8/UINT_16 tensor carries scale and offset, so it is read as
// UFIXED_POINT_8/16 (and written back as UINT_8/16).
#include <set>

#include "spec/json_positions.hpp"
#include "spec/load.hpp"

namespace oprig::spec {
namespace {

using Json = nlohmann::ordered_json;

// Where a value sits: JSON pointer for line look-up, dotted path for messages.
struct Loc {
  std::string pointer;
  std::string display;
  Loc key(std::string_view k) const {
    return {pointer + "/" + json_pointer_escape(k), display.empty() ? std::string(k) : display + "." + std::string(k)};
  }
  Loc index(size_t i) const { return {pointer + "/" + std::to_string(i), display + "[" + std::to_string(i) + "]"}; }
};

class JsonReader {
 public:
  JsonReader(const PositionedJson& doc, std::string_view file, std::vector<SpecError>& errors)
      : doc_(doc), file_(file), errors_(errors) {}

  std::vector<Package> read() {
    std::vector<Package> packages;
    const Json& root = doc_.value;
    if (!root.is_object()) {
      error({"", "(root)"}, "the file must hold one JSON object of UDO packages");
      return packages;
    }
    if (root.empty()) error({"", "(root)"}, "no UDO package in the file");
    for (const auto& [name, value] : root.items()) {
      Loc loc = Loc{}.key(name);
      if (!value.is_object()) {
        error(loc, "a UDO package must be an object");
        continue;
      }
      packages.push_back(read_package(value, loc));
    }
    return packages;
  }

 private:
  void error(const Loc& loc, std::string message) {
    errors_.push_back({file_, doc_.line_of(loc.pointer), loc.display, std::move(message)});
  }

  void check_keys(const Json& object, const Loc& loc, std::initializer_list<std::string_view> allowed) {
    for (const auto& [k, v] : object.items())
      if (std::find(allowed.begin(), allowed.end(), k) == allowed.end())
        error(loc.key(k), "unknown key");
  }

  std::optional<std::string> string_of(const Json& value, const Loc& loc) {
    if (value.is_string()) return value.get<std::string>();
    error(loc, "must be a string");
    return std::nullopt;
  }

  std::optional<bool> bool_of(const Json& value, const Loc& loc) {
    if (value.is_boolean()) return value.get<bool>();
    if (value.is_number_integer() && (value == 0 || value == 1)) return value == 1;
    if (value.is_string())
      if (auto parsed = parse_bool(value.get<std::string>())) return parsed;
    error(loc, "'" + (value.is_string() ? value.get<std::string>() : value.dump()) +
                   "' is not a boolean (true, false, 0, 1)");
    return std::nullopt;
  }

  std::optional<DataType> datatype_of(const Json& value, const Loc& loc, bool dsp) {
    std::optional<std::string> text = string_of(value, loc);
    if (!text) return std::nullopt;
    std::optional<DataType> type = parse_data_type(*text);
    if (!type) {
      error(loc, "unknown data type '" + *text + "'");
    } else if (*type == DataType::kBackendSpecific) {
      error(loc, "BACKEND_SPECIFIC is XML-only; use per_core_data_types");
      type.reset();
    } else if (dsp && *type == DataType::kUInt8) {
      type = DataType::kUFixed8;
    } else if (dsp && *type == DataType::kUInt16) {
      type = DataType::kUFixed16;
    }
    return type;
  }

  // A data type entry: one name, or (oprig extension) a list of names.
  std::vector<DataType> datatypes_of(const Json& value, const Loc& loc, bool dsp) {
    std::vector<DataType> types;
    if (value.is_array()) {
      for (size_t i = 0; i < value.size(); ++i)
        if (auto t = datatype_of(value[i], loc.index(i), dsp)) types.push_back(*t);
      if (value.empty()) error(loc, "empty list of data types");
    } else if (auto t = datatype_of(value, loc, dsp)) {
      types.push_back(*t);
    }
    return types;
  }

  SupplementalTensor& supplemental_tensor(Package& package, const std::string& core, const std::string& op,
                                          TensorRole role, const std::string& tensor) {
    auto list = std::find_if(package.supplementals.begin(), package.supplementals.end(),
                             [&](const SupplementalList& l) { return l.backend == core; });
    if (list == package.supplementals.end()) {
      package.supplementals.push_back({core, {}, {}});
      list = package.supplementals.end() - 1;
    }
    auto sup = std::find_if(list->ops.begin(), list->ops.end(),
                            [&](const SupplementalOpDef& s) { return s.name == op; });
    if (sup == list->ops.end()) {
      list->ops.push_back({op, {}, {}, {}});
      sup = list->ops.end() - 1;
    }
    std::vector<SupplementalTensor>& tensors = role == TensorRole::kInput    ? sup->inputs
                                               : role == TensorRole::kOutput ? sup->outputs
                                                                             : sup->parameters;
    tensors.push_back({});
    tensors.back().name = tensor;
    return tensors.back();
  }

  TensorDef read_tensor(const Json& value, const Loc& loc, TensorRole role, bool scalar, size_t index,
                        Package& package, const std::string& op_name) {
    TensorDef tensor;
    if (!value.is_object()) {
      error(loc, "must be an object");
      return tensor;
    }
    if (role == TensorRole::kParameter)
      check_keys(value, loc, {"name", "data_type", "per_core_data_types", "static", "tensor_layout", "default_value"});
    else
      check_keys(value, loc, {"name", "data_type", "per_core_data_types", "static", "tensor_layout"});
    // Input and output names are optional in the format; oprig needs one to
    // address the tensor, so it uses the seed's in[i] / out[i].
    if (value.contains("name")) {
      if (auto name = string_of(value["name"], loc.key("name"))) tensor.name = *name;
    }
    if (tensor.name.empty()) {
      if (role == TensorRole::kParameter) error(loc, "a parameter needs a name");
      else tensor.name = (role == TensorRole::kInput ? "in[" : "out[") + std::to_string(index) + "]";
    }
    tensor.shape.rank = scalar ? Rank::kScalar : Rank::kND;
    bool has_type = value.contains("data_type");
    bool has_per_core = value.contains("per_core_data_types");
    if (has_type == has_per_core) {
      error(loc, "needs exactly one of data_type and per_core_data_types");
    } else if (has_type) {
      tensor.datatypes = datatypes_of(value["data_type"], loc.key("data_type"), false);
    } else {
      const Json& per_core = value["per_core_data_types"];
      Loc per_core_loc = loc.key("per_core_data_types");
      tensor.datatypes = {DataType::kBackendSpecific};
      if (!per_core.is_object() || per_core.empty()) error(per_core_loc, "must be a non-empty object {CORE: DATA_TYPE}");
      else
        for (const auto& [core, type] : per_core.items()) {
          std::vector<DataType> types = datatypes_of(type, per_core_loc.key(core), iequals(core, "DSP"));
          if (!types.empty() && !tensor.name.empty())
            supplemental_tensor(package, core, op_name, role, tensor.name).datatypes = types;
        }
    }
    if (value.contains("static")) tensor.is_static = bool_of(value["static"], loc.key("static")).value_or(false);
    if (value.contains("tensor_layout")) {
      Loc at = loc.key("tensor_layout");
      if (auto text = string_of(value["tensor_layout"], at)) {
        if (auto layout = parse_layout(*text); layout && *layout != Layout::kBackendSpecific) tensor.shape.layout = *layout;
        else error(at, "unknown layout '" + *text + "'");
      }
    }
    if (role == TensorRole::kParameter) {
      tensor.mandatory = !value.contains("default_value");
      if (value.contains("default_value")) {
        const Json& d = value["default_value"];
        bool boolean = std::count(tensor.datatypes.begin(), tensor.datatypes.end(), DataType::kBool8) > 0;
        if (d.is_string()) tensor.default_value = parse_default(d.get<std::string>(), boolean);
        else if (d.is_number() || d.is_boolean() || d.is_array())
          tensor.default_value = DefaultValue{d.dump(), nlohmann::json::parse(d.dump())};
        else error(loc.key("default_value"), "must be a number, boolean, list or string");
      }
    }
    return tensor;
  }

  std::vector<TensorDef> read_tensors(const Json& op, const Loc& loc, std::string_view key, TensorRole role,
                                      bool scalar, Package& package, const std::string& op_name) {
    std::vector<TensorDef> tensors;
    if (!op.contains(key)) return tensors;
    const Json& list = op[std::string(key)];
    Loc at = loc.key(key);
    if (!list.is_array()) {
      error(at, "must be a list");
      return tensors;
    }
    for (size_t i = 0; i < list.size(); ++i)
      tensors.push_back(read_tensor(list[i], at.index(i), role, scalar, i, package, op_name));
    return tensors;
  }

  std::vector<std::string> strings_of(const Json& op, const Loc& loc, std::string_view key) {
    std::vector<std::string> out;
    if (!op.contains(key)) return out;
    const Json& list = op[std::string(key)];
    Loc at = loc.key(key);
    if (!list.is_array()) {
      error(at, "must be a list of strings");
      return out;
    }
    for (size_t i = 0; i < list.size(); ++i)
      if (auto s = string_of(list[i], at.index(i))) out.push_back(*s);
    return out;
  }

  OpDef read_op(const Json& value, const Loc& loc, Package& package) {
    OpDef op;
    if (!value.is_object()) {
      error(loc, "an operator must be an object");
      return op;
    }
    check_keys(value, loc, {"type", "inputs", "outputs", "scalar_params", "tensor_params", "core_types", "dsp_arch_types"});
    if (!value.contains("type")) {
      error(loc, "missing type");
    } else if (auto type = string_of(value["type"], loc.key("type"))) {
      op.name = *type;
      if (op.name.empty()) error(loc.key("type"), "empty op type");
    }
    op.inputs = read_tensors(value, loc, "inputs", TensorRole::kInput, false, package, op.name);
    op.outputs = read_tensors(value, loc, "outputs", TensorRole::kOutput, false, package, op.name);
    op.parameters = read_tensors(value, loc, "scalar_params", TensorRole::kParameter, true, package, op.name);
    for (TensorDef& t : read_tensors(value, loc, "tensor_params", TensorRole::kParameter, false, package, op.name))
      op.parameters.push_back(std::move(t));
    if (op.inputs.empty()) error(loc, "needs at least one input");
    if (op.outputs.empty()) error(loc, "needs at least one output");
    op.supported_backends = strings_of(value, loc, "core_types");
    op.dsp_arch_types = strings_of(value, loc, "dsp_arch_types");
    std::set<std::string> names;
    for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter})
      for (const TensorDef& t : tensors_of(op, role))
        if (!t.name.empty() && !names.insert(t.name).second) error(loc, "tensor name '" + t.name + "' used twice");
    return op;
  }

  Package read_package(const Json& value, const Loc& loc) {
    Package package;
    check_keys(value, loc, {"Operators", "UDO_PACKAGE_NAME"});
    if (!value.contains("UDO_PACKAGE_NAME")) {
      error(loc, "missing UDO_PACKAGE_NAME");
    } else if (auto name = string_of(value["UDO_PACKAGE_NAME"], loc.key("UDO_PACKAGE_NAME"))) {
      package.name = *name;
      if (package.name.empty()) error(loc.key("UDO_PACKAGE_NAME"), "empty package name");
    }
    Loc ops = loc.key("Operators");
    if (!value.contains("Operators") || !value["Operators"].is_array() || value["Operators"].empty()) {
      error(value.contains("Operators") ? ops : loc, "needs a non-empty Operators list");
      return package;
    }
    std::set<std::string> names;
    for (size_t i = 0; i < value["Operators"].size(); ++i) {
      package.ops.push_back(read_op(value["Operators"][i], ops.index(i), package));
      std::string lower;
      for (char c : package.ops.back().name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (!lower.empty() && !names.insert(lower).second)
        error(ops.index(i).key("type"), "op type '" + package.ops.back().name + "' used twice");
    }
    return package;
  }

  const PositionedJson& doc_;
  std::string file_;
  std::vector<SpecError>& errors_;
};

// "/a/0/b" -> "a[0].b", looking at the document to tell indices from keys.
std::string display_path(const Json& root, const std::string& pointer) {
  std::string out;
  const Json* at = &root;
  size_t pos = 1;
  while (pos <= pointer.size() && at) {
    size_t next = pointer.find('/', pos);
    if (next == std::string::npos) next = pointer.size();
    std::string part;  // RFC 6901 unescaping: ~1 is '/', ~0 is '~'
    for (size_t i = pos; i < next; ++i) {
      if (pointer[i] == '~' && i + 1 < next) {
        part += pointer[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        part += pointer[i];
      }
    }
    if (at->is_array()) {
      out += "[" + part + "]";
      size_t index = std::stoul(part);
      at = index < at->size() ? &(*at)[index] : nullptr;
    } else {
      out += (out.empty() ? "" : ".") + part;
      at = at->is_object() && at->contains(part) ? &(*at)[part] : nullptr;
    }
    pos = next + 1;
  }
  return out;
}

}  // namespace

LoadResult read_json(std::string_view text, std::string_view file_name) {
  LoadResult result;
  PositionedJson doc = parse_json_with_positions(text);
  if (!doc.error.empty()) {
    result.errors.push_back({std::string(file_name), doc.error_line, "JSON", doc.error});
    return result;
  }
  if (!doc.duplicate_key_pointer.empty()) {
    result.errors.push_back({std::string(file_name), doc.line_of(doc.duplicate_key_pointer),
                             display_path(doc.value, doc.duplicate_key_pointer), "duplicate key"});
  }
  JsonReader reader(doc, file_name, result.errors);
  std::vector<Package> packages = reader.read();
  if (result.errors.empty()) result.packages = std::move(packages);
  return result;
}

}  // namespace oprig::spec
