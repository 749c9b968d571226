// A case: one op × backend × data type × shape × fill × parameter variant.
// Ids are [a-z0-9_] with fields joined by "__", so they work unquoted as
// gtest names, directory names and shell arguments:
//   golden id  f32__1x3x5x7__uniform__p1          (no op, no backend)
//   run id     atan__f32__1x3x5x7__uniform__p1__cpu
// The seed derives from the op and the golden id only, so every backend sees
// the same inputs and `oprig run --case ID` reproduces a case bit for bit.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cases/plan.hpp"
#include "oprig/oprig_package.h"

namespace oprig::harness {

struct Case {
  std::string op;       // OpDef name, "Atan"
  std::string package;  // package name of the spec
  std::string backend;  // "cpu", ...
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  bool quantized = false;
  std::vector<int64_t> shape;
  std::string fill;     // a fill of the plan, or a golden literal's name
  std::string variant;  // "p0": spec defaults; "p1".."pN": random params; "lit": literal
  std::map<std::string, double> params;
  std::vector<Quantization> input_quant, output_quant;
  int literal = -1;     // index into TestPlan::golden_literals, or -1
  uint64_t seed = 0;
  std::string golden_id;
  std::string id;

  size_t element_count() const;
};

// The data types an op may take on one backend, from the spec.
struct TypeChoice {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  bool quantized = false;
};

struct OpCaseSpace {
  std::string op;
  std::string package;
  std::map<std::string, std::vector<TypeChoice>> types_by_backend;  // backends the spec allows
  std::map<std::string, double> param_defaults;  // scalar params with a numeric default
};

std::string shape_text(const std::vector<int64_t>& shape);  // "1x3x5x7", "0", "scalar"
std::string op_key(const std::string& op);                   // "Atan" -> "atan"
uint64_t seed_of(const std::string& op, const std::string& golden_id);  // FNV-1a 64

// Every case of one op on the given backends, in a stable order.
std::vector<Case> generate_cases(const OpCaseSpace& space, const TestPlan& plan,
                                 const std::vector<std::string>& backends);

// Golden cases (backend-independent): the plan's literals plus every generated
// case of at most plan.golden_max_elements elements, once per golden id.
std::vector<Case> golden_cases(const OpCaseSpace& space, const TestPlan& plan);

const Fill* find_fill(const TestPlan& plan, const Case& c);

}  // namespace oprig::harness
