#include "builtin_kernel_fixture.hpp"

#include <bit>
#include <cmath>

#include "core/half.hpp"

namespace oprig::graph::device_test {
namespace {

std::string dims_json(const std::vector<int64_t>& d) {
  std::string t = "[";
  for (size_t i = 0; i < d.size(); ++i) t += (i ? "," : "") + std::to_string(d[i]);
  return t + "]";
}

std::string quantisation(float scale, int32_t zero_point) {
  if (scale == 0) return "";
  char text[64];
  std::snprintf(text, sizeof text, R"(, "scale": %.9g, "zero_point": %d)", static_cast<double>(scale), zero_point);
  return text;
}

std::string type_text(oprig_dtype t) { return std::string(dtype_name(t)); }

bool half_is_nan(uint16_t h) { return (h & 0x7fffu) > 0x7c00u; }

}  // namespace

std::string input_operand(oprig_dtype type, const std::vector<int64_t>& dims, float scale, int32_t zero_point) {
  return R"({"type": ")" + type_text(type) + R"(", "dims": )" + dims_json(dims) + quantisation(scale, zero_point) +
         R"(, "lifetime": "SUBGRAPH_INPUT"})";
}

std::string output_operand(oprig_dtype type, float scale, int32_t zero_point) {
  return R"({"type": ")" + type_text(type) + R"(")" + quantisation(scale, zero_point) +
         R"(, "lifetime": "SUBGRAPH_OUTPUT"})";
}

std::string int32_scalar(int32_t value) {
  return R"({"type": "INT32", "lifetime": "CONSTANT", "value": )" + std::to_string(value) + "}";
}

std::string int32_scalar_input() { return R"({"type": "INT32", "lifetime": "SUBGRAPH_INPUT"})"; }

std::string int32_constant(const std::vector<int32_t>& values) {
  std::string v = "[";
  for (size_t i = 0; i < values.size(); ++i) v += (i ? "," : "") + std::to_string(values[i]);
  return R"({"type": "TENSOR_INT32", "dims": [)" + std::to_string(values.size()) +
         R"(], "lifetime": "CONSTANT", "value": )" + v + "]}";
}

std::string single_op(const std::string& op, const std::vector<std::string>& operands) {
  std::string list, op_inputs, model_inputs;
  for (size_t i = 0; i < operands.size(); ++i) {
    list += (i ? ", " : "") + operands[i];
    if (i + 1 < operands.size()) op_inputs += (i ? ", " : "") + std::to_string(i);
    if (operands[i].find("SUBGRAPH_INPUT") != std::string::npos)
      model_inputs += (model_inputs.empty() ? "" : ", ") + std::to_string(i);
  }
  const std::string y = std::to_string(operands.size() - 1);
  return R"({"format": "oprig.model/1", "subgraphs": [{"operands": [)" + list + R"(], "operations": [{"type": ")" + op +
         R"(", "inputs": [)" + op_inputs + R"(], "outputs": [)" + y + R"(]}], "inputs": [)" + model_inputs +
         R"(], "outputs": [)" + y + "]}]}";
}

std::string one_op(const std::string& op, oprig_dtype in, oprig_dtype out, const std::vector<int64_t>& a_dims,
                   const std::vector<int64_t>* b_dims) {
  std::vector<std::string> operands = {input_operand(in, a_dims)};
  if (b_dims) operands.push_back(input_operand(in, *b_dims));
  operands.push_back(output_operand(out));
  return single_op(op, operands);
}

uint16_t half(float v) { return float_to_half(v); }
float from_half(uint16_t h) { return half_to_float(h); }

void BuiltinKernels::SetUp() {
  target_ = backend_or_null(GetParam());
  if (target_ == nullptr) GTEST_SKIP() << GetParam() << " is not available here";
}

HostTensor BuiltinKernels::run(const std::string& model_json, const std::vector<HostTensor>& inputs, bool device_can) {
  const Model m = parse(model_json);
  const PreparedModel on_device = prepare_on(*target_, m);
  const PreparedModel on_cpu = prepare_on_cpu(m);
  const std::string& placed = on_device.placements().at(0).backend;
  if (device_can) {
    EXPECT_EQ(placed, GetParam()) << (on_device.placement_notes().empty() ? "" : on_device.placement_notes()[0]);
  } else {
    EXPECT_EQ(placed, "cpu");
  }
  const ExecutionResult got = on_device.execute(inputs);
  const ExecutionResult want = on_cpu.execute(inputs);
  EXPECT_EQ(got.status, ExecutionStatus::kOk) << got.message;
  EXPECT_EQ(want.status, ExecutionStatus::kOk) << want.message;
  if (got.outputs.empty() || want.outputs.empty()) return {};
  const HostTensor& g = got.outputs[0];
  const HostTensor& w = want.outputs[0];
  EXPECT_EQ(g.shape, w.shape);
  EXPECT_EQ(g.dtype, w.dtype);
  if (g.data.size() != w.data.size()) {
    ADD_FAILURE() << "sizes differ";
    return g;
  }
  if (g.dtype == OPRIG_DTYPE_FLOAT_32) {
    const std::vector<float> gv = values<float>(g), wv = values<float>(w);
    for (size_t i = 0; i < gv.size(); ++i) {
      if (std::isnan(gv[i]) && std::isnan(wv[i])) continue;
      EXPECT_EQ(std::bit_cast<uint32_t>(gv[i]), std::bit_cast<uint32_t>(wv[i]))
          << "element " << i << ": " << gv[i] << " on " << GetParam() << ", " << wv[i] << " on cpu";
    }
  } else if (g.dtype == OPRIG_DTYPE_FLOAT_16) {
    const std::vector<uint16_t> gv = values<uint16_t>(g), wv = values<uint16_t>(w);
    for (size_t i = 0; i < gv.size(); ++i) {
      if (half_is_nan(gv[i]) && half_is_nan(wv[i])) continue;
      EXPECT_EQ(gv[i], wv[i]) << "element " << i << ": " << from_half(gv[i]) << " on " << GetParam() << ", "
                              << from_half(wv[i]) << " on cpu";
    }
  } else {
    for (size_t i = 0; i < g.data.size(); ++i)
      EXPECT_EQ(static_cast<int>(g.data[i]), static_cast<int>(w.data[i])) << "byte " << i;
  }
  return g;
}

}  // namespace oprig::graph::device_test
