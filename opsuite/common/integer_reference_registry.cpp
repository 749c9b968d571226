// The ops with an integer reference (common/integer_reference.hpp), listed by
// hand: few ops have one, and each is declared where it is defined.
#include "common/integer_reference.hpp"

namespace oprig::opsuite {

extern const IntegerReferenceOp oprig_integer_reference_MatMul;
extern const IntegerReferenceOp oprig_integer_reference_Conv2D;
extern const IntegerReferenceOp oprig_integer_reference_DepthwiseConv2D;

namespace {
const IntegerReferenceOp* const kIntegerReferences[] = {
    &oprig_integer_reference_MatMul,
    &oprig_integer_reference_Conv2D,
    &oprig_integer_reference_DepthwiseConv2D,
};
}  // namespace

const IntegerReferenceOp* find_integer_reference(std::string_view op_name) {
  for (const IntegerReferenceOp* ref : kIntegerReferences)
    if (op_name == ref->op_name) return ref;
  return nullptr;
}

}  // namespace oprig::opsuite
