// fp64 reference of ElementwiseBinary: NumPy broadcasting, then one operation
// per element in double. Float results are the exact operation rounded once
// to double (well inside an fp32 ulp); INT_32 follows the spec's integer rules
// (wrap-around, truncating or floor division, truncated negative powers). The fused
// activation clamps the double result (NaN and -0 pass unchanged).
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "common/reference.hpp"

namespace oprig::opsuite {
namespace {

double wrap_int32(int64_t v) { return static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(v))); }

double int_pow(int64_t base, int64_t exponent) {
  if (exponent < 0) {  // the truncated quotient 1 / base^-exponent
    if (base == 1) return 1;
    if (base == -1) return (-exponent) % 2 == 0 ? 1 : -1;
    if (base == 0) throw std::invalid_argument("INT_32 POW: 0 to a negative power is undefined");
    return 0;
  }
  uint32_t result = 1;  // wraps like the kernel's int32 multiplications
  for (int64_t i = 0; i < exponent; ++i) result *= static_cast<uint32_t>(static_cast<int32_t>(base));
  return static_cast<int32_t>(result);
}

double apply(const std::string& op, double a, double b, bool integer, bool floor_division) {
  if (integer) {
    const auto x = static_cast<int64_t>(a), y = static_cast<int64_t>(b);
    if (op == "ADD") return wrap_int32(x + y);
    if (op == "SUB") return wrap_int32(x - y);
    if (op == "MUL") return wrap_int32(x * y);
    if (op == "DIV") {
      if (y == 0) throw std::invalid_argument("INT_32 DIV by 0 is undefined");
      const int64_t q = x / y;  // C++ division truncates toward zero
      return wrap_int32(floor_division && q * y != x && ((x < 0) != (y < 0)) ? q - 1 : q);
    }
    if (op == "MAX") return static_cast<double>(std::max(x, y));
    if (op == "MIN") return static_cast<double>(std::min(x, y));
    if (op == "POW") return int_pow(x, y);
  } else {
    if (op == "ADD") return a + b;
    if (op == "SUB") return a - b;
    if (op == "MUL") return a * b;
    if (op == "DIV") return a / b;
    // NaN propagates, as NumPy's maximum/minimum and ONNX Max/Min.
    if (op == "MAX") return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN() : std::max(a, b);
    if (op == "MIN") return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN() : std::min(a, b);
    if (op == "POW") return std::pow(a, b);
  }
  throw std::invalid_argument("unknown operation '" + op + "'");
}

// min(max(r, lo), hi) with max(r, lo) = r unless r < lo, min likewise.
double activate(const std::string& activation, double r) {
  auto clamp = [r](double lo, double hi) {
    const double low = r < lo ? lo : r;
    return hi < low ? hi : low;
  };
  if (activation == "NONE") return r;
  if (activation == "RELU") return clamp(0.0, std::numeric_limits<double>::infinity());
  if (activation == "RELU1") return clamp(-1.0, 1.0);
  if (activation == "RELU6") return clamp(0.0, 6.0);
  throw std::invalid_argument("unknown fused_activation '" + activation + "'");
}

void compute(const std::vector<RefTensor>& inputs, const RefParams& params, std::vector<RefTensor>& outputs) {
  const RefTensor& a = inputs.at(0);
  const RefTensor& b = inputs.at(1);
  const std::string op = params.text("operation");
  const std::string activation = params.text_or("fused_activation", "NONE");
  const bool floor_division = params.text_or("integer_division", "TRUNCATE") == "FLOOR";
  RefTensor& out = outputs.at(0);
  const bool integer = out.dtype == OPRIG_DTYPE_INT_32;
  out.shape = broadcast_shapes(a.shape, b.shape);
  const size_t n = element_count(out.shape);
  out.values.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const std::vector<int64_t> coords = unravel(i, out.shape);
    out.values[i] = activate(activation, apply(op, a.values[broadcast_index(coords, a.shape)],
                                               b.values[broadcast_index(coords, b.shape)], integer,
                                               floor_division));
  }
}

}  // namespace

extern const ReferenceOp oprig_reference_ElementwiseBinary;
const ReferenceOp oprig_reference_ElementwiseBinary = {"ElementwiseBinary", compute, 1.0};

}  // namespace oprig::opsuite
