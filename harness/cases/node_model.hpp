// What the spec says about the shapes of an op's tensors, as a model oprig
// can assign sizes to: each tensor's dimensions from its Shape text
// ("[batch, height, width, channel_in]", "[..., k]", "[kernel_height,
// kernel_width, channel_in / group, channel_out]"), names shared between
// tensors meaning equal sizes, names of parameters tying a size to a
// parameter, "..." any number of leading dimensions (shared by every tensor
// that has one). A tensor without a readable text has anonymous dimensions
// (input 0: one per its Rank, or "..." for ND) or, for the other inputs, a
// template the derivation finds by asking the op's judge (derive_nodes).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/case.hpp"
#include "spec/expression.hpp"

namespace oprig::harness {

// One dimension of a tensor's model.
struct DimTerm {
  bool ellipsis = false;  // "...": the shared leading dimensions "#e0", "#e1", ...
  spec::Expr expr;        // a name (kName) or an expression of names and numbers
  bool constant = false;  // a plain number
};

struct TensorModel {
  bool known = false;     // from the spec's text (or synthesised for input 0)
  std::vector<DimTerm> dims;
  int required_rank = -1;  // from Rank: 0..5; -1 any (ND, none)
  bool has_ellipsis() const;
};

// How the derivation thinks of a size by its name: what bugs live there.
enum class DimRole { kBatch, kChannel, kKernel, kSpatial, kOther };
DimRole role_of(const std::string& name);
const char* role_name(DimRole role);

// Sizes and parameters of one candidate node.
struct Assignment {
  std::map<std::string, int64_t> dims;  // by name; "#eK" the K-th leading dimension, "#K" input 0's anonymous ones
  size_t lead = 0;                      // how many leading dimensions "..." stands for
  nlohmann::json params = nlohmann::json::object();  // passed explicitly
  std::set<size_t> absent;              // optional inputs left out
  bool operator<(const Assignment& o) const;
};

struct OpModel {
  std::vector<TensorModel> inputs, outputs;
  std::set<std::string> param_names;
  std::vector<std::string> free_names;  // sizes to assign, in first-appearance order (input 0's first)
  std::map<std::string, std::string> aliases;  // name -> the name it equals (found by the judge)
  // Templates of inputs without a text: per input, one term per dimension:
  // a name, or a constant. Empty: the same shape as input 0.
  std::map<size_t, std::vector<DimTerm>> templates;

  // The shape of input `k` under `a`; nullopt when a size is not a whole
  // number >= 0 (a division that does not come out even) or unknown.
  std::optional<std::vector<int64_t>> input_shape(size_t k, const Assignment& a, const OpCaseSpace& space) const;
  // Every input's shape, absent ones nullopt; nullopt when one cannot be made.
  std::optional<std::vector<std::optional<std::vector<int64_t>>>> shapes(const Assignment& a,
                                                                         const OpCaseSpace& space) const;
  // The names input 0's dimensions have under `a`, in order ("#e0", "batch", ...).
  std::vector<std::string> input0_dim_names(const Assignment& a) const;
  // Names the outputs' texts use; empty when no output has a readable text.
  std::set<std::string> output_names() const;
  int64_t value(const std::string& name, const Assignment& a) const;
};

// Reads the spec's texts into a model (names, templates empty).
OpModel build_model(const OpCaseSpace& space);

// Names, parameters and the rank of input 0 for evaluating spec expressions
// under an assignment (defaults where the node does not pass a parameter).
spec::Scope scope_for(const OpModel& model, const Assignment& a, const OpCaseSpace& space,
                      const std::vector<std::optional<std::vector<int64_t>>>* shapes);

// The value a parameter has in a node: passed, else the spec's Default; null when neither.
nlohmann::json param_value(const ParamSlot& p, const Assignment& a);

}  // namespace oprig::harness
