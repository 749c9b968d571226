// fp64 reference of Atan: y = atan(x + offset), element by element, with the
// sum and the arctangent both in double (std::atan of glibc, correctly rounded
// to within an ulp of double, i.e. ~2^-29 fp32 ulp).
#include <cmath>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

void compute(const std::vector<RefTensor>& inputs, const RefParams& params,
             std::vector<RefTensor>& outputs) {
  const auto found = params.find("offset");
  const double offset = found == params.end() ? 0.0 : found->second;
  const RefTensor& x = inputs.at(0);
  RefTensor y;
  y.shape = x.shape;
  y.values.reserve(x.values.size());
  for (double v : x.values) y.values.push_back(std::atan(v + offset));
  outputs.assign(1, std::move(y));
}

}  // namespace

extern const ReferenceOp oprig_reference_Atan;
const ReferenceOp oprig_reference_Atan = {"Atan", compute, 18.0};

}  // namespace oprig::opsuite
