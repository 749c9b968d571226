// What "right" is for a case: the oracle that produces its expected outputs.
//   golden     the stored outputs of a golden folder (--golden, user-made or imported)
//   reference  oprig's own fp64 reference (the bundled ops)
//   package    the package's host reference (oprig_reference_v1), for an op oprig has never seen
//   backend    the package's own kernel on another backend (--reference-backend cpu)
// Chosen per case in that order of preference, except that --reference-backend
// takes precedence over both references for cases of the other backends.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "cases/case.hpp"
#include "common/reference.hpp"
#include "oprig/verdict.hpp"

namespace oprig::harness {

struct OpContext;
struct BackendContext;
struct TensorData;

// One expected output (integer and quantised outputs as codes), with its shape.
struct Expected {
  std::vector<int64_t> shape;
  std::vector<double> values;
};

enum class OracleKind { kNone, kGolden, kReference, kPackage, kBackend };

OracleKind oracle_for(const Case& c, const OpContext& op);
// "golden (DIR)", "oprig fp64 reference" (the bundled package's ops; "... of its own Softmax
// (--bundled-reference)" for another package's op on request), "package reference (fp64) of
// com.acme.ops", "backend cpu", "none".
std::string oracle_name(const Case& c, const OpContext& op);

// The oracle could not judge the case: the case gets `verdict` with the message.
class OracleError : public std::runtime_error {
 public:
  OracleError(Verdict verdict, const std::string& message) : std::runtime_error(message), verdict_(verdict) {}
  Verdict verdict() const { return verdict_; }

 private:
  Verdict verdict_;
};

// The expected outputs of a case from its oracle. `be` is needed for the
// backend oracle only. Throws OracleError.
std::vector<Expected> expected_outputs(const Case& c, const OpContext& op, const BackendContext* be,
                                       const std::vector<TensorData>& inputs);
// From oprig's fp64 reference only (golden generation, reference checks).
// Throws std::runtime_error.
std::vector<Expected> reference_outputs(const Case& c, const OpContext& op, const std::vector<TensorData>& inputs);

// A case's tensors as a reference (opsuite/common/reference.hpp) takes them:
// the inputs with their real values, or their stored codes for an integer
// reference (`codes`), and one slot per output with its type and
// quantisation (codes expected back when `codes`).
struct ReferenceTensors {
  std::vector<opsuite::RefTensor> inputs, outputs;
};
ReferenceTensors reference_tensors(const Case& c, const std::vector<TensorData>& inputs, bool codes);

}  // namespace oprig::harness
