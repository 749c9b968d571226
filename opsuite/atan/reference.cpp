// fp64 reference of Atan: y = atan(x + offset), element by element, with the
// sum and the arctangent both in double (std::atan of glibc, correctly rounded
// to within an ulp of double, i.e. ~2^-29 fp32 ulp).
#include <cmath>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const double offset = params.number_or("offset", 0.0);
  const RefTensor& x = inputs.at(0);
  RefTensor& y = outputs.at(0);
  y.shape = x.shape;
  y.values.reserve(x.values.size());
  for (double v : x.values) y.values.push_back(std::atan(v + offset));
}

}  // namespace

extern const ReferenceOp oprig_reference_Atan;
const ReferenceOp oprig_reference_Atan = {"Atan", compute, 18.0};

}  // namespace oprig::opsuite
