// JSON -> Model. Every error names the file, the line of the offending value
// and the subgraph / operation / operand index it belongs to.
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/dtype.hpp"
#include "core/half.hpp"
#include "core/npy.hpp"
#include "graph/model.hpp"
#include "graph/operand_type_names.hpp"
#include "package/loader.hpp"
#include "spec/json_positions.hpp"

namespace oprig::graph {
namespace {

using Json = nlohmann::ordered_json;

class Parser {
 public:
  Parser(const spec::PositionedJson& doc, std::filesystem::path source, std::filesystem::path base_dir,
         const PackageResolver& packages)
      : doc_(doc), source_(std::move(source)), base_dir_(std::move(base_dir)), packages_(packages) {}

  Model parse() {
    const Json& root = doc_.value;
    if (!root.is_object()) fail("", "the model must be a JSON object");
    for (const auto& [key, value] : root.items())
      if (key != "format" && key != "extensions" && key != "main" && key != "subgraphs" && key != "description" &&
          key != "relax_float32_to_float16")
        fail("/" + key, "unknown key '" + key + "'");
    if (root.contains("format") && root["format"] != "oprig.model/1")
      fail("/format", "format must be \"oprig.model/1\"");
    Model model;
    model.path = source_;
    if (root.contains("extensions")) parse_extensions(root["extensions"], model);
    if (!root.contains("subgraphs") || !root["subgraphs"].is_array() || root["subgraphs"].empty())
      fail("/subgraphs", "a model needs a non-empty \"subgraphs\" array");
    if (root.contains("main")) model.main = unsigned_value(root["main"], "/main");
    if (root.contains("relax_float32_to_float16")) {
      if (!root["relax_float32_to_float16"].is_boolean())
        fail("/relax_float32_to_float16", "relax_float32_to_float16 is true or false");
      model.relax_float32_to_float16 = root["relax_float32_to_float16"].get<bool>();
    }
    const Json& subgraphs = root["subgraphs"];
    for (size_t s = 0; s < subgraphs.size(); ++s) {
      subgraph_ = static_cast<int>(s);
      model.subgraphs.push_back(parse_subgraph(subgraphs[s], "/subgraphs/" + std::to_string(s), model));
    }
    subgraph_ = -1;
    if (model.main >= model.subgraphs.size())
      fail("/main", "main subgraph " + std::to_string(model.main) + " does not exist (the model has " +
                        std::to_string(model.subgraphs.size()) + ")");
    return model;
  }

 private:
  [[noreturn]] void fail(const std::string& pointer, const std::string& reason) const {
    Location at;
    at.file = source_.string();
    at.line = doc_.line_of(pointer);
    at.subgraph = subgraph_;
    at.operation = operation_;
    at.operand = operand_;
    throw ModelError(at, reason);
  }

  uint32_t unsigned_value(const Json& v, const std::string& pointer) const {
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > std::numeric_limits<uint32_t>::max())
      fail(pointer, "expected a non-negative integer, got " + v.dump());
    return static_cast<uint32_t>(v.get<int64_t>());
  }

  std::vector<uint32_t> index_list(const Json& parent, const char* key, const std::string& pointer) const {
    std::vector<uint32_t> out;
    if (!parent.contains(key)) return out;
    const Json& list = parent[key];
    if (!list.is_array()) fail(pointer + "/" + key, std::string("\"") + key + "\" must be an array of operand indices");
    for (size_t i = 0; i < list.size(); ++i)
      out.push_back(unsigned_value(list[i], pointer + "/" + key + "/" + std::to_string(i)));
    return out;
  }

  void parse_extensions(const Json& list, Model& model) {
    if (!list.is_array()) fail("/extensions", "\"extensions\" must be an array of {prefix, package}");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string at = "/extensions/" + std::to_string(i);
      const Json& e = list[i];
      if (!e.is_object() || !e.contains("prefix") || !e.contains("package") || !e["package"].is_string())
        fail(at, "an extension is {\"prefix\": 1..65535, \"package\": \"reverse.domain.name\"}");
      Extension ext;
      ext.prefix = unsigned_value(e["prefix"], at + "/prefix");
      ext.package = e["package"].get<std::string>();
      if (ext.prefix == 0 || ext.prefix > kExtensionLowMask)
        fail(at + "/prefix", "extension prefix must be in 1..65535 (0 means built-in), got " +
                                 std::to_string(ext.prefix));
      for (const Extension& other : model.extensions) {
        if (other.prefix == ext.prefix)
          fail(at, "prefix " + std::to_string(ext.prefix) + " is mapped twice (prefix <-> package is one to one)");
        if (other.package == ext.package)
          fail(at, "package '" + ext.package + "' has two prefixes (prefix <-> package is one to one)");
      }
      ext.resolved = packages_.find(ext.package);
      if (ext.resolved == nullptr) {
        std::string known;
        for (const std::string& name : packages_.known()) known += (known.empty() ? "" : ", ") + name;
        fail(at + "/package", "package '" + ext.package + "' is not loaded (loaded: " +
                                  (known.empty() ? "none" : known) + "; pass it with --package)");
      }
      model.extensions.push_back(ext);
    }
  }

  Subgraph parse_subgraph(const Json& s, const std::string& at, const Model& model) {
    if (!s.is_object()) fail(at, "a subgraph must be an object");
    for (const auto& [key, value] : s.items())
      if (key != "name" && key != "operands" && key != "operations" && key != "inputs" && key != "outputs")
        fail(at + "/" + key, "unknown subgraph key '" + key + "'");
    Subgraph out;
    out.line = doc_.line_of(at);
    if (s.contains("name")) out.name = s["name"].is_string() ? s["name"].get<std::string>() : s["name"].dump();
    if (s.contains("operands")) {
      if (!s["operands"].is_array()) fail(at + "/operands", "\"operands\" must be an array");
      for (size_t k = 0; k < s["operands"].size(); ++k) {
        operand_ = static_cast<int>(k);
        out.operands.push_back(parse_operand(s["operands"][k], at + "/operands/" + std::to_string(k), model));
      }
      operand_ = -1;
    }
    if (s.contains("operations")) {
      if (!s["operations"].is_array()) fail(at + "/operations", "\"operations\" must be an array");
      for (size_t k = 0; k < s["operations"].size(); ++k) {
        operation_ = static_cast<int>(k);
        out.operations.push_back(parse_operation(s["operations"][k], at + "/operations/" + std::to_string(k), model));
      }
      operation_ = -1;
    }
    out.inputs = index_list(s, "inputs", at);
    out.outputs = index_list(s, "outputs", at);
    return out;
  }

  // The operand's type: an oprig dtype name (a tensor), an NNAPI OperandCode
  // name or number ("TENSOR_QUANT8_ASYMM", "INT32" = a scalar, 4), "SUBGRAPH",
  // or a vendor extension operand type by name ("com.example.fibonacci:
  // EXAMPLE_INT64") or encoded number ((prefix << 16) | index).
  void parse_type(const Json& type, const std::string& at, const Model& model, Operand& out,
                  std::optional<NnapiOperandType>* nnapi) const {
    if (type.is_number_integer()) {
      if (type.get<int64_t>() < 0 || type.get<int64_t>() > std::numeric_limits<uint32_t>::max())
        fail(at, "an operand type number is a 32-bit unsigned value, got " + type.dump());
      const auto code = static_cast<uint32_t>(type.get<int64_t>());
      if (extension_prefix(code) != 0) return parse_extension_type(extension_prefix(code), extension_index(code), "", at, model, out);
      *nnapi = nnapi_operand_type(code);
      if (!*nnapi) fail(at, "unknown NNAPI operand type code " + std::to_string(code));
    } else if (type.is_string()) {
      const std::string name = type.get<std::string>();
      const size_t colon = name.rfind(':');
      if (colon != std::string::npos) {
        const std::string package = name.substr(0, colon);
        for (const Extension& ext : model.extensions)
          if (ext.package == package) return parse_extension_type(ext.prefix, 0, name.substr(colon + 1), at, model, out);
        fail(at, "'" + name + "' names package '" + package + "', which the model's \"extensions\" do not map to a prefix");
      }
      *nnapi = nnapi_operand_type(name);
      if (!*nnapi) {
        const auto dtype = dtype_from_name(name);
        if (!dtype || *dtype == OPRIG_DTYPE_STRING || *dtype == OPRIG_DTYPE_INVALID)
          fail(at, "unknown operand type '" + name + "'");
        out.dtype = *dtype;
        return;
      }
    } else {
      fail(at, "an operand's \"type\" is a name or a number, got " + type.dump());
    }
    out.is_subgraph_reference = (*nnapi)->subgraph;
    out.dtype = (*nnapi)->dtype;
    out.scalar = (*nnapi)->scalar;
  }

  // By name when `name` is not empty, else by index.
  void parse_extension_type(uint32_t prefix, uint32_t index, const std::string& name, const std::string& at,
                            const Model& model, Operand& out) const {
    const Extension* ext = nullptr;
    for (const Extension& e : model.extensions)
      if (e.prefix == prefix) ext = &e;
    if (ext == nullptr)
      fail(at, "operand type " + std::to_string(extension_type(prefix, index)) + " has extension prefix " +
                   std::to_string(prefix) + ", which the model's \"extensions\" do not map to a package");
    const PackageOperandType* t =
        name.empty() ? ext->resolved->find_operand_type(index) : ext->resolved->find_operand_type(name);
    if (t == nullptr) {
      std::string known;
      for (const PackageOperandType& k : ext->resolved->operand_types())
        known += (known.empty() ? "" : ", ") + k.name + " (" + std::to_string(k.index) + ")";
      fail(at, "package '" + ext->package + "' declares no operand type " +
                   (name.empty() ? std::to_string(index) : "'" + name + "'") + " (it declares: " +
                   (known.empty() ? "none" : known) + ")");
    }
    out.extension = ExtensionOperandType{prefix, t->index, ext->package, t->name, t->quantised};
    out.dtype = t->storage;
    out.scalar = !t->is_tensor;
  }

  Operand parse_operand(const Json& o, const std::string& at, const Model& model) {
    if (!o.is_object()) fail(at, "an operand must be an object");
    for (const auto& [key, value] : o.items())
      if (key != "name" && key != "type" && key != "dims" && key != "rank" && key != "scale" && key != "zero_point" &&
          key != "lifetime" && key != "value" && key != "file" && key != "subgraph")
        fail(at + "/" + key, "unknown operand key '" + key + "'");
    Operand out;
    out.line = doc_.line_of(at);
    if (o.contains("name") && o["name"].is_string()) out.name = o["name"].get<std::string>();
    if (!o.contains("type")) fail(at, "an operand needs a \"type\"");
    std::optional<NnapiOperandType> nnapi;
    parse_type(o["type"], at + "/type", model, out, &nnapi);
    if (!o.contains("lifetime") || !o["lifetime"].is_string()) fail(at, "an operand needs a \"lifetime\" string");
    const auto lifetime = lifetime_from_name(o["lifetime"].get<std::string>());
    if (!lifetime) fail(at + "/lifetime", "unknown lifetime " + o["lifetime"].dump());
    out.lifetime = *lifetime;
    if (out.scalar) {
      if (o.contains("dims") && !o["dims"].is_null() && !(o["dims"].is_array() && o["dims"].empty()))
        fail(at + "/dims", "a scalar has no dims (or \"dims\": [])");
      out.dims = std::vector<int64_t>{};
    } else if (o.contains("dims") && !o["dims"].is_null()) {
      const Json& dims = o["dims"];
      if (!dims.is_array()) fail(at + "/dims", "\"dims\" must be an array (0 = unknown dimension) or null (unknown rank)");
      if (dims.size() > OPRIG_MAX_RANK) fail(at + "/dims", "rank " + std::to_string(dims.size()) + " is over the maximum 8");
      std::vector<int64_t> d;
      for (size_t i = 0; i < dims.size(); ++i) {
        if (!dims[i].is_number_integer() || dims[i].get<int64_t>() < 0)
          fail(at + "/dims/" + std::to_string(i), "a dimension is an integer >= 0 (0 = unknown)");
        d.push_back(dims[i].get<int64_t>());
      }
      out.dims = d;
    } else if (!out.is_subgraph_reference && out.lifetime != Lifetime::kNoValue &&
               out.lifetime != Lifetime::kConstant) {
      out.dims = std::nullopt;  // unknown rank
    }
    if (o.contains("scale")) {
      if (!o["scale"].is_number() || !(o["scale"].get<double>() >= 0) || !std::isfinite(o["scale"].get<double>()))
        fail(at + "/scale", "scale must be a finite number >= 0");
      out.scale = o["scale"].get<float>();
    }
    if (o.contains("zero_point")) {
      if (!o["zero_point"].is_number_integer()) fail(at + "/zero_point", "zero_point must be an integer");
      out.zero_point = o["zero_point"].get<int32_t>();
    }
    check_quantisation(o, at, nnapi, out);
    if (o.contains("subgraph")) out.subgraph = unsigned_value(o["subgraph"], at + "/subgraph");
    if (out.is_subgraph_reference != (out.lifetime == Lifetime::kSubgraph))
      fail(at, "type SUBGRAPH and lifetime SUBGRAPH go together");
    if (out.lifetime == Lifetime::kSubgraph && !o.contains("subgraph"))
      fail(at, "a SUBGRAPH operand needs \"subgraph\": <index>");
    if (out.lifetime == Lifetime::kConstant) {
      if (!out.fully_known_shape()) fail(at, "a CONSTANT needs fully known \"dims\"");
      const bool inline_value = o.contains("value"), file_value = o.contains("file");
      if (inline_value == file_value) fail(at, "a CONSTANT needs exactly one of \"value\" or \"file\"");
      if (inline_value) {
        out.value = encode_values(o["value"], out.dtype, at + "/value");
      } else {
        if (!o["file"].is_string()) fail(at + "/file", "\"file\" must be a path string");
        out.value = read_constant_file(o["file"].get<std::string>(), out, at + "/file");
      }
      uint64_t count = 1;
      for (int64_t d : *out.dims) count *= static_cast<uint64_t>(d);
      if (out.value.size() != count * dtype_size(out.dtype))
        fail(at, "the constant holds " + std::to_string(out.value.size() / dtype_size(out.dtype)) +
                     " elements, dims " + dims_text(out.dims) + " need " + std::to_string(count));
    } else if (o.contains("value") || o.contains("file")) {
      fail(at, "only a CONSTANT operand has \"value\" or \"file\"");
    }
    return out;
  }

  // NNAPI's rules for the quantisation of its typed operands (NNAPI
  // validateOperandType): quantised tensor types need scale > 0 and a zero
  // point in their storage range (0 for the symmetric ones); TENSOR_INT32 may
  // have them (a quantised bias); every other NNAPI type, scalars included,
  // has neither. An extension type is quantised when its package says so:
  // its scale and zero_point stand in for NNAPI's operand extension data.
  void check_quantisation(const Json& o, const std::string& at, const std::optional<NnapiOperandType>& nnapi,
                          const Operand& out) const {
    if (!nnapi && !out.extension) return;  // oprig dtype names: scale is optional (README)
    const Quantisation q = nnapi ? nnapi->quantisation
                                 : out.extension->quantised ? Quantisation::kRequired : Quantisation::kNone;
    const std::string type = nnapi ? std::string(nnapi->name) : out.extension->package + ":" + out.extension->name;
    if (q == Quantisation::kOptional) return;
    if (q == Quantisation::kNone) {
      if (out.scale != 0 || out.zero_point != 0)
        fail(o.contains("scale") ? at + "/scale" : at + "/zero_point", type + " is not quantised: no scale or zero_point");
      return;
    }
    if (!(out.scale > 0)) fail(at, type + " needs \"scale\" > 0");
    if (q == Quantisation::kRequiredSymmetric && out.zero_point != 0) fail(at + "/zero_point", type + " needs zero_point 0");
    int64_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
    if (out.dtype == OPRIG_DTYPE_UINT_8) lo = 0, hi = 255;
    if (out.dtype == OPRIG_DTYPE_INT_8) lo = -128, hi = 127;
    if (out.dtype == OPRIG_DTYPE_UINT_16) lo = 0, hi = 65535;
    if (out.dtype == OPRIG_DTYPE_INT_16) lo = -32768, hi = 32767;
    if (out.zero_point < lo || out.zero_point > hi)
      fail(at + "/zero_point", type + " needs a zero_point in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                   "], got " + std::to_string(out.zero_point));
  }

  std::vector<std::byte> read_constant_file(const std::string& name, const Operand& operand, const std::string& at) {
    NpyArray array;
    try {
      array = read_npy(base_dir_ / name);
    } catch (const std::exception& e) {
      fail(at, e.what());
    }
    if (array.dtype != operand.dtype)
      fail(at, name + " holds " + std::string(dtype_name(array.dtype)) + ", the operand is " +
                   std::string(dtype_name(operand.dtype)));
    return array.data;
  }

  std::vector<std::byte> encode_values(const Json& value, oprig_dtype dtype, const std::string& at) const {
    std::vector<const Json*> flat;
    collect(value, flat);
    std::vector<std::byte> out(flat.size() * dtype_size(dtype));
    for (size_t i = 0; i < flat.size(); ++i) {
      const Json& v = *flat[i];
      std::byte* dst = out.data() + i * dtype_size(dtype);
      if (!v.is_number() && !v.is_boolean()) fail(at, "constant values are numbers or booleans, got " + v.dump());
      const double x = v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>();
      auto put_int = [&](auto tag, double lo, double hi) {
        using T = decltype(tag);
        if (!(x >= lo && x <= hi) || x != std::floor(x))
          fail(at, "value " + v.dump() + " is not a " + std::string(dtype_name(dtype)));
        const T t = static_cast<T>(v.is_number_unsigned() ? static_cast<double>(v.get<uint64_t>()) : x);
        std::memcpy(dst, &t, sizeof t);
      };
      switch (dtype) {
        case OPRIG_DTYPE_FLOAT_32: { const float f = static_cast<float>(x); std::memcpy(dst, &f, 4); break; }
        case OPRIG_DTYPE_FLOAT_64: std::memcpy(dst, &x, 8); break;
        case OPRIG_DTYPE_FLOAT_16: { const uint16_t h = float_to_half(static_cast<float>(x)); std::memcpy(dst, &h, 2); break; }
        case OPRIG_DTYPE_INT_8: put_int(int8_t{}, -128, 127); break;
        case OPRIG_DTYPE_UINT_8: put_int(uint8_t{}, 0, 255); break;
        case OPRIG_DTYPE_BOOL_8: put_int(uint8_t{}, 0, 1); break;
        case OPRIG_DTYPE_INT_16: put_int(int16_t{}, -32768, 32767); break;
        case OPRIG_DTYPE_UINT_16: put_int(uint16_t{}, 0, 65535); break;
        case OPRIG_DTYPE_INT_32: put_int(int32_t{}, -2147483648.0, 2147483647.0); break;
        case OPRIG_DTYPE_UINT_32: put_int(uint32_t{}, 0, 4294967295.0); break;
        case OPRIG_DTYPE_INT_64: put_int(int64_t{}, -9.2233720368547758e18, 9.2233720368547748e18); break;
        case OPRIG_DTYPE_UINT_64: put_int(uint64_t{}, 0, 1.8446744073709550e19); break;
        default: fail(at, "constants of type " + std::string(dtype_name(dtype)) + " are not supported");
      }
    }
    return out;
  }

  static void collect(const Json& v, std::vector<const Json*>& flat) {
    if (v.is_array()) {
      for (const Json& e : v) collect(e, flat);
    } else {
      flat.push_back(&v);
    }
  }

  Operation parse_operation(const Json& o, const std::string& at, const Model& model) {
    if (!o.is_object()) fail(at, "an operation must be an object");
    for (const auto& [key, value] : o.items())
      if (key != "type" && key != "inputs" && key != "outputs" && key != "params" && key != "name")
        fail(at + "/" + key, "unknown operation key '" + key + "'");
    Operation out;
    out.line = doc_.line_of(at);
    if (!o.contains("type")) fail(at, "an operation needs a \"type\"");
    const Json& type = o["type"];
    if (type.is_number_integer()) {
      if (type.get<int64_t>() < 0 || type.get<int64_t>() > std::numeric_limits<uint32_t>::max())
        fail(at + "/type", "type must be a 32-bit unsigned value, got " + type.dump());
      out.type = static_cast<uint32_t>(type.get<int64_t>());
    } else if (type.is_string()) {
      out.type = type_from_name(type.get<std::string>(), at + "/type", model);
    } else {
      fail(at + "/type", "type is a number (extension encoding) or a name, got " + type.dump());
    }
    out.inputs = index_list(o, "inputs", at);
    out.outputs = index_list(o, "outputs", at);
    if (o.contains("params")) {
      if (!o["params"].is_object()) fail(at + "/params", "\"params\" must be an object {name: value}");
      for (const auto& [name, value] : o["params"].items()) {
        Param p;
        p.name = name;
        const std::string pat = at + "/params/" + spec::json_pointer_escape(name);
        if (value.is_object()) {
          if (!value.contains("type") || !value["type"].is_string() || !value.contains("value"))
            fail(pat, "a typed parameter is {\"type\": \"INT_32\", \"value\": ...}");
          const auto dtype = dtype_from_name(value["type"].get<std::string>());
          if (!dtype) fail(pat + "/type", "unknown parameter type " + value["type"].dump());
          p.dtype = *dtype;
          p.data = encode_values(value["value"], p.dtype, pat + "/value");
        } else {
          p.dtype = value.is_boolean() ? OPRIG_DTYPE_BOOL_8 : OPRIG_DTYPE_FLOAT_32;
          p.data = encode_values(value, p.dtype, pat);
        }
        out.params.push_back(std::move(p));
      }
    }
    return out;
  }

  // "ADD" or "package.name:OpName" (through the model's extensions).
  uint32_t type_from_name(const std::string& name, const std::string& at, const Model& model) const {
    const size_t colon = name.rfind(':');
    if (colon == std::string::npos) {
      const auto op = builtin_from_name(name);
      if (!op) fail(at, "unknown built-in operation '" + name + "'");
      return static_cast<uint32_t>(*op);
    }
    const std::string package = name.substr(0, colon), op = name.substr(colon + 1);
    for (const Extension& ext : model.extensions) {
      if (ext.package != package) continue;
      const auto& ops = ext.resolved->ops();
      for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i].name == op) return extension_type(ext.prefix, static_cast<uint32_t>(i));
      fail(at, "package '" + package + "' has no op '" + op + "'");
    }
    fail(at, "'" + name + "' names package '" + package + "', which the model's \"extensions\" do not map to a prefix");
  }

  const spec::PositionedJson& doc_;
  std::filesystem::path source_, base_dir_;
  const PackageResolver& packages_;
  int subgraph_ = -1, operation_ = -1, operand_ = -1;
};

}  // namespace

Model parse_model(std::string_view json_text, const std::filesystem::path& source_name,
                  const std::filesystem::path& base_dir, const PackageResolver& packages) {
  const spec::PositionedJson doc = spec::parse_json_with_positions(json_text);
  if (!doc.error.empty()) {
    Location at;
    at.file = source_name.string();
    at.line = doc.error_line;
    throw ModelError(at, "malformed JSON: " + doc.error);
  }
  if (!doc.duplicate_key_pointer.empty()) {
    Location at;
    at.file = source_name.string();
    at.line = doc.line_of(doc.duplicate_key_pointer);
    throw ModelError(at, "duplicate key " + doc.duplicate_key_pointer);
  }
  Model model = Parser(doc, source_name, base_dir, packages).parse();
  validate_model(model, packages);
  return model;
}

Model load_model(const std::filesystem::path& path, const PackageResolver& packages) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Location at;
    at.file = path.string();
    throw ModelError(at, "cannot read the model file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_model(text.str(), path, path.parent_path(), packages);
}

}  // namespace oprig::graph
