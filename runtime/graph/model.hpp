// The in-memory form of an oprig model (runtime/graph/README.md documents the
// JSON it is read from): a main subgraph plus referenced subgraphs, as in
// NNAPI HAL 1.3 (seed 002), with package ops addressed through the vendor
// extension encoding of seed 004: type = (prefix << 16) | index, prefix 0 =
// built-in, other prefixes mapped one to one to reverse-domain package names.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "graph/builtin_ops.hpp"
#include "oprig/oprig_package.h"

namespace oprig {
class Package;
}

namespace oprig::graph {

inline constexpr uint32_t kExtensionPrefixShift = 16;
inline constexpr uint32_t kExtensionLowMask = 0xFFFFu;
constexpr uint32_t extension_prefix(uint32_t type) { return type >> kExtensionPrefixShift; }
constexpr uint32_t extension_index(uint32_t type) { return type & kExtensionLowMask; }
constexpr uint32_t extension_type(uint32_t prefix, uint32_t index) {
  return (prefix << kExtensionPrefixShift) | index;
}

enum class Lifetime { kTemporary, kSubgraphInput, kSubgraphOutput, kConstant, kSubgraph, kNoValue };
std::string_view lifetime_name(Lifetime lifetime);
std::optional<Lifetime> lifetime_from_name(std::string_view name);

// Where an error is. -1 = not applicable. The JSON line is 0 for models built
// in code.
struct Location {
  std::string file;
  int line = 0;
  int subgraph = -1;
  int operation = -1;
  int operand = -1;
  std::string text() const;  // "m.json:12: subgraph 1 operation 3 operand 5"
};

// Every load and validation error: the message starts with the location.
class ModelError : public std::runtime_error {
 public:
  ModelError(Location where, const std::string& reason);
  const Location& where() const { return where_; }
  const std::string& reason() const { return reason_; }

 private:
  Location where_;
  std::string reason_;
};

// A vendor extension operand type (seed 004) an operand is declared with:
// "<package>:<name>" in JSON, resolved through the model's extensions and the
// package's registration (oprig_operand_type_v1).
struct ExtensionOperandType {
  uint32_t prefix = 0;   // the model's prefix of the package
  uint32_t index = 0;    // the type's index in its package
  std::string package;   // reverse-domain name
  std::string name;      // e.g. "EXAMPLE_TENSOR_QUANT64_ASYMM"
  bool quantised = false;
  uint32_t encoded() const { return (prefix << 16) | index; }
  friend bool operator==(const ExtensionOperandType&, const ExtensionOperandType&) = default;
};

struct Operand {
  std::string name;                         // optional, for messages and dumps
  bool is_subgraph_reference = false;       // type "SUBGRAPH"
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;  // tensors and scalars; an extension type's storage dtype
  // NNAPI scalar operand (INT32, FLOAT32, FLOAT16, BOOL, UINT32, or a scalar
  // extension type): rank 0, one element, dims == []. Not a tensor.
  bool scalar = false;
  std::optional<ExtensionOperandType> extension;  // declared with a vendor extension operand type
  std::optional<std::vector<int64_t>> dims; // nullopt: unknown rank; 0 entries: unknown dimension
  float scale = 0;                          // != 0: quantised (integer dtypes)
  int32_t zero_point = 0;
  Lifetime lifetime = Lifetime::kTemporary;
  std::vector<std::byte> value;             // CONSTANT: element_count * dtype_size bytes, C order
  uint32_t subgraph = 0;                    // SUBGRAPH: the referenced subgraph
  int line = 0;

  bool fully_known_shape() const;  // rank known and no 0 dimension
};

struct Param {
  std::string name;
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  std::vector<std::byte> data;  // count = data.size() / dtype_size(dtype)
};

struct Operation {
  uint32_t type = 0;  // extension encoding
  std::vector<uint32_t> inputs, outputs;
  std::vector<Param> params;  // package ops only
  int line = 0;
  // Resolved at load:
  std::optional<BuiltinOp> builtin;  // prefix 0
  Package* package = nullptr;        // prefix != 0
  std::string package_op;            // the op's name in its package's registration
  std::string display_name() const;  // "ADD", "org.oprig.opsuite:Atan"
};

struct Subgraph {
  std::string name;
  std::vector<Operand> operands;
  std::vector<Operation> operations;
  std::vector<uint32_t> inputs, outputs;
  int line = 0;
};

struct Extension {
  uint32_t prefix = 0;
  std::string package;  // reverse-domain name
  Package* resolved = nullptr;
};

struct Model {
  std::filesystem::path path;  // empty for models built in code
  // NNAPI relaxComputationFloat32toFloat16 (of the main model; it applies to
  // every referenced subgraph): FLOAT_32 may be computed with the range and
  // precision of IEEE binary16. The host computes in full FLOAT_32 anyway;
  // conformance judges such outputs with NNAPI's relaxed tolerance.
  bool relax_float32_to_float16 = false;
  std::vector<Extension> extensions;
  std::vector<Subgraph> subgraphs;
  uint32_t main = 0;
  const Subgraph& main_subgraph() const { return subgraphs.at(main); }
};

// Maps a reverse-domain package name to a loaded package, or nullptr.
class PackageResolver {
 public:
  virtual ~PackageResolver() = default;
  virtual Package* find(std::string_view package_name) const = 0;
  // For "not loaded" messages: the names it knows.
  virtual std::vector<std::string> known() const = 0;
};

// Reads and validates a model file. Throws ModelError (with file:line and the
// subgraph/operation/operand index) for malformed JSON, schema errors and
// every semantic error of validate_model().
Model load_model(const std::filesystem::path& path, const PackageResolver& packages);
// The same from text; `base_dir` resolves .npy constant files.
Model parse_model(std::string_view json_text, const std::filesystem::path& source_name,
                  const std::filesystem::path& base_dir, const PackageResolver& packages);

// The model as oprig.model/1 JSON that parse_model reads back into the same
// model (line numbers aside): operation types as numbers, constants inline.
// Throws std::invalid_argument for what JSON numbers cannot hold (a
// non-finite float constant: such a constant needs a .npy file).
std::string write_model_json(const Model& model);

// Semantic checks (also run by load_model): operand indices in range,
// lifetimes, use before write, types of built-ins, IF/WHILE signatures, no
// subgraph reference cycles, extension prefixes and package ops. Resolves
// Operation::builtin / package / package_op. Throws ModelError.
void validate_model(Model& model, const PackageResolver& packages);

// The dtype a package sees for an operand: OPRIG_DTYPE_EXTENSION(index) for
// an operand of an extension operand type, the dtype otherwise.
uint32_t abi_dtype(const Operand& operand);

std::string dims_text(const std::optional<std::vector<int64_t>>& dims);  // "[2,?]", "[*]" for unknown rank
// "INT_32 [1]", "UINT_8 [4] q(0.5,128)", "INT32 scalar", "com.example.fibonacci:EXAMPLE_INT64 scalar"
std::string operand_type_text(const Operand& operand);

}  // namespace oprig::graph
