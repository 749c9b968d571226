// Writing specs and renderings of the IR.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec/opdef.hpp"

namespace oprig::spec {

// The IR holds something the output format cannot represent at all (a
// control character in XML 1.0 text, text that is not UTF-8). The message
// names the field.
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One line per thing a writer could not carry, or wrote in a way the
// vendor's tools will not accept ("Atan: dsp_arch_types v68 (JSON only)").
using WriteNotes = std::vector<std::string>;

// An OpDefCollection that passes the vendor's OpDef.xsd (runtime/spec/OpDef.xsd
// states the rules): elements in schema order, an (empty) Description on every
// OpDef, QNN_DATATYPE_ spellings, Constraint with id and Type. Layouts the
// schema lacks are written as UNDEFINED plus a marker at the start of
// Shape/Text (see layout_marker.hpp); read_xml restores them. XML -> IR -> XML
// -> IR is lossless. JSON-only fields (dsp_arch_types, quantization_mode,
// unknown JSON keys, an output's default) are listed in `notes`.
// Throws WriteError.
std::string write_xml(const Package& package, WriteNotes* notes = nullptr);

// A JSON UDO config with one "UdoPackage_<i>" per package that the SNPE tools
// accept (one data type per tensor and core, their names for cores, types and
// layouts) and that reads back into the same IR: what the format has no
// place for goes into "oprig_extension" keys, written only where needed.
// `notes` lists what the SNPE tools will not take (a type they lack, an op
// with no core they know). Throws WriteError, also for a package without
// operators (an empty OpDefList), which the format cannot hold.
std::string write_json(const std::vector<Package>& packages, WriteNotes* notes = nullptr);

// The whole IR, every field, for `spec show --json` and for tools.
nlohmann::json to_ir_json(const Package& package);

// A readable multi-line rendering for `spec show`, control characters escaped.
std::string render_text(const Package& package);

// One line per op for `spec lint`: "Atan: 1 input, 1 output, 1 parameter; backends CPU, GPU, DSP".
std::string op_summary(const OpDef& op);

}  // namespace oprig::spec
