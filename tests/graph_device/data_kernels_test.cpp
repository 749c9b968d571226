// FULLY_CONNECTED (org.oprig.builtins:FullyConnected), SLICE
// (org.oprig.builtins:Slice) and CONCATENATION (org.oprig.opsuite:Concat) on
// the devices: hand-derived values (fp32 accumulation in input order without
// fma, FLOAT_16 rounded once, quantised sums requantised with multipliers
// below and above 1, the slice box with size -1, the copy along an axis),
// SLICE's errors where the host refuses its begin and size, a begin computed
// on the device, an input of unknown rank, a requantising CONCATENATION
// kept on the host, and every case against the host kernels. Of these the
// dsp runs SLICE of its integer types (a byte copy), the quantised
// FULLY_CONNECTED (MatMul's vrmpy product) and a UINT_8
// CONCATENATION (Concat's dsp kernel, UINT_8 as its spec declares); its
// other cases check the fallback.
#include <cmath>
#include <limits>

#include "builtin_kernel_fixture.hpp"

namespace oprig::graph::device_test {
namespace {

constexpr oprig_dtype kF32 = OPRIG_DTYPE_FLOAT_32;
constexpr oprig_dtype kF16 = OPRIG_DTYPE_FLOAT_16;
constexpr oprig_dtype kI32 = OPRIG_DTYPE_INT_32;
constexpr oprig_dtype kQA8 = OPRIG_DTYPE_UINT_8;
constexpr oprig_dtype kQAS8 = OPRIG_DTYPE_INT_8;

bool gpu(const std::string& backend) { return backend != "dsp"; }

struct Quant {
  float scale = 0;
  int32_t zero_point = 0;
};

// y = FULLY_CONNECTED(x, w, b, act) with everything from the caller.
std::string fc(oprig_dtype type, const std::vector<int64_t>& x, const std::vector<int64_t>& w, int32_t act,
               Quant qx = {}, Quant qw = {}, Quant qy = {}) {
  const bool quantised = qx.scale != 0;
  return single_op("FULLY_CONNECTED",
                   {input_operand(type, x, qx.scale, qx.zero_point), input_operand(type, w, qw.scale, qw.zero_point),
                    quantised ? input_operand(kI32, {w[0]}, qx.scale * qw.scale, 0) : input_operand(type, {w[0]}),
                    int32_scalar(act), output_operand(type, qy.scale, qy.zero_point)});
}

std::string slice(oprig_dtype type, const std::vector<int64_t>& x, Quant q = {}) {
  const std::vector<int64_t> rank = {static_cast<int64_t>(x.size())};
  return single_op("SLICE", {input_operand(type, x, q.scale, q.zero_point), input_operand(kI32, rank),
                             input_operand(kI32, rank), output_operand(type, q.scale, q.zero_point)});
}

std::string concat(oprig_dtype type, const std::vector<int64_t>& a, const std::vector<int64_t>& b, int32_t axis,
                   Quant qa = {}, Quant qb = {}, Quant qy = {}) {
  return single_op("CONCATENATION", {input_operand(type, a, qa.scale, qa.zero_point),
                                     input_operand(type, b, qb.scale, qb.zero_point), int32_scalar(axis),
                                     output_operand(type, qy.scale, qy.zero_point)});
}

TEST_P(BuiltinKernels, FullyConnectedAccumulatesInOrderWithoutFma) {
  // [[1, 2, 3], [4, 5, 6]] x [[1, 0, -1], [0.5, 0.5, 0.5]]' + [10, -1] = [[8, 2], [8, 6.5]]; RELU6.
  const HostTensor y = run(fc(kF32, {2, 3}, {2, 3}, 3),
                           {tensor<float>(kF32, {2, 3}, {1, 2, 3, 4, 5, 6}),
                            tensor<float>(kF32, {2, 3}, {1, 0, -1, 0.5f, 0.5f, 0.5f}), tensor<float>(kF32, {2}, {10, -1})},
                           gpu(GetParam()));
  EXPECT_EQ(values<float>(y), (std::vector<float>{6, 2, 6, 6}));
  // In order: 1e8 + 1 rounds back to 1e8, then - 1e8 gives 0 (exactly: 1).
  // Without fma: (-1 - 2^-11) + round((1 + 2^-12)^2) = (-1 - 2^-11) + (1 + 2^-11)
  // = 0 (the product's 2^-24 is a tie to even); an fma would keep 2^-24.
  const float e12 = 1.0f + 0x1p-12f, e11 = 1.0f + 0x1p-11f;
  const HostTensor order = run(fc(kF32, {2, 3}, {1, 3}, 0),
                               {tensor<float>(kF32, {2, 3}, {1e8f, 1, -1e8f, -e11, e12, 0}),
                                tensor<float>(kF32, {1, 3}, {1, 1, 1}), tensor<float>(kF32, {1}, {0})},
                               gpu(GetParam()));
  EXPECT_EQ(values<float>(order), (std::vector<float>{0, -e11 + e12}));
  const HostTensor fma = run(fc(kF32, {1, 2}, {1, 2}, 0),
                             {tensor<float>(kF32, {1, 2}, {-e11, e12}), tensor<float>(kF32, {1, 2}, {1, e12}),
                              tensor<float>(kF32, {1}, {0})},
                             gpu(GetParam()));
  EXPECT_EQ(values<float>(fma), (std::vector<float>{0}));
}

TEST_P(BuiltinKernels, FullyConnectedFloat16RoundsOnceAtTheEnd) {
  // 2048 (0x6800) * 1 + 1 * 1 + bias 0.5: fp32 2049.5, fp16 spacing 2 -> 2050 (0x6801);
  // the input [1, 2] is read as one row of depth 2.
  const HostTensor y = run(fc(kF16, {1, 2}, {1, 2}, 0),
                           {tensor<uint16_t>(kF16, {1, 2}, {0x6800, 0x3c00}), tensor<uint16_t>(kF16, {1, 2}, {0x3c00, 0x3c00}),
                            tensor<uint16_t>(kF16, {1}, {0x3800})},
                           gpu(GetParam()));
  EXPECT_EQ(values<uint16_t>(y), (std::vector<uint16_t>{0x6801}));
}

TEST_P(BuiltinKernels, QuantisedFullyConnectedRequantises) {
  // x (0.5, 128) = [1, 2], w (0.5, 128) = [[3, -1]], bias (0.25) = [4] = 1.0:
  // acc = 2 * 6 + 4 * -2 + 4 = 8 (in units of 0.25); out scale 1: 2; out
  // scale 0.1: M = 2.5 > 1 (a left shift), 8 * 2.5 = 20, zero point 3: 23.
  const Quant q{0.5f, 128};
  const std::vector<HostTensor> in = {tensor<uint8_t>(kQA8, {1, 2}, {130, 132}), tensor<uint8_t>(kQA8, {1, 2}, {134, 126}),
                                      tensor<int32_t>(kI32, {1}, {4})};
  EXPECT_EQ(values<uint8_t>(run(fc(kQA8, {1, 2}, {1, 2}, 0, q, q, {1.0f, 0}), in, true)),
            (std::vector<uint8_t>{2}));
  EXPECT_EQ(values<uint8_t>(run(fc(kQA8, {1, 2}, {1, 2}, 0, q, q, {0.1f, 3}), in, true)),
            (std::vector<uint8_t>{23}));
}

TEST_P(BuiltinKernels, FullyConnectedMatchesTheHost) {
  // Rows of edge and ordinary values, every activation, three types.
  const std::vector<float> xs = {0.5f, -1.25f, 3e38f, -3e38f, 1e-45f, 7.0f, -0.0f, 1e-20f,
                                 0.1f, 0.2f, 0.3f, -0.7f, 123.456f, -2.5f, 1e20f, 1e-20f,
                                 std::numeric_limits<float>::quiet_NaN(), 1, 2, 3, 4, 5, 6, 7};
  const std::vector<float> ws = {1, -1, 0.5f, 2, 1e-30f, 3, 0.1f, -0.1f,
                                 0.3f, -0.3f, 1e10f, 7, -2, 0.25f, 1e-10f, 4};
  const std::vector<float> bs = {0.1f, -1e30f};
  for (int32_t act = 0; act <= 3; ++act)
    run(fc(kF32, {3, 8}, {2, 8}, act), {tensor<float>(kF32, {3, 8}, xs), tensor<float>(kF32, {2, 8}, ws),
                                        tensor<float>(kF32, {2}, bs)},
        gpu(GetParam()));
  std::vector<uint16_t> hx, hw, hb;
  for (float v : xs) hx.push_back(half(v / 1e3f));
  for (float v : ws) hw.push_back(half(v));
  for (float v : bs) hb.push_back(half(v));
  for (int32_t act = 0; act <= 3; ++act)
    run(fc(kF16, {3, 8}, {2, 8}, act), {tensor<uint16_t>(kF16, {3, 8}, hx), tensor<uint16_t>(kF16, {2, 8}, hw),
                                        tensor<uint16_t>(kF16, {2}, hb)},
        gpu(GetParam()));
  std::vector<uint8_t> qx, qw;
  for (int i = 0; i < 24; ++i) qx.push_back(static_cast<uint8_t>(i * 37 % 256));
  for (int i = 0; i < 16; ++i) qw.push_back(static_cast<uint8_t>(255 - i * 29 % 256));
  for (const Quant y : {Quant{0.9f, 10}, Quant{0.01f, 128}, Quant{40.0f, 0}})
    for (int32_t act = 0; act <= 3; ++act) {
      run(fc(kQA8, {3, 8}, {2, 8}, act, {0.3f, 100}, {0.7f, 130}, y),
          {tensor<uint8_t>(kQA8, {3, 8}, qx), tensor<uint8_t>(kQA8, {2, 8}, qw), tensor<int32_t>(kI32, {2}, {-5000, 777})},
          true);
      std::vector<int8_t> sx(qx.begin(), qx.end()), sw(qw.begin(), qw.end());
      run(fc(kQAS8, {3, 8}, {2, 8}, act, {0.3f, -28}, {0.7f, 2}, {y.scale, y.zero_point - 128}),
          {tensor<int8_t>(kQAS8, {3, 8}, sx), tensor<int8_t>(kQAS8, {2, 8}, sw), tensor<int32_t>(kI32, {2}, {-5000, 777})},
          true);
    }
  // More rows than the dsp's register tile (6), more units than a vector's
  // 128 columns, a depth that is not a multiple of 4.
  std::vector<uint8_t> bx(7 * 13), bw(130 * 13);
  std::vector<int32_t> bb(130);
  for (size_t i = 0; i < bx.size(); ++i) bx[i] = static_cast<uint8_t>(i * 53 % 256);
  for (size_t i = 0; i < bw.size(); ++i) bw[i] = static_cast<uint8_t>(i * 91 % 256);
  for (size_t i = 0; i < bb.size(); ++i) bb[i] = static_cast<int32_t>(i * 977 % 20000) - 10000;
  run(fc(kQA8, {7, 13}, {130, 13}, 1, {0.05f, 120}, {0.02f, 140}, {2.0f, 100}),
      {tensor<uint8_t>(kQA8, {7, 13}, bx), tensor<uint8_t>(kQA8, {130, 13}, bw), tensor<int32_t>(kI32, {130}, bb)}, true);
  const std::vector<int8_t> sbx(bx.begin(), bx.end()), sbw(bw.begin(), bw.end());
  run(fc(kQAS8, {7, 13}, {130, 13}, 0, {0.05f, -8}, {0.02f, 12}, {2.0f, -28}),
      {tensor<int8_t>(kQAS8, {7, 13}, sbx), tensor<int8_t>(kQAS8, {130, 13}, sbw), tensor<int32_t>(kI32, {130}, bb)},
      true);
}

TEST_P(BuiltinKernels, SliceCopiesTheBox) {
  // x = 0..11 as [3, 4]; begin [1, 1], size [2, -1] (to the end): [[5, 6, 7], [9, 10, 11]].
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i);
  const HostTensor y = run(slice(kF32, {3, 4}), {tensor<float>(kF32, {3, 4}, x), tensor<int32_t>(kI32, {2}, {1, 1}),
                                                 tensor<int32_t>(kI32, {2}, {2, -1})},
                           gpu(GetParam()));
  EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<float>(y), (std::vector<float>{5, 6, 7, 9, 10, 11}));
  // Every element size: FLOAT_16, quantised bytes, INT_32; rank 3, an empty box.
  std::vector<uint16_t> h(24);
  std::vector<uint8_t> q(24);
  std::vector<int32_t> n(24);
  for (int i = 0; i < 24; ++i) {
    h[static_cast<size_t>(i)] = static_cast<uint16_t>(0x3c00 + i);
    q[static_cast<size_t>(i)] = static_cast<uint8_t>(200 + i);
    n[static_cast<size_t>(i)] = -1000 * i;
  }
  const std::vector<int64_t> dims = {2, 3, 4};
  for (const auto& [begin, size] : std::vector<std::pair<std::vector<int32_t>, std::vector<int32_t>>>{
           {{1, 0, 1}, {1, 3, 2}}, {{0, 2, 3}, {-1, 1, -1}}, {{0, 0, 0}, {2, 3, 4}}, {{1, 1, 1}, {1, 0, 2}}}) {
    const HostTensor b = tensor<int32_t>(kI32, {3}, begin), s = tensor<int32_t>(kI32, {3}, size);
    run(slice(kF16, dims), {tensor<uint16_t>(kF16, dims, h), b, s}, gpu(GetParam()));
    run(slice(kQA8, dims, {0.5f, 7}), {tensor<uint8_t>(kQA8, dims, q), b, s}, true);
    run(slice(kI32, dims), {tensor<int32_t>(kI32, dims, n), b, s}, true);
  }
  // Rank 4 (the dsp copies one block per index of the first dimension), INT_8
  // rows longer than a 128-byte vector.
  const std::vector<int64_t> dims4 = {3, 2, 5, 40};
  std::vector<int8_t> s8(1200);
  for (size_t i = 0; i < s8.size(); ++i) s8[i] = static_cast<int8_t>(i * 7 % 256);
  for (const auto& [begin, size] : std::vector<std::pair<std::vector<int32_t>, std::vector<int32_t>>>{
           {{1, 0, 1, 3}, {2, 2, 3, 37}}, {{0, 1, 0, 0}, {3, 1, -1, -1}}, {{2, 1, 4, 39}, {1, 1, 1, 1}}})
    run(slice(kQAS8, dims4, {0.5f, -3}),
        {tensor<int8_t>(kQAS8, dims4, s8), tensor<int32_t>(kI32, {4}, begin), tensor<int32_t>(kI32, {4}, size)}, true);
}

TEST_P(BuiltinKernels, SliceRefusesWhatTheHostRefuses) {
  std::vector<float> x(12, 1.0f);
  const PreparedModel p = prepare_on(*target_, parse(slice(kF32, {3, 4})));
  EXPECT_EQ(p.placements().at(0).backend, gpu(GetParam()) ? GetParam() : "cpu");
  // begin + size past the input, a negative begin, a size below -1.
  for (const auto& [begin, size] : std::vector<std::pair<std::vector<int32_t>, std::vector<int32_t>>>{
           {{2, 0}, {2, 4}}, {{-1, 0}, {1, 1}}, {{0, 0}, {1, -2}}}) {
    const std::vector<HostTensor> in = {tensor<float>(kF32, {3, 4}, x), tensor<int32_t>(kI32, {2}, begin),
                                        tensor<int32_t>(kI32, {2}, size)};
    EXPECT_EQ(p.execute(in).status, ExecutionStatus::kError);
    EXPECT_EQ(prepare_on_cpu(parse(slice(kF32, {3, 4}))).execute(in).status, ExecutionStatus::kError);
  }
}

TEST_P(BuiltinKernels, SliceReadsABeginComputedOnTheDevice) {
  // begin = b0 + [1, 1] (an ADD on the device), then SLICE size [1, 2] of [3, 4].
  const std::string model = R"({"format": "oprig.model/1", "subgraphs": [{"operands": [
      {"type": "FLOAT_32", "dims": [3, 4], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "INT_32", "dims": [2], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "INT_32", "dims": [2], "lifetime": "CONSTANT", "value": [1, 1]},
      {"type": "INT_32", "dims": [2], "lifetime": "TEMPORARY"},
      {"type": "INT_32", "dims": [2], "lifetime": "CONSTANT", "value": [1, 2]},
      {"type": "FLOAT_32", "dims": [1, 2], "lifetime": "SUBGRAPH_OUTPUT"}],
    "operations": [{"type": "ADD", "inputs": [1, 2], "outputs": [3]}, {"type": "SLICE", "inputs": [0, 3, 4], "outputs": [5]}],
    "inputs": [0, 1], "outputs": [5]}]})";
  const PreparedModel p = prepare_on(*target_, parse(model));
  for (const OperationPlacement& placed : p.placements())
    EXPECT_EQ(placed.backend, gpu(GetParam()) ? GetParam() : placed.op_name == "ADD" ? "dsp" : "cpu") << placed.op_name;
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i);
  const std::vector<HostTensor> in = {tensor<float>(kF32, {3, 4}, x), tensor<int32_t>(kI32, {2}, {1, 0})};
  const ExecutionResult r = p.execute(in);
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(values<float>(r.outputs.at(0)), (std::vector<float>{9, 10}));  // row 2, columns 1 and 2
  // On opencl and vulkan: begin, read back to size the output, and the output.
  if (device_memory(GetParam())) {
    EXPECT_EQ(r.transfers.downloads, 2u);
  }
}

TEST_P(BuiltinKernels, ConcatenationJoinsAlongTheAxis) {
  // [[1], [2]] and [[3, 4], [5, 6]] along axis 1: [[1, 3, 4], [2, 5, 6]].
  const HostTensor y = run(concat(kF32, {2, 1}, {2, 2}, 1), {tensor<float>(kF32, {2, 1}, {1, 2}),
                                                             tensor<float>(kF32, {2, 2}, {3, 4, 5, 6})},
                           gpu(GetParam()));
  EXPECT_EQ(values<float>(y), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  // Every element size, both axes, an empty input.
  const Quant q{0.25f, 3};
  run(concat(kF16, {2, 3}, {1, 3}, 0), {tensor<uint16_t>(kF16, {2, 3}, {1, 2, 3, 4, 5, 6}),
                                        tensor<uint16_t>(kF16, {1, 3}, {0x7e00, 0x8000, 0x0001})},
      gpu(GetParam()));
  run(concat(kQA8, {1, 3}, {1, 2}, 1, q, q, q), {tensor<uint8_t>(kQA8, {1, 3}, {0, 128, 255}),
                                                 tensor<uint8_t>(kQA8, {1, 2}, {7, 9})},
      true);
  run(concat(kQAS8, {2, 2}, {2, 0}, 1, q, q, q), {tensor<int8_t>(kQAS8, {2, 2}, {-128, 0, 1, 127}),
                                                  tensor<int8_t>(kQAS8, {2, 0}, {})},
      true);
}

TEST_P(BuiltinKernels, ConcatenationOfAnUnknownRankInputRunsOnTheDevice) {
  // The first input's rank is unknown: the placement probe tries ranks 1 to 4.
  const std::string model = single_op("CONCATENATION", {R"({"type": "FLOAT_32", "lifetime": "SUBGRAPH_INPUT"})",
                                                        input_operand(kF32, {1, 1}), int32_scalar(1),
                                                        R"({"type": "FLOAT_32", "lifetime": "SUBGRAPH_OUTPUT"})"});
  const HostTensor y = run(model, {tensor<float>(kF32, {1, 2}, {1, 2}), tensor<float>(kF32, {1, 1}, {3})}, gpu(GetParam()));
  EXPECT_EQ(values<float>(y), (std::vector<float>{1, 2, 3}));
}

TEST_P(BuiltinKernels, RequantisingConcatenationStaysOnTheHost) {
  const PreparedModel p =
      prepare_on(*target_, parse(concat(kQA8, {1, 2}, {1, 2}, 1, {0.5f, 0}, {0.25f, 0}, {0.5f, 0})));
  EXPECT_EQ(p.placements().at(0).backend, "cpu");
  ASSERT_EQ(p.placement_notes().size(), 1u);
  EXPECT_NE(p.placement_notes()[0].find("NNAPI requantises it, Concat copies"), std::string::npos)
      << p.placement_notes()[0];
}

}  // namespace
}  // namespace oprig::graph::device_test
