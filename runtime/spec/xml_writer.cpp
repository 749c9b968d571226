// IR -> XML OpDefCollection in the element order of the vendor's schema.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include <pugixml.hpp>

#include "spec/layout_marker.hpp"
#include "spec/write.hpp"

namespace oprig::spec {
namespace {

// XML 1.0 has no way to write most C0 control characters (not even as
// character references) nor U+FFFE/U+FFFF: refuse, naming the field.
void check_xml_text(const std::string& text, const std::string& where) {
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    bool control = c < 0x20 && c != '\t' && c != '\n' && c != '\r';
    bool non_character = c == 0xEF && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xBF &&
                         (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xBE;
    if (control || non_character) {
      char code[8];
      std::snprintf(code, sizeof code, "%02X", c);
      throw WriteError(printable(where, false) + ": holds " + (control ? "control character U+00" + std::string(code)
                                                                      : std::string("a non-character U+FFFE/U+FFFF")) +
                       ", which XML 1.0 cannot represent");
    }
  }
}

class XmlWriter {
 public:
  explicit XmlWriter(WriteNotes* notes) : notes_(notes) {}

  std::string write(const Package& package) {
    pugi::xml_document doc;
    pugi::xml_node decl = doc.append_child(pugi::node_declaration);
    decl.append_attribute("version").set_value("1.0");
    decl.append_attribute("encoding").set_value("UTF-8");
    pugi::xml_node root = doc.append_child("OpDefCollection");
    root.append_attribute("xmlns:xs").set_value("http://www.w3.org/2001/XMLSchema-instance");
    root.append_attribute("xs:noNamespaceSchemaLocation").set_value("OpDef.xsd");
    attribute(root, "PackageName", package.name, "PackageName");
    attribute(root, "Domain", package.domain, "Domain");
    attribute(root, "Version", package.version, "Version");
    unknown_fields(root, package.unknown_fields, "package " + package.name);
    pugi::xml_node list = root.append_child("OpDefList");
    for (const OpDef& op : package.ops) write_op(list, op);
    for (const SupplementalList& sup_list : package.supplementals) write_supplemental_list(root, sup_list);
    std::ostringstream out;
    doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
    // pugixml writes a carriage return as is, and readers turn it into a
    // newline (XML's line-end normalisation); a reference keeps it. The
    // indentation holds none, so every one comes from the text.
    std::string text = out.str(), escaped;
    escaped.reserve(text.size());
    for (char c : text) {
      if (c == '\r') escaped += "&#13;";
      else escaped += c;
    }
    return escaped;
  }

 private:
  void note(const std::string& text) {
    if (notes_) notes_->push_back(text);
  }

  void text_child(pugi::xml_node parent, const char* name, const std::string& text, const std::string& where) {
    check_xml_text(text, where);
    parent.append_child(name).text().set(text.c_str());
  }

  void bool_child(pugi::xml_node parent, const char* name, bool value) {
    parent.append_child(name).text().set(value ? "true" : "false");
  }

  void attribute(pugi::xml_node node, const char* name, const std::string& value, const std::string& where) {
    check_xml_text(value, where);
    node.append_attribute(name).set_value(value.c_str());
  }

  // "@Name" fields were XML attributes: written back. Others were JSON keys:
  // the XML format has no place for them.
  void unknown_fields(pugi::xml_node node, const UnknownFields& fields, const std::string& where) {
    if (!fields.is_object()) return;
    for (const auto& [name, value] : fields.items()) {
      if (name.starts_with("@")) {
        std::string text = value.is_string() ? value.get<std::string>() : value.dump();
        attribute(node, name.c_str() + 1, text, where + " attribute " + name.substr(1));
      } else {
        note(where + ": JSON key \"" + name + "\" (no place in the XML format)");
      }
    }
  }

  void write_description(pugi::xml_node parent, const Description& description, const std::string& where) {
    pugi::xml_node node = parent.append_child("Description");
    if (!description.blocks.empty()) {
      for (const DescriptionBlock& block : description.blocks)
        text_child(node, block.is_code ? "Code" : "Content", block.text, where + " description");
      return;
    }
    if (!description.content.empty()) text_child(node, "Content", description.content, where + " description");
    if (!description.code.empty()) text_child(node, "Code", description.code, where + " description");
  }

  void write_constraint(pugi::xml_node parent, const Constraint& constraint, const std::string& where) {
    pugi::xml_node node = parent.append_child("Constraint");
    attribute(node, "id", constraint.id, where + " constraint id");
    node.append_attribute("Type").set_value(std::string(constraint_type_name(constraint.type)).c_str());
    check_xml_text(constraint.text, where + " constraint");
    if (!constraint.text.empty()) node.append_child(pugi::node_pcdata).set_value(constraint.text.c_str());
    if (!constraint.code.empty()) text_child(node, "Code", constraint.code, where + " constraint code");
  }

  // Layouts the schema lacks: UNDEFINED plus the marker in Text.
  void write_layout_and_text(pugi::xml_node shape, Layout layout, const std::string& text, const std::string& where) {
    std::string shape_text = text;
    if (!xml_schema_layout(layout)) {
      shape_text = layout_marker(layout) + (text.empty() ? "" : " " + text);
      layout = Layout::kUndefined;
    }
    if (layout != Layout::kUnspecified) text_child(shape, "Layout", std::string(layout_name(layout)), where);
    if (!shape_text.empty()) text_child(shape, "Text", shape_text, where + " shape text");
  }

  void write_tensor(pugi::xml_node parent, const char* element, TensorRole role, const TensorDef& tensor,
                    const std::string& op) {
    std::string where = op + "." + tensor.name;
    pugi::xml_node node = parent.append_child(element);
    unknown_fields(node, tensor.unknown_fields, where);
    text_child(node, "Name", tensor.name, where + " name");
    if (!tensor.description.empty()) write_description(node, tensor.description, where);
    for (const Constraint& c : tensor.constraints) write_constraint(node, c, where);
    bool_child(node, "Mandatory", tensor.mandatory);
    for (DataType type : tensor.datatypes) text_child(node, "Datatype", data_type_qnn_name(type), where);
    // A Shape without Rank stays so (QNN's translator reads Rank only when present).
    if (tensor.shape.rank != Rank::kUnspecified || tensor.shape.layout != Layout::kUnspecified ||
        !tensor.shape.text.empty()) {
      pugi::xml_node shape = node.append_child("Shape");
      if (tensor.shape.rank != Rank::kUnspecified)
        text_child(shape, "Rank", std::string(rank_name(tensor.shape.rank)), where);
      write_layout_and_text(shape, tensor.shape.layout, tensor.shape.text, where);
    }
    if (tensor.default_value) {
      if (role != TensorRole::kOutput) text_child(node, "Default", tensor.default_value->raw, where + " default");
      else note(where + ": default_value of an output (the XML format forbids one)");
    }
    if (role != TensorRole::kParameter && tensor.repeated) bool_child(node, "Repeated", true);
    if (role == TensorRole::kParameter && tensor.repeated) note(where + ": repeated parameter (no place in XML)");
    if (role == TensorRole::kInput && tensor.is_static) bool_child(node, "IsStaticTensor", true);
    if (role != TensorRole::kInput && tensor.is_static)
      note(where + ": static on an " + std::string(role_name(role)) + " (XML has IsStaticTensor on inputs only)");
    if (role == TensorRole::kParameter && !tensor.enumeration.empty()) {
      pugi::xml_node list = node.append_child("Enumeration");
      for (const std::string& item : tensor.enumeration) text_child(list, "Enum", item, where + " enumeration");
    }
    if (!tensor.quantization_mode.empty())
      note(where + ": quantization_mode " + tensor.quantization_mode + " (JSON only)");
  }

  void write_supplemental_tensor(pugi::xml_node parent, const char* element, const SupplementalTensor& tensor,
                                 const std::string& where_op) {
    std::string where = where_op + "." + tensor.name;
    pugi::xml_node node = parent.append_child(element);
    text_child(node, "Name", tensor.name, where + " name");
    for (const Constraint& c : tensor.constraints) write_constraint(node, c, where);
    for (const QuantParam& q : tensor.quant_params) {
      pugi::xml_node param = node.append_child("QuantParam");
      for (const auto& [name, text] : q.fields) {
        bool element_name = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c));
        });
        if (!element_name) throw WriteError(printable(where, false) + ": QuantParam field '" + printable(name, false) + "' is not an element name");
        text_child(param, name.c_str(), text, where + " QuantParam " + name);
      }
    }
    for (DataType type : tensor.datatypes) text_child(node, "Datatype", data_type_qnn_name(type), where);
    if (tensor.layout != Layout::kUnspecified || !tensor.shape_text.empty())
      write_layout_and_text(node.append_child("Shape"), tensor.layout, tensor.shape_text, where);
    if (tensor.only_default_supported) bool_child(node, "OnlyDefaultSupported", *tensor.only_default_supported);
  }

  void write_op(pugi::xml_node parent, const OpDef& op) {
    pugi::xml_node node = parent.append_child("OpDef");
    unknown_fields(node, op.unknown_fields, op.name);
    text_child(node, "Name", op.name, "op name");
    write_description(node, op.description, op.name);  // required by the schema, may be empty
    for (const Reference& ref : op.references) {
      pugi::xml_node r = node.append_child("Reference");
      attribute(r, "Source", ref.source, op.name + " reference");
      attribute(r, "Url", ref.url, op.name + " reference");
    }
    for (const TensorDef& t : op.inputs) write_tensor(node, "Input", TensorRole::kInput, t, op.name);
    for (const TensorDef& t : op.outputs) write_tensor(node, "Output", TensorRole::kOutput, t, op.name);
    for (const TensorDef& t : op.parameters) write_tensor(node, "Parameter", TensorRole::kParameter, t, op.name);
    if (op.use_default_translation) bool_child(node, "UseDefaultTranslation", *op.use_default_translation);
    for (const std::string& backend : op.supported_backends)
      text_child(node, "SupportedBackend", backend, op.name + " SupportedBackend");
    if (!op.dsp_arch_types.empty()) {
      std::string archs;
      for (const std::string& arch : op.dsp_arch_types) archs += (archs.empty() ? "" : ", ") + arch;
      note(op.name + ": dsp_arch_types " + archs + " (JSON only)");
    }
  }

  void write_supplemental_list(pugi::xml_node root, const SupplementalList& sup_list) {
    pugi::xml_node node = root.append_child("SupplementalOpDefList");
    attribute(node, "Backend", sup_list.backend, "SupplementalOpDefList Backend");
    if (!sup_list.runtime.empty()) attribute(node, "Runtime", sup_list.runtime, "SupplementalOpDefList Runtime");
    if (!sup_list.supported_ops.empty()) {
      pugi::xml_node ops = node.append_child("SupportedOps");
      for (const std::string& name : sup_list.supported_ops) text_child(ops, "OpName", name, "SupportedOps");
    }
    for (const SupplementalOpDef& sup : sup_list.ops) {
      std::string where = sup_list.backend + " " + sup.name;
      pugi::xml_node s = node.append_child("SupplementalOpDef");
      text_child(s, "Name", sup.name, where);
      for (const SupplementalTensor& t : sup.inputs) write_supplemental_tensor(s, "Input", t, where);
      for (const SupplementalTensor& t : sup.outputs) write_supplemental_tensor(s, "Output", t, where);
      for (const SupplementalTensor& t : sup.parameters) write_supplemental_tensor(s, "Parameter", t, where);
    }
  }

  WriteNotes* notes_;
};

}  // namespace

std::string write_xml(const Package& package, WriteNotes* notes) { return XmlWriter(notes).write(package); }

}  // namespace oprig::spec
