// fp64 reference of Activation: each mode through activation_fp64 (activation_fp64.hpp).
#include <string>

#include "activation/activation_fp64.hpp"
#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const std::string mode = params.text("mode");
  const RefTensor& x = inputs.at(0);
  RefTensor& y = outputs.at(0);
  y.shape = x.shape;
  y.values.reserve(x.values.size());
  for (double v : x.values) y.values.push_back(activation_fp64(mode, v));
}

}  // namespace

extern const ReferenceOp oprig_reference_Activation;
// About the work of GELU_TANH, the dearest mode: a cube, a polynomial, exp, a division.
const ReferenceOp oprig_reference_Activation = {"Activation", compute, 12.0};

}  // namespace oprig::opsuite
