#include "graph/model.hpp"

#include <array>
#include <utility>

#include "core/dtype.hpp"
#include "package/loader.hpp"

namespace oprig::graph {
namespace {

constexpr std::array<std::pair<BuiltinOp, std::string_view>, 19> kBuiltins = {{
    {BuiltinOp::kAdd, "ADD"},
    {BuiltinOp::kConcatenation, "CONCATENATION"},
    {BuiltinOp::kFullyConnected, "FULLY_CONNECTED"},
    {BuiltinOp::kMul, "MUL"},
    {BuiltinOp::kDiv, "DIV"},
    {BuiltinOp::kSub, "SUB"},
    {BuiltinOp::kCast, "CAST"},
    {BuiltinOp::kEqual, "EQUAL"},
    {BuiltinOp::kGreater, "GREATER"},
    {BuiltinOp::kGreaterEqual, "GREATER_EQUAL"},
    {BuiltinOp::kLess, "LESS"},
    {BuiltinOp::kLessEqual, "LESS_EQUAL"},
    {BuiltinOp::kLogicalAnd, "LOGICAL_AND"},
    {BuiltinOp::kLogicalNot, "LOGICAL_NOT"},
    {BuiltinOp::kLogicalOr, "LOGICAL_OR"},
    {BuiltinOp::kNotEqual, "NOT_EQUAL"},
    {BuiltinOp::kSlice, "SLICE"},
    {BuiltinOp::kIf, "IF"},
    {BuiltinOp::kWhile, "WHILE"},
}};

constexpr std::array<std::pair<Lifetime, std::string_view>, 6> kLifetimes = {{
    {Lifetime::kTemporary, "TEMPORARY"},
    {Lifetime::kSubgraphInput, "SUBGRAPH_INPUT"},
    {Lifetime::kSubgraphOutput, "SUBGRAPH_OUTPUT"},
    {Lifetime::kConstant, "CONSTANT"},
    {Lifetime::kSubgraph, "SUBGRAPH"},
    {Lifetime::kNoValue, "NO_VALUE"},
}};

}  // namespace

std::optional<BuiltinOp> builtin_from_code(uint32_t code) {
  for (const auto& [op, name] : kBuiltins)
    if (static_cast<uint32_t>(op) == code) return op;
  return std::nullopt;
}

std::optional<BuiltinOp> builtin_from_name(std::string_view name) {
  for (const auto& [op, n] : kBuiltins)
    if (n == name) return op;
  return std::nullopt;
}

std::string_view builtin_name(BuiltinOp op) {
  for (const auto& [o, name] : kBuiltins)
    if (o == op) return name;
  return "?";
}

bool is_control_flow(BuiltinOp op) { return op == BuiltinOp::kIf || op == BuiltinOp::kWhile; }

std::string_view lifetime_name(Lifetime lifetime) {
  for (const auto& [l, name] : kLifetimes)
    if (l == lifetime) return name;
  return "?";
}

std::optional<Lifetime> lifetime_from_name(std::string_view name) {
  for (const auto& [l, n] : kLifetimes)
    if (n == name) return l;
  return std::nullopt;
}

std::string Location::text() const {
  std::string parts;
  auto add = [&](const char* what, int index) {
    if (index < 0) return;
    if (!parts.empty()) parts += " ";
    parts += what + std::to_string(index);
  };
  add("subgraph ", subgraph);
  add("operation ", operation);
  add("operand ", operand);
  if (file.empty()) return parts;
  const std::string head = line > 0 ? file + ":" + std::to_string(line) : file;
  return parts.empty() ? head : head + ": " + parts;
}

ModelError::ModelError(Location where, const std::string& reason)
    : std::runtime_error(where.text().empty() ? reason : where.text() + ": " + reason),
      where_(std::move(where)),
      reason_(reason) {}

bool Operand::fully_known_shape() const {
  if (!dims) return false;
  for (int64_t d : *dims)
    if (d == 0) return false;
  return true;
}

std::string Operation::display_name() const {
  if (builtin) return std::string(builtin_name(*builtin));
  if (package) return package->name() + ":" + package_op;
  return "type " + std::to_string(type);
}

std::string dims_text(const std::optional<std::vector<int64_t>>& dims) {
  if (!dims) return "[*]";
  std::string out = "[";
  for (size_t i = 0; i < dims->size(); ++i) {
    if (i) out += ",";
    out += (*dims)[i] == 0 ? "?" : std::to_string((*dims)[i]);
  }
  return out + "]";
}

uint32_t abi_dtype(const Operand& operand) {
  return operand.extension ? OPRIG_DTYPE_EXTENSION(operand.extension->index) : static_cast<uint32_t>(operand.dtype);
}

std::string operand_type_text(const Operand& operand) {
  if (operand.is_subgraph_reference) return "SUBGRAPH";
  const std::string type = operand.extension ? operand.extension->package + ":" + operand.extension->name
                                             : std::string(dtype_name(operand.dtype));
  std::string out = type + " " + (operand.scalar ? std::string("scalar") : dims_text(operand.dims));
  if (operand.scale != 0)
    out += " q(" + std::to_string(operand.scale) + "," + std::to_string(operand.zero_point) + ")";
  return out;
}

}  // namespace oprig::graph
