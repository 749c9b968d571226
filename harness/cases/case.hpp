// A case: one op × backend × type combination × shapes × fill × parameter
// variant. Ids are [a-z0-9_] with fields joined by "__", so they work unquoted
// as gtest names, directory names and shell arguments:
//   golden id  f32__1x3x5x7__uniform__p1          (types, shapes, fill, variant)
//   run id     atan__f32__1x3x5x7__uniform__p1__cpu
// The seed derives from the op and the golden id only, so every backend sees
// the same inputs and `oprig run --case ID` reproduces a case bit for bit.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/plan.hpp"
#include "oprig/oprig_package.h"

namespace oprig::harness {

// A data type as oprig runs it: quantised types carry scale and zero point.
struct TypeChoice {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  bool quantized = false;
  friend bool operator==(const TypeChoice&, const TypeChoice&) = default;
};

// ---- what the spec allows ----------------------------------------------

// One Input or Output of the spec.
struct TensorSlot {
  std::string name;
  bool mandatory = true;
  bool repeated = false;
  bool is_static = false;
  std::string rank;    // the spec's Rank as written: "ND", "4D", "SCALAR", "" when not given
  std::string layout;  // "NHWC", "NCHW", ... or ""; per backend in layout_by_backend
  std::map<std::string, std::string> layout_by_backend;
  std::map<std::string, std::vector<TypeChoice>> types_by_backend;  // backends the spec allows
  nlohmann::json default_value;  // static inputs: the spec's default_value (null when none)
  std::string shape_text;        // the spec's Shape/Text as written ("[batch, height, width, channel]"), "" when none
  std::vector<std::string> constraints;  // constraint texts
};

// One Parameter of the spec.
struct ParamSlot {
  std::string name;
  bool mandatory = true;
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;  // how the kernel receives it
  bool tensor = false;                       // a tensor parameter (rank >= 1)
  std::string rank;
  std::vector<std::string> enumeration;      // its values, by name
  nlohmann::json default_value;              // parsed Default (enumeration values by name); null when none
  std::string default_raw;                   // the Default as written
  std::vector<std::string> constraints;      // constraint texts
  std::string shape_text;                    // Shape/Text as written ("[2]", "[2, 2]"), "" when none
  std::string description;                   // the Description's content
};

// The types of every tensor def in one case (one entry per spec def; a
// Repeated def's type applies to each of its occurrences).
struct TypeCombo {
  std::vector<TypeChoice> inputs, outputs;
  TypeChoice primary;  // names the case: the def with the most allowed types
};

struct OpCaseSpace {
  std::string op;
  std::string package;
  std::vector<std::string> backends;  // where the spec supports the op, in oprig's order
  std::vector<TensorSlot> inputs, outputs;
  std::vector<ParamSlot> params;

  const ParamSlot* param(const std::string& name) const;
  // The type combinations of the op on a backend: the plan's, or derived from
  // the spec (each allowed type of the def with the most of them; the other
  // defs take that type where they allow it, else their first).
  std::vector<TypeCombo> type_combos(const std::string& backend, const TestPlan& plan) const;
  // The layout of input or output def `index` on a backend ("" when the spec gives none).
  std::string input_layout(size_t index, const std::string& backend) const;
};

// ---- one case -----------------------------------------------------------

struct CaseTensor {
  std::string name;  // the spec's tensor name
  TypeChoice type;
  Quantization quant;  // scale 0: not quantised
  std::vector<int64_t> shape;  // inputs: given; outputs: from the reference
  bool present = true;  // inputs: false for an optional input left out
  bool is_static = false;
  std::string file;  // a golden case: the .npy in Case::golden_dir holding this tensor
  std::string layout;  // the spec's layout of this tensor on the case's backend ("NHWC", "NCHW", "" none)
};

struct Case {
  std::string op;       // OpDef name, "Atan"
  std::string package;  // package name of the spec
  std::string backend;  // "cpu", ...
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;  // the primary type (ids, reports)
  bool quantized = false;
  std::string types_text;  // id field: "f32", or "f32_u8" when the tensors' types differ
  std::vector<CaseTensor> inputs, outputs;
  std::string shape_text;  // id field: "1x3x5x7", "2x3_3", or the entry's name
  std::string fill;        // a fill of the plan, a golden literal's name, or "golden"
  std::string variant;     // "p0": spec defaults; "p1".."pN": random params; "<enum>_p0": sweeps; "lit"
  nlohmann::json params = nlohmann::json::object();  // passed to the kernel, by spec name
  int literal = -1;        // index into TestPlan::golden_literals, or -1
  std::string golden_dir;  // a case read from a golden folder (inputs and expected outputs there)
  // A golden case that cannot run on its backend (a data type, layout or the
  // op itself not declared there): reported SKIPPED with this reason, never dropped.
  std::string not_runnable;
  // A golden manifest's own tolerance ("tolerance": one tolerance for every
  // output, or a table like plan.json's), which judges the case instead of
  // the plan's; null when the manifest has none.
  nlohmann::json tolerance;
  // Terms summed into one output element (the shape entry's
  // "reduction_length"): scales a tolerance's "accumulation" term.
  double reduction_length = 1;
  uint64_t seed = 0;
  std::string golden_id;
  std::string id;

  // The shape of input 0 (the reports' "shape").
  std::vector<int64_t> shape() const;
  // Elements of the largest input (golden size limit, bench throughput).
  size_t element_count() const;
};

std::string shape_text(const std::vector<int64_t>& shape);  // "1x3x5x7", "0", "scalar"
std::string op_key(const std::string& op);                   // "Atan" -> "atan"
std::string id_text(const std::string& text);                // lower case, [a-z0-9_] only
uint64_t seed_of(const std::string& op, const std::string& golden_id);  // FNV-1a 64

// Every case of one op on the given backends, in a stable order. Throws
// std::runtime_error for a plan that does not fit the spec.
std::vector<Case> generate_cases(const OpCaseSpace& space, const TestPlan& plan,
                                 const std::vector<std::string>& backends);

// Golden cases (backend-independent): the plan's literals plus every generated
// case of at most plan.golden_max_elements elements, once per golden id.
std::vector<Case> golden_cases(const OpCaseSpace& space, const TestPlan& plan);

const Fill* find_fill(const TestPlan& plan, const Case& c);

// The parameters the reference sees: the case's, plus the spec's defaults
// for the rest (enumeration values by name).
nlohmann::json reference_params(const Case& c, const OpCaseSpace& space);

}  // namespace oprig::harness
