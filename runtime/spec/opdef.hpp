// The one in-memory operator-spec IR. Both vendor formats of seed 000 (XML
// OpDefCollection, JSON UDO config) are read into it and written from it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "oprig/oprig_package.h"

namespace oprig::spec {

// Every spelling the vendors' tools accept folds onto one value: the seed's
// FIXED_n is QNN's UFIXED_POINT_n (both are unsigned fixed point with scale and
// offset), UINT_n / INT_n are plain integers, QNN_DATATYPE_ prefixes are optional.
enum class DataType {
  kBackendSpecific,  // resolved per backend through a SupplementalOpDef
  kFloat16, kFloat32, kFloat64,
  kInt8, kInt16, kInt32, kInt64,
  kUInt8, kUInt16, kUInt32, kUInt64,
  kUFixed4, kUFixed8, kUFixed16, kUFixed32,  // FIXED_n == UFIXED_POINT_n
  kSFixed4, kSFixed8, kSFixed16, kSFixed32,
  kBool8,
  kString,
};

enum class Rank { kUnspecified, kScalar, k0D, k1D, k2D, k3D, k4D, k5D, kND };

// kUnspecified: no Layout given (in a SupplementalOpDef: "not overridden").
// The last six are the SNPE JSON format's own layouts (tensor_layout).
enum class Layout {
  kUnspecified, kNHWC, kNCHW, kNDHWC, kNonTrivial, kUndefined, kBackendSpecific,
  kNDCHW, kGpuOptimal1, kGpuOptimal2, kDspOptimal1, kDspOptimal2, kNotYetDefined,
};

enum class ConstraintType { kNumber, kShape, kValue, kDatatype, kDescription };

enum class TensorRole { kInput, kOutput, kParameter };

// How a spec data type runs on oprig: quantised types carry scale and zero
// point beside the storage type (real = scale * (q - zero_point)).
struct RuntimeType {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  bool quantized = false;
  friend bool operator==(const RuntimeType&, const RuntimeType&) = default;
};

// One <Content> or <Code> of a Description, in file order.
struct DescriptionBlock {
  bool is_code = false;
  std::string text;
  friend bool operator==(const DescriptionBlock&, const DescriptionBlock&) = default;
};

// `content` and `code` hold the text (several blocks of a kind joined by a
// blank line). `blocks` is filled only when the file has more than one
// Content or Code, or Code before Content (QNN's own op definitions alternate
// them), so that the writers can give the file's blocks back in order.
struct Description {
  std::string content;
  std::string code;
  std::vector<DescriptionBlock> blocks;
  bool empty() const { return content.empty() && code.empty() && blocks.empty(); }
  friend bool operator==(const Description&, const Description&) = default;
};
// Sets content and code from non-empty blocks.
void derive_description_text(Description& description);

struct Reference {
  std::string source;
  std::string url;
  friend bool operator==(const Reference&, const Reference&) = default;
};

// Constraints stay descriptive text here; `code` is an optional <Code> child
// mixed into the text.
struct Constraint {
  std::string id;
  ConstraintType type = ConstraintType::kDescription;
  std::string text;
  std::string code;
  friend bool operator==(const Constraint&, const Constraint&) = default;
};

// A Default as written, plus its parsed form where it parses: a number, a
// bool, or a (nested) list of those; anything else is kept as a string.
struct DefaultValue {
  std::string raw;
  nlohmann::json parsed;  // number | boolean | array | string
  friend bool operator==(const DefaultValue&, const DefaultValue&) = default;
};

struct Shape {
  Rank rank = Rank::kUnspecified;
  Layout layout = Layout::kUnspecified;
  std::string text;
  friend bool operator==(const Shape&, const Shape&) = default;
};

// Fields a reader did not know, kept so that `convert` does not drop them:
// a JSON object of unknown JSON keys (name as written) and unknown XML
// attributes (name "@Attribute"). null when there are none.
using UnknownFields = nlohmann::ordered_json;
// Appends without looking for `name` (ordered_json's own insert searches
// linearly): for names known to be new, as the keys of one JSON object are.
void append_unknown_field(UnknownFields& fields, std::string name, nlohmann::ordered_json value);
// The order the writers give back: unknown JSON keys first, then XML
// attributes ("@Name"), each as read. The JSON writer puts the attributes in
// oprig_extension, which the reader applies last, so a JSON reader that reads
// an attribute-named key ("@x") before a plain one must put it after, or
// write -> read would reorder the fields.
void order_unknown_fields(UnknownFields& fields);

// Input, Output and Parameter share this; fields that do not apply to a role
// stay at their defaults.
struct TensorDef {
  std::string name;
  Description description;
  std::vector<Constraint> constraints;
  bool mandatory = true;            // as written, or the format's default when not
  std::vector<DataType> datatypes;  // at least one after loading
  Shape shape;
  std::optional<DefaultValue> default_value;
  bool repeated = false;
  bool is_static = false;                // IsStaticTensor / JSON "static"
  std::vector<std::string> enumeration;  // parameters only
  std::string quantization_mode;         // JSON only (SNPE: TF, SKIP, QMN, ...); "" when not given
  UnknownFields unknown_fields;
  friend bool operator==(const TensorDef&, const TensorDef&) = default;
};

struct OpDef {
  std::string name;
  Description description;
  std::vector<Reference> references;
  std::vector<TensorDef> inputs;
  std::vector<TensorDef> outputs;
  std::vector<TensorDef> parameters;
  std::optional<bool> use_default_translation;
  std::vector<std::string> supported_backends;  // SupportedBackend / JSON core_types
  std::vector<std::string> dsp_arch_types;      // JSON only (v66, v68, ...)
  UnknownFields unknown_fields;
  friend bool operator==(const OpDef&, const OpDef&) = default;
};

// A QNN <QuantParam> of a supplemental tensor: its child elements (Encoding,
// Axis, Symmetric, Scale, Offset, Min, Max, IsMathInvariant) in file order.
struct QuantParam {
  std::vector<std::pair<std::string, std::string>> fields;
  friend bool operator==(const QuantParam&, const QuantParam&) = default;
};

// What a SupplementalOpDef may override for one tensor; empty / kUnspecified /
// nullopt means "keep the OpDef's".
struct SupplementalTensor {
  std::string name;
  std::vector<Constraint> constraints;  // replace same id, else append
  std::vector<QuantParam> quant_params;
  std::vector<DataType> datatypes;
  Layout layout = Layout::kUnspecified;
  std::string shape_text;
  std::optional<bool> only_default_supported;
  friend bool operator==(const SupplementalTensor&, const SupplementalTensor&) = default;
};

struct SupplementalOpDef {
  std::string name;
  std::vector<SupplementalTensor> inputs;
  std::vector<SupplementalTensor> outputs;
  std::vector<SupplementalTensor> parameters;
  friend bool operator==(const SupplementalOpDef&, const SupplementalOpDef&) = default;
};

struct SupplementalList {
  std::string backend;  // as written: CPU, GPU, DSP, HTP, HTP_FP16, DSP_V68, ...
  std::string runtime;  // QNN's optional Runtime attribute; "" when absent
  // Only these ops run on this backend (see resolve.hpp); may name ops that
  // another file defines.
  std::vector<std::string> supported_ops;
  std::vector<SupplementalOpDef> ops;
  friend bool operator==(const SupplementalList&, const SupplementalList&) = default;
};

// One XML OpDefCollection or one JSON UdoPackage_i.
struct Package {
  std::string name;     // PackageName / UDO_PACKAGE_NAME
  std::string domain;   // may be empty
  std::string version;  // may be empty
  std::vector<OpDef> ops;
  std::vector<SupplementalList> supplementals;
  UnknownFields unknown_fields;
  friend bool operator==(const Package&, const Package&) = default;
};

// ---- names and spellings -------------------------------------------------

// Accepts the seed's, QNN's native and QNN's prefixed spellings, any case.
std::optional<DataType> parse_data_type(std::string_view text);
// "FLOAT_32", "UFIXED_POINT_8", "BACKEND_SPECIFIC" (QNN native, no prefix).
std::string_view data_type_name(DataType type);
// "QNN_DATATYPE_FLOAT_32"; BACKEND_SPECIFIC stays "BACKEND_SPECIFIC".
std::string data_type_qnn_name(DataType type);
// The seed's JSON spelling: FIXED_8 for UFIXED_POINT_8; otherwise data_type_name.
std::string_view data_type_seed_name(DataType type);
// nullopt, with *why, for types oprig cannot run (FIXED_4, BACKEND_SPECIFIC).
std::optional<RuntimeType> runtime_type(DataType type, std::string* why = nullptr);

std::optional<Rank> parse_rank(std::string_view text);
std::string_view rank_name(Rank rank);  // "" for kUnspecified
std::optional<Layout> parse_layout(std::string_view text);
std::string_view layout_name(Layout layout);  // "" for kUnspecified
std::optional<ConstraintType> parse_constraint_type(std::string_view text);
std::string_view constraint_type_name(ConstraintType type);
std::string_view role_name(TensorRole role);  // "input", "output", "parameter"

// 0/1/true/false in any case; nullopt otherwise.
std::optional<bool> parse_bool(std::string_view text);

// Parses a free-form Default: numbers, bools (true/false; 0/1 too when
// `boolean_tensor`), bracketed or braced lists of those; else a string.
// Lists nested deeper than kMaxDefaultNesting stay a string (bounded work on
// hostile input).
inline constexpr int kMaxDefaultNesting = 64;
DefaultValue parse_default(std::string_view raw, bool boolean_tensor);

// Text for a terminal: control characters (C0 but tab and, when
// `keep_newlines`, newline; DEL; C1 in UTF-8) written as \xHH, so a spec
// cannot drive the terminal or fake a line of output.
std::string printable(std::string_view text, bool keep_newlines = true);

// The tensors of one role.
const std::vector<TensorDef>& tensors_of(const OpDef& op, TensorRole role);
const std::vector<SupplementalTensor>& tensors_of(const SupplementalOpDef& op, TensorRole role);

// Case-insensitive ASCII comparison, used for op and backend names.
bool iequals(std::string_view a, std::string_view b);

}  // namespace oprig::spec
