#include "graph/kernel_support.hpp"

namespace oprig::graph::kernels {

std::string shape_text(const Shape& s) {
  std::string t = "[";
  for (uint32_t i = 0; i < s.rank; ++i) t += (i ? "," : "") + std::to_string(s.dims[i]);
  return t + "]";
}

const Value* missing_input(Exec& x, Frame& f, const Step& s, size_t j) {
  step_error(x, f, s, "input " + std::to_string(j) + " (operand " + std::to_string(s.op->inputs[j]) + ") has no value");
  return nullptr;
}

bool broadcast_general(const Shape& a, const Shape& b, Shape* out) {
  const uint32_t rank = std::max(a.rank, b.rank);
  out->rank = rank;
  for (uint32_t k = 0; k < rank; ++k) {
    const int64_t da = k < a.rank ? a.dims[a.rank - 1 - k] : 1;
    const int64_t db = k < b.rank ? b.dims[b.rank - 1 - k] : 1;
    if (da != db && da != 1 && db != 1) return false;
    out->dims[rank - 1 - k] = da == 1 ? db : da;
  }
  return true;
}

bool read_activation_operand(Exec& x, Frame& f, const Step& s, size_t j, bool int32_tensor, FuseCode* act) {
  const Value* v = input(x, f, s, j);
  if (v == nullptr) return false;
  int32_t code;
  std::memcpy(&code, v->data, sizeof code);
  if (!is_fuse_code(code)) {
    step_error(x, f, s, "fused activation " + std::to_string(code) + " is not a FuseCode (0..3)");
    return false;
  }
  if (int32_tensor && code != 0) {
    step_error(x, f, s, "TENSOR_INT32 takes only the fused activation NONE (0), got " + std::to_string(code));
    return false;
  }
  *act = static_cast<FuseCode>(code);
  return true;
}

}  // namespace oprig::graph::kernels
