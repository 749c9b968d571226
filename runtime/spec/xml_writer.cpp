// IR -> XML OpDefCollection in the element order of the vendor's schema.
#include <sstream>

#include <pugixml.hpp>

#include "spec/nchw_marker.hpp"
#include "spec/write.hpp"

namespace oprig::spec {
namespace {

void text_child(pugi::xml_node parent, const char* name, const std::string& text) {
  parent.append_child(name).text().set(text.c_str());
}

void bool_child(pugi::xml_node parent, const char* name, bool value) {
  text_child(parent, name, value ? "true" : "false");
}

void write_description(pugi::xml_node parent, const Description& description) {
  pugi::xml_node node = parent.append_child("Description");
  if (!description.content.empty()) text_child(node, "Content", description.content);
  if (!description.code.empty()) text_child(node, "Code", description.code);
}

void write_constraint(pugi::xml_node parent, const Constraint& constraint) {
  pugi::xml_node node = parent.append_child("Constraint");
  node.append_attribute("id").set_value(constraint.id.c_str());
  node.append_attribute("Type").set_value(std::string(constraint_type_name(constraint.type)).c_str());
  if (!constraint.text.empty()) node.append_child(pugi::node_pcdata).set_value(constraint.text.c_str());
  if (!constraint.code.empty()) text_child(node, "Code", constraint.code);
}

// NCHW has no schema spelling: UNDEFINED plus the marker in Text.
void write_layout_and_text(pugi::xml_node shape, Layout layout, const std::string& text) {
  std::string shape_text = text;
  if (layout == Layout::kNCHW) {
    layout = Layout::kUndefined;
    shape_text = std::string(kNchwMarker) + (text.empty() ? "" : " " + text);
  }
  if (layout != Layout::kUnspecified) text_child(shape, "Layout", std::string(layout_name(layout)));
  if (!shape_text.empty()) text_child(shape, "Text", shape_text);
}

void write_tensor(pugi::xml_node parent, const char* element, TensorRole role, const TensorDef& tensor) {
  pugi::xml_node node = parent.append_child(element);
  text_child(node, "Name", tensor.name);
  if (!tensor.description.empty()) write_description(node, tensor.description);
  for (const Constraint& c : tensor.constraints) write_constraint(node, c);
  bool_child(node, "Mandatory", tensor.mandatory);
  for (DataType type : tensor.datatypes) text_child(node, "Datatype", data_type_qnn_name(type));
  if (tensor.shape.rank != Rank::kUnspecified) {
    pugi::xml_node shape = node.append_child("Shape");
    text_child(shape, "Rank", std::string(rank_name(tensor.shape.rank)));
    write_layout_and_text(shape, tensor.shape.layout, tensor.shape.text);
  }
  if (tensor.default_value && role != TensorRole::kOutput) text_child(node, "Default", tensor.default_value->raw);
  if (role != TensorRole::kParameter && tensor.repeated) bool_child(node, "Repeated", true);
  if (role == TensorRole::kInput && tensor.is_static) bool_child(node, "IsStaticTensor", true);
  if (role == TensorRole::kParameter && !tensor.enumeration.empty()) {
    pugi::xml_node list = node.append_child("Enumeration");
    for (const std::string& item : tensor.enumeration) text_child(list, "Enum", item);
  }
}

void write_supplemental_tensor(pugi::xml_node parent, const char* element, const SupplementalTensor& tensor) {
  pugi::xml_node node = parent.append_child(element);
  text_child(node, "Name", tensor.name);
  for (const Constraint& c : tensor.constraints) write_constraint(node, c);
  for (DataType type : tensor.datatypes) text_child(node, "Datatype", data_type_qnn_name(type));
  if (tensor.layout != Layout::kUnspecified || !tensor.shape_text.empty())
    write_layout_and_text(node.append_child("Shape"), tensor.layout, tensor.shape_text);
  if (tensor.only_default_supported) bool_child(node, "OnlyDefaultSupported", *tensor.only_default_supported);
}

void write_op(pugi::xml_node parent, const OpDef& op) {
  pugi::xml_node node = parent.append_child("OpDef");
  text_child(node, "Name", op.name);
  write_description(node, op.description);  // required by the schema, may be empty
  for (const Reference& ref : op.references) {
    pugi::xml_node r = node.append_child("Reference");
    r.append_attribute("Source").set_value(ref.source.c_str());
    r.append_attribute("Url").set_value(ref.url.c_str());
  }
  for (const TensorDef& t : op.inputs) write_tensor(node, "Input", TensorRole::kInput, t);
  for (const TensorDef& t : op.outputs) write_tensor(node, "Output", TensorRole::kOutput, t);
  for (const TensorDef& t : op.parameters) write_tensor(node, "Parameter", TensorRole::kParameter, t);
  if (op.use_default_translation) bool_child(node, "UseDefaultTranslation", *op.use_default_translation);
  for (const std::string& backend : op.supported_backends) text_child(node, "SupportedBackend", backend);
}

}  // namespace

std::string write_xml(const Package& package) {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version").set_value("1.0");
  decl.append_attribute("encoding").set_value("UTF-8");
  pugi::xml_node root = doc.append_child("OpDefCollection");
  root.append_attribute("xmlns:xs").set_value("http://www.w3.org/2001/XMLSchema-instance");
  root.append_attribute("xs:noNamespaceSchemaLocation").set_value("OpDef.xsd");
  root.append_attribute("PackageName").set_value(package.name.c_str());
  root.append_attribute("Domain").set_value(package.domain.c_str());
  root.append_attribute("Version").set_value(package.version.c_str());
  pugi::xml_node list = root.append_child("OpDefList");
  for (const OpDef& op : package.ops) write_op(list, op);
  for (const SupplementalList& sup_list : package.supplementals) {
    pugi::xml_node node = root.append_child("SupplementalOpDefList");
    node.append_attribute("Backend").set_value(sup_list.backend.c_str());
    if (!sup_list.supported_ops.empty()) {
      pugi::xml_node ops = node.append_child("SupportedOps");
      for (const std::string& name : sup_list.supported_ops) text_child(ops, "OpName", name);
    }
    for (const SupplementalOpDef& sup : sup_list.ops) {
      pugi::xml_node s = node.append_child("SupplementalOpDef");
      text_child(s, "Name", sup.name);
      for (const SupplementalTensor& t : sup.inputs) write_supplemental_tensor(s, "Input", t);
      for (const SupplementalTensor& t : sup.outputs) write_supplemental_tensor(s, "Output", t);
      for (const SupplementalTensor& t : sup.parameters) write_supplemental_tensor(s, "Parameter", t);
    }
  }
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

}  // namespace oprig::spec
