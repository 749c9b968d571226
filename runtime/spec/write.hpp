// Writing specs and renderings of the IR.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec/opdef.hpp"

namespace oprig::spec {

// An OpDefCollection that passes the vendor's OpDef.xsd (runtime/spec/OpDef.xsd
// states the rules): elements in schema order, an (empty) Description on every
// OpDef, QNN_DATATYPE_ spellings, Constraint with id and Type. NCHW is written
// as Layout UNDEFINED plus kNchwMarker at the start of Shape/Text (see
// nchw_marker.hpp); read_xml restores it. XML -> IR -> XML -> IR is lossless.
std::string write_xml(const Package& package);

// A JSON UDO config with one "UdoPackage_<i>" per package. The format has no
// place for descriptions, references, constraints, enumerations, Mandatory on
// inputs, Repeated, shape text, domain or version: those are dropped. A
// tensor allowed several data types on one core gets a list of names (an oprig
// extension that read_json accepts). JSON -> IR -> JSON -> IR is lossless.
std::string write_json(const std::vector<Package>& packages);

// The whole IR, every field, for `spec show --json` and for tools.
nlohmann::json to_ir_json(const Package& package);

// A readable multi-line rendering for `spec show`.
std::string render_text(const Package& package);

// One line per op for `spec lint`: "Atan: 1 input, 1 output, 1 parameter; backends CPU, GPU, DSP".
std::string op_summary(const OpDef& op);

}  // namespace oprig::spec
