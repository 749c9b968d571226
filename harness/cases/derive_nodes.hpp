// The test nodes oprig derives from a spec alone: valid by construction,
// every parameter's domain swept, and the shapes where kernels break.
//
// A candidate node is sizes for the spec's named dimensions (node_model.hpp)
// plus parameter values. A candidate is kept only when (1) every relation
// of the spec's constraint texts that can be evaluated holds, and (2) the
// op's judge accepts it: the package's reference shapes() and validate hook,
// or oprig's bundled reference for the bundled package's ops (NodeJudge;
// without a judge, the constraints alone decide). So a derived node is a
// node the package itself calls valid; the kernel under test never decides.
//
// What is derived, on top of a base node (the spec's defaults, sizes chosen
// by what a name says: batch 2, channels 6 and 4, kernel 3 x 2, spatial 7 x 9,
// other sizes 3, 5, 7, all different so that a wrong axis shows):
//  - every parameter's domain: every Enumeration value, both booleans, every
//    integer the judge accepts in a window around the constraint bounds
//    (negative axes, k from 1 to the axis size, groups that divide, which
//    make the channels a multiple of the group), both ends of a float
//    range, per element of an integer tensor parameter (stride, dilation >
//    1, asymmetric pads);
//  - sizes: every rank of an ND input (1..5, with the axis swept on each),
//    tails around vector widths on the axis, the last dimension and the
//    channels (1..7 mod 8, 12, 22, lengths > 256 and > 1024), one-element
//    and empty dimensions, all ones, one node above the threaded-path
//    threshold (2^18 elements), optional inputs present and left out;
//  - random nodes beyond the defaults (every parameter and size drawn);
//  - two companions of the base node (other sizes, the same parameters) for
//    the lifecycle passes.
// A candidate the judge rejects is repaired where it can be (sizes grown
// for a dilated kernel, channels made a multiple of a group, a k above the
// axis size lowered); the derivation records how many were rejected, with
// examples, in the plan it writes.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/case.hpp"

namespace oprig::harness {

struct Node {
  std::vector<std::optional<std::vector<int64_t>>> inputs;  // one per input def; nullopt: left out
  nlohmann::json params = nlohmann::json::object();          // passed explicitly, by spec name
};

struct NodeAnswer {
  bool valid = false;
  std::string reason;                         // why not, when invalid
  std::vector<std::vector<int64_t>> outputs;  // output shapes, where the judge gives them
};

// Says which nodes are valid: the package's reference and validate hook,
// or oprig's reference of a bundled op.
class NodeJudge {
 public:
  virtual ~NodeJudge() = default;
  virtual std::string name() const = 0;
  virtual NodeAnswer judge(const Node& node) = 0;
  // The outputs with every input element `value`; nullopt when it cannot compute.
  virtual std::optional<std::vector<std::vector<double>>> compute_constant(const Node&, double) { return std::nullopt; }
};

struct DerivedNode {
  std::string name;     // the shape entry's name: the case id's shape field
  std::string purpose;  // what it is for, in words
  Node node;
  double reduction_length = 1;
  std::set<std::string> fills;  // of the derived fills: uniform, small_int, huge, specials, ties
  bool lifecycle = false;       // the base node or one of its companions
};

struct Derivation {
  std::vector<DerivedNode> nodes;
  std::string judge;  // who said which nodes are valid; "" when nobody could
  size_t tried = 0, rejected = 0;
  std::vector<std::string> rejections;  // a few examples: "group 5: <reason>"
  std::vector<std::string> notes;       // what could not be derived, and why
  std::set<std::string> signed_zero_outputs;
  nlohmann::json order_insensitive = nlohmann::json::array();  // plan.json's form
  bool selection = false;  // an output of plain integers (indices): ties matter
  bool derived_from_texts = false;  // shapes came from the spec's texts, not only Ranks
};

// nullopt when no valid base node was found (the caller falls back to
// shapes from the Ranks alone and says so).
std::optional<Derivation> derive_nodes(const OpCaseSpace& space, NodeJudge* judge);

}  // namespace oprig::harness
