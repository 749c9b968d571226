// Spellings of data types, ranks, layouts, constraint types and booleans, and
// the parsing of free-form Default strings.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "spec/opdef.hpp"

namespace oprig::spec {
namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

struct DataTypeRow {
  DataType type;
  std::string_view name;  // QNN native spelling
};

constexpr std::array<DataTypeRow, 22> kDataTypes = {{
    {DataType::kBackendSpecific, "BACKEND_SPECIFIC"},
    {DataType::kFloat16, "FLOAT_16"},         {DataType::kFloat32, "FLOAT_32"},
    {DataType::kFloat64, "FLOAT_64"},         {DataType::kInt8, "INT_8"},
    {DataType::kInt16, "INT_16"},             {DataType::kInt32, "INT_32"},
    {DataType::kInt64, "INT_64"},             {DataType::kUInt8, "UINT_8"},
    {DataType::kUInt16, "UINT_16"},           {DataType::kUInt32, "UINT_32"},
    {DataType::kUInt64, "UINT_64"},           {DataType::kUFixed4, "UFIXED_POINT_4"},
    {DataType::kUFixed8, "UFIXED_POINT_8"},   {DataType::kUFixed16, "UFIXED_POINT_16"},
    {DataType::kUFixed32, "UFIXED_POINT_32"}, {DataType::kSFixed4, "SFIXED_POINT_4"},
    {DataType::kSFixed8, "SFIXED_POINT_8"},   {DataType::kSFixed16, "SFIXED_POINT_16"},
    {DataType::kSFixed32, "SFIXED_POINT_32"}, {DataType::kBool8, "BOOL_8"},
    {DataType::kString, "STRING"},
}};

// The seed's spellings of unsigned fixed point.
constexpr std::array<DataTypeRow, 4> kSeedFixed = {{
    {DataType::kUFixed4, "FIXED_4"},
    {DataType::kUFixed8, "FIXED_8"},
    {DataType::kUFixed16, "FIXED_16"},
    {DataType::kUFixed32, "FIXED_32"},
}};

constexpr std::array<std::pair<Rank, std::string_view>, 8> kRanks = {{
    {Rank::kScalar, "SCALAR"}, {Rank::k0D, "0D"}, {Rank::k1D, "1D"}, {Rank::k2D, "2D"},
    {Rank::k3D, "3D"}, {Rank::k4D, "4D"}, {Rank::k5D, "5D"}, {Rank::kND, "ND"},
}};

constexpr std::array<std::pair<Layout, std::string_view>, 12> kLayouts = {{
    {Layout::kNHWC, "NHWC"}, {Layout::kNCHW, "NCHW"}, {Layout::kNDHWC, "NDHWC"},
    {Layout::kNonTrivial, "NONTRIVIAL"}, {Layout::kUndefined, "UNDEFINED"},
    {Layout::kBackendSpecific, "BACKEND_SPECIFIC"}, {Layout::kNDCHW, "NDCHW"},
    {Layout::kGpuOptimal1, "GPU_OPTIMAL1"}, {Layout::kGpuOptimal2, "GPU_OPTIMAL2"},
    {Layout::kDspOptimal1, "DSP_OPTIMAL1"}, {Layout::kDspOptimal2, "DSP_OPTIMAL2"},
    {Layout::kNotYetDefined, "NOT_YET_DEFINED"},
}};

constexpr std::array<std::pair<ConstraintType, std::string_view>, 5> kConstraintTypes = {{
    {ConstraintType::kNumber, "Number"}, {ConstraintType::kShape, "Shape"},
    {ConstraintType::kValue, "Value"}, {ConstraintType::kDatatype, "Datatype"},
    {ConstraintType::kDescription, "Description"},
}};

std::optional<nlohmann::json> parse_number(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::string_view digits = text;
  if (digits.front() == '+') digits.remove_prefix(1);
  const char* end = digits.data() + digits.size();
  bool integral = digits.find_first_of(".eE") == std::string_view::npos &&
                  digits.find_first_not_of("-0123456789") == std::string_view::npos;
  if (integral) {
    long long value = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), end, value);
    if (ec == std::errc() && ptr == end) return nlohmann::json(value);
  }
  // Only plain decimal notation; from_chars would also take "inf" and "nan".
  if (digits.find_first_not_of("+-0123456789.eE") != std::string_view::npos) return std::nullopt;
  double value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), end, value);
  if (ec == std::errc() && ptr == end) return nlohmann::json(value);
  return std::nullopt;
}

std::optional<nlohmann::json> parse_scalar(std::string_view text, bool boolean_tensor) {
  text = trim(text);
  if (boolean_tensor && (text == "0" || text == "1")) return nlohmann::json(text == "1");
  std::string u = upper(text);
  if (u == "TRUE") return nlohmann::json(true);
  if (u == "FALSE") return nlohmann::json(false);
  return parse_number(text);
}

// A list in [] or {}, elements separated by commas at depth 0. `nesting`
// counts the enclosing lists: each level rescans its text, so the work is
// bounded by kMaxDefaultNesting times the length.
std::optional<nlohmann::json> parse_list(std::string_view text, bool boolean_tensor, int nesting = 1) {
  text = trim(text);
  if (text.size() < 2 || nesting > kMaxDefaultNesting) return std::nullopt;
  char open = text.front();
  char close = open == '[' ? ']' : open == '{' ? '}' : '\0';
  if (close == '\0' || text.back() != close) return std::nullopt;
  std::string_view body = trim(text.substr(1, text.size() - 2));
  nlohmann::json list = nlohmann::json::array();
  if (body.empty()) return list;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= body.size(); ++i) {
    char c = i < body.size() ? body[i] : ',';
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (depth < 0) return std::nullopt;
    if (c == ',' && depth == 0) {
      std::string_view item = trim(body.substr(start, i - start));
      std::optional<nlohmann::json> value =
          (!item.empty() && (item.front() == '[' || item.front() == '{'))
              ? parse_list(item, boolean_tensor, nesting + 1)
              : parse_scalar(item, boolean_tensor);
      if (!value) return std::nullopt;
      list.push_back(std::move(*value));
      start = i + 1;
    }
  }
  if (depth != 0) return std::nullopt;
  return list;
}

}  // namespace

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::optional<DataType> parse_data_type(std::string_view text) {
  std::string u = upper(trim(text));
  constexpr std::string_view kPrefix = "QNN_DATATYPE_";
  if (u.starts_with(kPrefix)) u.erase(0, kPrefix.size());
  for (const DataTypeRow& row : kDataTypes)
    if (row.name == u) return row.type;
  for (const DataTypeRow& row : kSeedFixed)
    if (row.name == u) return row.type;
  return std::nullopt;
}

std::string_view data_type_name(DataType type) {
  for (const DataTypeRow& row : kDataTypes)
    if (row.type == type) return row.name;
  return "?";
}

std::string data_type_qnn_name(DataType type) {
  if (type == DataType::kBackendSpecific) return "BACKEND_SPECIFIC";
  return "QNN_DATATYPE_" + std::string(data_type_name(type));
}

std::string_view data_type_seed_name(DataType type) {
  for (const DataTypeRow& row : kSeedFixed)
    if (row.type == type) return row.name;
  return data_type_name(type);
}

std::optional<RuntimeType> runtime_type(DataType type, std::string* why) {
  auto plain = [](oprig_dtype d) { return RuntimeType{d, false}; };
  auto quantized = [](oprig_dtype d) { return RuntimeType{d, true}; };
  switch (type) {
    case DataType::kFloat16: return plain(OPRIG_DTYPE_FLOAT_16);
    case DataType::kFloat32: return plain(OPRIG_DTYPE_FLOAT_32);
    case DataType::kFloat64: return plain(OPRIG_DTYPE_FLOAT_64);
    case DataType::kInt8: return plain(OPRIG_DTYPE_INT_8);
    case DataType::kInt16: return plain(OPRIG_DTYPE_INT_16);
    case DataType::kInt32: return plain(OPRIG_DTYPE_INT_32);
    case DataType::kInt64: return plain(OPRIG_DTYPE_INT_64);
    case DataType::kUInt8: return plain(OPRIG_DTYPE_UINT_8);
    case DataType::kUInt16: return plain(OPRIG_DTYPE_UINT_16);
    case DataType::kUInt32: return plain(OPRIG_DTYPE_UINT_32);
    case DataType::kUInt64: return plain(OPRIG_DTYPE_UINT_64);
    case DataType::kUFixed8: return quantized(OPRIG_DTYPE_UINT_8);
    case DataType::kUFixed16: return quantized(OPRIG_DTYPE_UINT_16);
    case DataType::kUFixed32: return quantized(OPRIG_DTYPE_UINT_32);
    case DataType::kSFixed8: return quantized(OPRIG_DTYPE_INT_8);
    case DataType::kSFixed16: return quantized(OPRIG_DTYPE_INT_16);
    case DataType::kSFixed32: return quantized(OPRIG_DTYPE_INT_32);
    case DataType::kBool8: return plain(OPRIG_DTYPE_BOOL_8);
    case DataType::kString: return plain(OPRIG_DTYPE_STRING);
    case DataType::kUFixed4:
    case DataType::kSFixed4:
      if (why) *why = std::string(data_type_name(type)) + ": 4-bit fixed point is not runnable (oprig has no sub-byte tensors)";
      return std::nullopt;
    case DataType::kBackendSpecific:
      if (why) *why = "BACKEND_SPECIFIC: must be resolved through a SupplementalOpDef for the backend";
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Rank> parse_rank(std::string_view text) {
  std::string u = upper(trim(text));
  for (const auto& [rank, name] : kRanks)
    if (name == u) return rank;
  return std::nullopt;
}

std::string_view rank_name(Rank rank) {
  for (const auto& [r, name] : kRanks)
    if (r == rank) return name;
  return "";
}

std::optional<Layout> parse_layout(std::string_view text) {
  std::string u = upper(trim(text));
  for (const auto& [layout, name] : kLayouts)
    if (name == u) return layout;
  return std::nullopt;
}

std::string_view layout_name(Layout layout) {
  for (const auto& [l, name] : kLayouts)
    if (l == layout) return name;
  return "";
}

std::optional<ConstraintType> parse_constraint_type(std::string_view text) {
  for (const auto& [type, name] : kConstraintTypes)
    if (iequals(name, trim(text))) return type;
  return std::nullopt;
}

std::string_view constraint_type_name(ConstraintType type) {
  for (const auto& [t, name] : kConstraintTypes)
    if (t == type) return name;
  return "Description";
}

std::string_view role_name(TensorRole role) {
  switch (role) {
    case TensorRole::kInput: return "input";
    case TensorRole::kOutput: return "output";
    case TensorRole::kParameter: return "parameter";
  }
  return "?";
}

std::optional<bool> parse_bool(std::string_view text) {
  text = trim(text);
  if (text == "1" || iequals(text, "true")) return true;
  if (text == "0" || iequals(text, "false")) return false;
  return std::nullopt;
}

DefaultValue parse_default(std::string_view raw, bool boolean_tensor) {
  DefaultValue value{std::string(raw), nlohmann::json(std::string(trim(raw)))};
  if (auto list = parse_list(raw, boolean_tensor)) {
    value.parsed = std::move(*list);
  } else if (auto scalar = parse_scalar(raw, boolean_tensor)) {
    value.parsed = std::move(*scalar);
  }
  return value;
}

std::string printable(std::string_view text, bool keep_newlines) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    bool c1 = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
              static_cast<unsigned char>(text[i + 1]) <= 0x9F;  // U+0080..U+009F in UTF-8
    bool layout = c == '\t' || (c == '\n' && keep_newlines);
    if ((c < 0x20 && !layout) || c == 0x7F || c1) {
      if (c1) c = static_cast<unsigned char>(text[++i]);
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

void append_unknown_field(UnknownFields& fields, std::string name, nlohmann::ordered_json value) {
  if (fields.is_null()) fields = nlohmann::ordered_json::object();
  fields.get_ref<nlohmann::ordered_json::object_t&>().emplace_back(std::move(name), std::move(value));
}

void order_unknown_fields(UnknownFields& fields) {
  if (!fields.is_object()) return;
  auto& entries = fields.get_ref<nlohmann::ordered_json::object_t&>();
  const auto is_attribute = [](const auto& entry) { return entry.first.starts_with("@"); };
  if (std::is_partitioned(entries.begin(), entries.end(), [&](const auto& e) { return !is_attribute(e); })) return;
  nlohmann::ordered_json::object_t ordered;
  ordered.reserve(entries.size());
  for (bool attributes : {false, true})
    for (auto& entry : entries)
      if (is_attribute(entry) == attributes) ordered.emplace_back(entry.first, std::move(entry.second));
  entries = std::move(ordered);
}

void derive_description_text(Description& description) {
  if (description.blocks.empty()) return;
  description.content.clear();
  description.code.clear();
  for (const DescriptionBlock& block : description.blocks) {
    std::string& into = block.is_code ? description.code : description.content;
    if (!into.empty()) into += "\n\n";
    into += block.text;
  }
}

const std::vector<TensorDef>& tensors_of(const OpDef& op, TensorRole role) {
  switch (role) {
    case TensorRole::kInput: return op.inputs;
    case TensorRole::kOutput: return op.outputs;
    case TensorRole::kParameter: break;
  }
  return op.parameters;
}

const std::vector<SupplementalTensor>& tensors_of(const SupplementalOpDef& op, TensorRole role) {
  switch (role) {
    case TensorRole::kInput: return op.inputs;
    case TensorRole::kOutput: return op.outputs;
    case TensorRole::kParameter: break;
  }
  return op.parameters;
}

}  // namespace oprig::spec
