// XML OpDefCollection -> IR. Tolerant where the vendor's tools are (they
// validate against OpDef.xsd and check nothing across elements): element
// order, comments, CRLF, 0/1/true/True, case of names, several Content/Code
// blocks, QuantParam, a list's Runtime, attributes of newer SDKs. What looks
// wrong but the vendor's tools accept (a supplement for an op this file does
// not define, an unresolved BACKEND_SPECIFIC, ...) is a warning. Strict where
// the file is truly broken; every message carries file:line: element.
#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <pugixml.hpp>

#include "spec/layout_marker.hpp"
#include "spec/load.hpp"

namespace oprig::spec {
namespace {

std::string trimmed(std::string_view text) {
  size_t b = text.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(b, e - b + 1));
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Offset of the first byte that is not well-formed UTF-8, or npos.
size_t invalid_utf8_at(std::string_view text) {
  static constexpr unsigned kMin[] = {0, 0x80, 0x800, 0x10000};
  size_t i = 0, n = text.size();
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t extra;
    unsigned cp;
    if ((c >> 5) == 0x6) extra = 1, cp = c & 0x1Fu;
    else if ((c >> 4) == 0xE) extra = 2, cp = c & 0x0Fu;
    else if ((c >> 3) == 0x1E) extra = 3, cp = c & 0x07u;
    else return i;
    if (n - i <= extra) return i;
    for (size_t k = 1; k <= extra; ++k) {
      unsigned char cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += extra + 1;
  }
  return std::string_view::npos;
}

// The XML nodes a tensor came from, kept for cross-checks after parsing.
struct TensorSite {
  pugi::xml_node element;
  pugi::xml_node datatype;          // the first Datatype
  pugi::xml_node backend_specific;  // the Datatype that says BACKEND_SPECIFIC
  pugi::xml_node layout;
};

class XmlReader {
 public:
  XmlReader(std::string_view text, std::string_view file, std::vector<SpecError>& errors,
            std::vector<SpecError>& warnings)
      : text_(text), file_(file), errors_(errors), warnings_(warnings) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') line_starts_.push_back(i + 1);
  }

  std::optional<Package> read() {
    if (size_t bad = invalid_utf8_at(text_); bad != std::string_view::npos) {
      errors_.push_back({file_, line_at(bad), "XML", "not valid UTF-8 (byte " + std::to_string(bad) + ")"});
      return std::nullopt;
    }
    pugi::xml_document doc;
    // parse_trim_pcdata: vendors indent text freely; comments are skipped by default.
    pugi::xml_parse_result parsed = doc.load_buffer(
        text_.data(), text_.size(), pugi::parse_default | pugi::parse_trim_pcdata, pugi::encoding_utf8);
    if (!parsed) {
      errors_.push_back({file_, line_at(static_cast<size_t>(parsed.offset)), "XML", parsed.description()});
      return std::nullopt;
    }
    pugi::xml_node root = doc.document_element();
    if (std::string_view(root.name()) != "OpDefCollection") {
      error(root, "root element must be OpDefCollection (an op package's spec)");
      return std::nullopt;
    }
    Package package = read_collection(root);
    cross_check(package);
    return package;
  }

 private:
  int line_at(size_t offset) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    return static_cast<int>(it - line_starts_.begin());
  }
  int line_of(pugi::xml_node node) const {
    ptrdiff_t offset = node.offset_debug();
    return offset < 0 ? 0 : line_at(static_cast<size_t>(offset));
  }
  void error(pugi::xml_node node, std::string message) {
    errors_.push_back({file_, line_of(node), node.name(), std::move(message)});
  }
  void warn(pugi::xml_node node, std::string message) {
    warnings_.push_back({file_, line_of(node), node.name(), std::move(message), true});
  }

  // Text content (pcdata and cdata children); child elements are an error.
  std::string text_of(pugi::xml_node node) {
    std::string out;
    for (pugi::xml_node child : node.children()) {
      if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
        if (!out.empty()) out += ' ';
        out += child.value();
      } else if (child.type() == pugi::node_element) {
        error(child, std::string("unexpected element inside <") + node.name() + ">");
      }
    }
    return trimmed(out);
  }

  // Empty element = absent (the seed writes <Repeated></Repeated>).
  std::optional<bool> bool_of(pugi::xml_node node) {
    std::string text = text_of(node);
    if (text.empty()) return std::nullopt;
    std::optional<bool> value = parse_bool(text);
    if (!value) error(node, "'" + text + "' is not a boolean (0, 1, true, false)");
    return value;
  }

  bool once(pugi::xml_node node, std::set<std::string>& seen) {
    if (seen.insert(node.name()).second) return true;
    error(node, "appears more than once");
    return false;
  }

  // Attributes other than `allowed` are a warning: newer SDKs add some (QAIRT's
  // UseQHPI). Kept in `into` ("@Name") when given, so the writers give them back.
  void other_attributes(pugi::xml_node node, std::initializer_list<std::string_view> allowed,
                        UnknownFields* into = nullptr) {
    for (pugi::xml_attribute attr : node.attributes()) {
      std::string_view name = attr.name();
      if (name.starts_with("xmlns") || name.find(':') != std::string_view::npos) continue;
      if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
      if (into) {
        warn(node, "unknown attribute '" + std::string(name) + "', kept as written");
        append_unknown_field(*into, "@" + std::string(name), attr.value());
      } else {
        warn(node, "unknown attribute '" + std::string(name) + "', ignored");
      }
    }
  }

  Package read_collection(pugi::xml_node root) {
    Package package;
    other_attributes(root, {"PackageName", "Domain", "Version"}, &package.unknown_fields);
    package.name = trimmed(root.attribute("PackageName").value());
    package.domain = trimmed(root.attribute("Domain").value());
    package.version = trimmed(root.attribute("Version").value());
    if (package.name.empty()) error(root, "PackageName attribute is missing or empty");
    // OpDefList first, whatever the order in the file: supplementals refer to it.
    int lists = 0;
    for (pugi::xml_node child : root.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view name = child.name();
      if (name == "OpDefList") {
        if (++lists > 1) error(child, "appears more than once");
        other_attributes(child, {});
        for (pugi::xml_node op : child.children()) {
          if (op.type() != pugi::node_element) continue;
          if (std::string_view(op.name()) != "OpDef") {
            error(op, "unknown element in OpDefList");
            continue;
          }
          package.ops.push_back(read_op(op));
          op_nodes_.push_back(op);
        }
      } else if (name != "SupplementalOpDefList") {
        error(child, "unknown element in OpDefCollection");
      }
    }
    if (lists == 0) error(root, "missing OpDefList");
    for (size_t i = 0; i < package.ops.size(); ++i) {
      op_index_.try_emplace(lower(package.ops[i].name), i);
      std::array<std::unordered_set<std::string>, 3>& names = tensor_names_.emplace_back();
      for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter})
        for (const TensorDef& t : tensors_of(package.ops[i], role)) names[static_cast<size_t>(role)].insert(t.name);
    }
    for (pugi::xml_node list : root.children("SupplementalOpDefList"))
      package.supplementals.push_back(read_supplemental_list(list, package));
    return package;
  }

  // Content and Code in file order; several of each are kept as blocks.
  Description read_description(pugi::xml_node node) {
    other_attributes(node, {});
    Description description;
    std::vector<DescriptionBlock> blocks;
    for (pugi::xml_node child : node.children()) {
      if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
        blocks.push_back({false, trimmed(child.value())});
      } else if (child.type() == pugi::node_element) {
        std::string_view name = child.name();
        if (name == "Content" || name == "Code") blocks.push_back({name == "Code", text_of(child)});
        else error(child, "unknown element in Description");
      }
    }
    size_t contents = std::count_if(blocks.begin(), blocks.end(), [](const DescriptionBlock& b) { return !b.is_code; });
    size_t codes = blocks.size() - contents;
    bool simple = contents <= 1 && codes <= 1 && (blocks.size() < 2 || !blocks[0].is_code);
    if (simple) {
      for (const DescriptionBlock& b : blocks) (b.is_code ? description.code : description.content) = b.text;
    } else {
      description.blocks = std::move(blocks);
      derive_description_text(description);
    }
    return description;
  }

  Constraint read_constraint(pugi::xml_node node) {
    other_attributes(node, {"id", "Type"});
    Constraint constraint;
    constraint.id = trimmed(node.attribute("id").value());
    std::string type = trimmed(node.attribute("Type").value());
    if (!type.empty()) {
      if (auto parsed = parse_constraint_type(type)) constraint.type = *parsed;
      else error(node, "unknown constraint Type '" + type + "' (Number, Shape, Value, Datatype, Description)");
    }
    // Text may be mixed with a <Code> child.
    for (pugi::xml_node child : node.children()) {
      if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
        constraint.text = trimmed(constraint.text + " " + child.value());
      } else if (child.type() == pugi::node_element) {
        if (std::string_view(child.name()) == "Code") constraint.code = text_of(child);
        else error(child, "unknown element in Constraint");
      }
    }
    return constraint;
  }

  std::optional<DataType> read_datatype(pugi::xml_node node) {
    std::string text = text_of(node);
    std::optional<DataType> type = parse_data_type(text);
    if (!type) error(node, "unknown data type '" + text + "'");
    return type;
  }

  Layout read_layout(pugi::xml_node node) {
    std::string text = text_of(node);
    if (text.empty()) return Layout::kUnspecified;
    std::optional<Layout> layout = parse_layout(text);
    if (!layout) error(node, "unknown layout '" + text + "'");
    return layout.value_or(Layout::kUnspecified);
  }

  // Turns oprig's UNDEFINED + marker back into the layout it stands for.
  static void restore_layout(Layout& layout, std::string& text) {
    if (layout != Layout::kUndefined && layout != Layout::kUnspecified) return;
    std::string rest;
    if (std::optional<Layout> marked = parse_layout_marker(text, &rest)) {
      layout = *marked;
      text = rest;
    }
  }

  Shape read_shape(pugi::xml_node node, TensorSite& site) {
    other_attributes(node, {});
    Shape shape;
    std::set<std::string> seen;
    bool has_rank = false;
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view name = child.name();
      if (!once(child, seen)) continue;
      if (name == "Rank") {
        has_rank = true;
        std::string text = text_of(child);
        if (auto rank = parse_rank(text)) shape.rank = *rank;
        else error(child, "unknown rank '" + text + "' (SCALAR, 0D, 1D..5D, ND)");
      } else if (name == "Layout") {
        site.layout = child;
        shape.layout = read_layout(child);
      } else if (name == "Text") {
        shape.text = text_of(child);
      } else {
        error(child, "unknown element in Shape");
      }
    }
    // QNN's translator reads Rank only when present.
    if (!has_rank) warn(node, "no Rank: the rank is unknown, so any rank is allowed");
    restore_layout(shape.layout, shape.text);
    return shape;
  }

  TensorDef read_tensor(pugi::xml_node node, TensorRole role, TensorSite& site) {
    TensorDef tensor;
    tensor.mandatory = role != TensorRole::kParameter;
    site.element = node;
    other_attributes(node, {}, &tensor.unknown_fields);
    std::set<std::string> seen;
    bool has_name = false;
    pugi::xml_node default_node;
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view name = child.name();
      if (name == "Constraint") {
        tensor.constraints.push_back(read_constraint(child));
        continue;
      }
      if (name == "Datatype") {
        if (!site.datatype) site.datatype = child;
        if (auto type = read_datatype(child)) {
          if (*type == DataType::kBackendSpecific) site.backend_specific = child;
          tensor.datatypes.push_back(*type);
        }
        continue;
      }
      if (!once(child, seen)) continue;
      if (name == "Name") {
        has_name = true;
        tensor.name = text_of(child);
        if (tensor.name.empty()) error(child, "empty name");
      } else if (name == "Description") {
        tensor.description = read_description(child);
      } else if (name == "Mandatory") {
        if (auto value = bool_of(child)) tensor.mandatory = *value;
      } else if (name == "Shape") {
        tensor.shape = read_shape(child, site);
      } else if (name == "Default") {
        if (role == TensorRole::kOutput) error(child, "an Output cannot have a Default");
        default_node = child;
      } else if (name == "Repeated" && role != TensorRole::kParameter) {
        tensor.repeated = bool_of(child).value_or(false);
      } else if (name == "IsStaticTensor" && role == TensorRole::kInput) {
        tensor.is_static = bool_of(child).value_or(false);
      } else if (name == "Enumeration" && role == TensorRole::kParameter) {
        for (pugi::xml_node item : child.children()) {
          if (item.type() != pugi::node_element) continue;
          if (std::string_view(item.name()) != "Enum") error(item, "unknown element in Enumeration");
          else tensor.enumeration.push_back(text_of(item));
        }
      } else {
        error(child, std::string("unknown element in ") + node.name());
      }
    }
    if (!has_name) error(node, "missing Name");
    if (tensor.datatypes.empty() && !site.datatype) error(node, "missing Datatype");
    if (tensor.datatypes.size() > 1 &&
        std::count(tensor.datatypes.begin(), tensor.datatypes.end(), DataType::kBackendSpecific) > 0)
      warn(site.backend_specific, "BACKEND_SPECIFIC beside other data types: it adds nothing any backend can run");
    if (default_node) {
      std::string raw = text_of(default_node);
      bool boolean = std::count(tensor.datatypes.begin(), tensor.datatypes.end(), DataType::kBool8) > 0;
      if (!raw.empty()) tensor.default_value = parse_default(raw, boolean);
    }
    return tensor;
  }

  OpDef read_op(pugi::xml_node node) {
    OpDef op;
    other_attributes(node, {}, &op.unknown_fields);
    std::set<std::string> seen;
    bool has_name = false;
    std::array<std::vector<TensorSite>, 3>& sites = tensor_sites_.emplace_back();
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view name = child.name();
      auto read_role = [&](TensorRole role, std::vector<TensorDef>& into) {
        TensorSite site;
        site.element = child;
        into.push_back(read_tensor(child, role, site));
        sites[static_cast<size_t>(role)].push_back(site);
      };
      if (name == "Input") read_role(TensorRole::kInput, op.inputs);
      else if (name == "Output") read_role(TensorRole::kOutput, op.outputs);
      else if (name == "Parameter") read_role(TensorRole::kParameter, op.parameters);
      else if (name == "Reference") {
        other_attributes(child, {"Source", "Url"});
        op.references.push_back({trimmed(child.attribute("Source").value()), trimmed(child.attribute("Url").value())});
      } else if (name == "SupportedBackend") {
        std::string backend = text_of(child);
        if (backend.empty()) error(child, "empty backend name");
        else op.supported_backends.push_back(backend);
      } else if (!once(child, seen)) {
        continue;
      } else if (name == "Name") {
        has_name = true;
        op.name = text_of(child);
        if (op.name.empty()) error(child, "empty op name");
      } else if (name == "Description") {
        op.description = read_description(child);
      } else if (name == "UseDefaultTranslation") {
        op.use_default_translation = bool_of(child);
      } else {
        error(child, "unknown element in OpDef");
      }
    }
    if (!has_name) error(node, "missing Name");
    if (op.inputs.empty()) error(node, "needs at least one Input");
    if (op.outputs.empty()) error(node, "needs at least one Output");
    // Supplementals and the harness address tensors by role and name; the
    // schema does not make names unique, so a repeat is only suspicious.
    std::unordered_set<std::string> names;
    for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter})
      for (const TensorDef& tensor : tensors_of(op, role))
        if (!tensor.name.empty() && !names.insert(tensor.name).second)
          warn(node, "tensor name '" + tensor.name + "' used twice in op " + op.name +
                         "; supplements and the harness address tensors by name");
    return op;
  }

  std::optional<size_t> find_op(std::string_view name) const {
    auto it = op_index_.find(lower(name));
    return it == op_index_.end() ? std::nullopt : std::optional<size_t>(it->second);
  }

  // `op`: index of the OpDef supplemented, if this file defines it.
  SupplementalTensor read_supplemental_tensor(pugi::xml_node node, TensorRole role, const Package& package,
                                              std::optional<size_t> op) {
    other_attributes(node, {});
    SupplementalTensor tensor;
    std::set<std::string> seen;
    bool has_name = false;
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view name = child.name();
      if (name == "Constraint") {
        tensor.constraints.push_back(read_constraint(child));
      } else if (name == "QuantParam") {
        tensor.quant_params.push_back(read_quant_param(child));
      } else if (name == "Datatype") {
        if (auto type = read_datatype(child)) {
          if (*type == DataType::kBackendSpecific)
            warn(child, "BACKEND_SPECIFIC in a SupplementalOpDef resolves nothing; this backend gets no data type here");
          tensor.datatypes.push_back(*type);
        }
      } else if (!once(child, seen)) {
        continue;
      } else if (name == "Name") {
        has_name = true;
        tensor.name = text_of(child);
      } else if (name == "Shape") {
        other_attributes(child, {});
        for (pugi::xml_node part : child.children()) {
          if (part.type() != pugi::node_element) continue;
          std::string_view part_name = part.name();
          if (part_name == "Layout") tensor.layout = read_layout(part);
          else if (part_name == "Text") tensor.shape_text = text_of(part);
          else error(part, "unknown element in a supplemental Shape (Layout, Text)");
        }
        restore_layout(tensor.layout, tensor.shape_text);
      } else if (name == "OnlyDefaultSupported") {
        tensor.only_default_supported = bool_of(child);
      } else {
        error(child, std::string("unknown element in a supplemental ") + node.name());
      }
    }
    if (!has_name) {
      error(node, "missing Name");
    } else if (op && !tensor_names_[*op][static_cast<size_t>(role)].count(tensor.name)) {
      warn(node, "op " + package.ops[*op].name + " has no " + std::string(role_name(role)) + " named '" + tensor.name +
                     "'; this supplement applies to nothing");
    }
    return tensor;
  }

  // QNN's quantization parameters of a supplemental tensor.
  QuantParam read_quant_param(pugi::xml_node node) {
    other_attributes(node, {});
    static constexpr std::array<std::string_view, 8> kFields = {"Encoding", "Axis",   "Symmetric", "Scale",
                                                                "Offset",   "Min",    "Max",       "IsMathInvariant"};
    QuantParam param;
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      if (std::find(kFields.begin(), kFields.end(), std::string_view(child.name())) == kFields.end()) {
        error(child, "unknown element in QuantParam");
        continue;
      }
      param.fields.emplace_back(child.name(), text_of(child));
    }
    return param;
  }

  SupplementalList read_supplemental_list(pugi::xml_node node, const Package& package) {
    other_attributes(node, {"Backend", "Runtime"});
    SupplementalList list;
    list.backend = trimmed(node.attribute("Backend").value());
    list.runtime = trimmed(node.attribute("Runtime").value());
    if (list.backend.empty()) error(node, "Backend attribute is missing or empty");
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view name = child.name();
      if (name == "SupportedOps") {
        for (pugi::xml_node op_name : child.children()) {
          if (op_name.type() != pugi::node_element) continue;
          if (std::string_view(op_name.name()) != "OpName") {
            error(op_name, "unknown element in SupportedOps");
            continue;
          }
          std::string text = text_of(op_name);
          if (!find_op(text))
            warn(op_name, "no OpDef named '" + text + "' in this file (another file of the package may define it)");
          list.supported_ops.push_back(text);
        }
      } else if (name == "SupplementalOpDef") {
        list.ops.push_back(read_supplemental_op(child, package));
      } else {
        error(child, "unknown element in SupplementalOpDefList");
      }
    }
    return list;
  }

  SupplementalOpDef read_supplemental_op(pugi::xml_node node, const Package& package) {
    other_attributes(node, {});
    SupplementalOpDef op;
    pugi::xml_node name_node = node.child("Name");
    op.name = text_of(name_node);
    std::optional<size_t> target;
    if (!name_node) error(node, "missing Name");
    else if (!(target = find_op(op.name)))
      warn(name_node, "no OpDef named '" + op.name + "' in this file (another file of the package may define it)");
    int names = 0;
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view name = child.name();
      if (name == "Name") {
        if (++names > 1) error(child, "appears more than once");
      } else if (name == "Input") {
        op.inputs.push_back(read_supplemental_tensor(child, TensorRole::kInput, package, target));
      } else if (name == "Output") {
        op.outputs.push_back(read_supplemental_tensor(child, TensorRole::kOutput, package, target));
      } else if (name == "Parameter") {
        op.parameters.push_back(read_supplemental_tensor(child, TensorRole::kParameter, package, target));
      } else {
        error(child, "unknown element in SupplementalOpDef");
      }
    }
    return op;
  }

  // Every BACKEND_SPECIFIC datatype or layout should be made concrete for
  // each backend the op declares (SupportedBackend, or a list's SupportedOps).
  // The vendor's tools do not check this, so a gap is a warning: the harness
  // then has no data type (or layout) for that backend.
  void cross_check(const Package& package) {
    // Backends per op from the lists' SupportedOps, and supplements by
    // (backend, op, role, tensor): built once, so the checks stay linear.
    std::vector<std::vector<std::string>> listed(package.ops.size());
    std::unordered_map<std::string, std::vector<const SupplementalTensor*>> supplements;
    for (const SupplementalList& list : package.supplementals) {
      for (const std::string& name : list.supported_ops) {
        auto it = op_index_.find(lower(name));
        if (it != op_index_.end()) listed[it->second].push_back(list.backend);
      }
      for (const SupplementalOpDef& sup : list.ops)
        for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter})
          for (const SupplementalTensor& st : tensors_of(sup, role))
            supplements[lower(list.backend) + '\n' + lower(sup.name) + '\n' + std::to_string(static_cast<int>(role)) +
                        '\n' + st.name]
                .push_back(&st);
    }
    std::unordered_set<std::string> op_names;
    for (size_t i = 0; i < package.ops.size(); ++i) {
      const OpDef& op = package.ops[i];
      if (!op.name.empty() && !op_names.insert(lower(op.name)).second)
        error(op_nodes_[i], "op name '" + op.name + "' used twice");
      std::vector<std::string> backends = op.supported_backends;
      backends.insert(backends.end(), listed[i].begin(), listed[i].end());
      for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter}) {
        const std::vector<TensorDef>& tensors = tensors_of(op, role);
        for (size_t t = 0; t < tensors.size(); ++t) {
          const TensorDef& tensor = tensors[t];
          const TensorSite& site = tensor_sites_[i][static_cast<size_t>(role)][t];
          bool datatype_open = tensor.datatypes.size() == 1 && tensor.datatypes[0] == DataType::kBackendSpecific;
          bool layout_open = tensor.shape.layout == Layout::kBackendSpecific;
          if (!datatype_open && !layout_open) continue;
          std::unordered_set<std::string> reported;
          for (const std::string& backend : backends) {
            if (!reported.insert(lower(backend)).second) continue;
            bool datatype_given = false, layout_given = false;
            auto found = supplements.find(lower(backend) + '\n' + lower(op.name) + '\n' +
                                          std::to_string(static_cast<int>(role)) + '\n' + tensor.name);
            if (found != supplements.end())
              for (const SupplementalTensor* st : found->second) {
                datatype_given |= !st->datatypes.empty();
                layout_given |= st->layout != Layout::kUnspecified && st->layout != Layout::kBackendSpecific;
              }
            if (datatype_open && !datatype_given)
              warn(site.backend_specific, "BACKEND_SPECIFIC data type of '" + tensor.name +
                                              "' has no SupplementalOpDef Datatype for backend " + backend +
                                              ": no data type to run there");
            if (layout_open && !layout_given)
              warn(site.layout, "BACKEND_SPECIFIC layout of '" + tensor.name +
                                    "' has no SupplementalOpDef Layout for backend " + backend);
          }
        }
      }
    }
  }

  std::string_view text_;
  std::string file_;
  std::vector<SpecError>& errors_;
  std::vector<SpecError>& warnings_;
  std::vector<size_t> line_starts_;
  std::vector<pugi::xml_node> op_nodes_;
  std::vector<std::array<std::vector<TensorSite>, 3>> tensor_sites_;
  std::unordered_map<std::string, size_t> op_index_;  // lower-case name -> first op of that name
  std::vector<std::array<std::unordered_set<std::string>, 3>> tensor_names_;  // per op, per role
};

}  // namespace

LoadResult read_xml(std::string_view text, std::string_view file_name) {
  LoadResult result;
  if (text.size() > kMaxSpecBytes) {
    result.errors.push_back({std::string(file_name), 0, "file", "larger than the limit for spec files"});
    return result;
  }
  XmlReader reader(text, file_name, result.errors, result.warnings);
  std::optional<Package> package = reader.read();
  if (package && result.errors.empty()) result.packages.push_back(std::move(*package));
  return result;
}

}  // namespace oprig::spec
