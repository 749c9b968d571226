#include "common/reference.hpp"

namespace oprig::opsuite {

#define OPRIG_KERNEL(...)
#define OPRIG_OP(op, ...) extern const ReferenceOp oprig_reference_##op;
#include "opsuite_ops.inc"
#undef OPRIG_OP

namespace {
#define OPRIG_OP(op, ...) &oprig_reference_##op,
const ReferenceOp* const kReferences[] = {
#include "opsuite_ops.inc"
};
#undef OPRIG_OP
#undef OPRIG_KERNEL
}  // namespace

const ReferenceOp* find_reference(std::string_view op_name) {
  for (const ReferenceOp* ref : kReferences)
    if (op_name == ref->op_name) return ref;
  return nullptr;
}

}  // namespace oprig::opsuite
