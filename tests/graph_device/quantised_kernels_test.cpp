// Quantised TENSOR_QUANT8_ASYMM / _SIGNED built-ins on every device: ADD,
// SUB and MUL through org.oprig.builtins:QuantizedArithmetic (NNAPI's
// integer requantisation) and the comparisons through Compare (real values,
// each input with its own quantisation). Hand-derived codes where the
// pipeline's rounding shows (ties of the final shift go away from zero), the
// fused activations' ranges, then every pair of codes (all 65536) under
// several scale and zero-point combinations against the host kernels, code
// for code. The dsp runs both on the simulator (comparisons through
// threshold tables prepare() derives from the host's fp32 products).
#include "builtin_kernel_fixture.hpp"

namespace oprig::graph::device_test {
namespace {

struct Quant {
  float scale;
  int32_t zero_point;
};

std::string arith(const std::string& op, oprig_dtype type, Quant a, Quant b, Quant y, int32_t act,
                  const std::vector<int64_t>& a_dims, const std::vector<int64_t>& b_dims) {
  return single_op(op, {input_operand(type, a_dims, a.scale, a.zero_point),
                        input_operand(type, b_dims, b.scale, b.zero_point), int32_scalar(act),
                        output_operand(type, y.scale, y.zero_point)});
}

std::string compare(const std::string& op, oprig_dtype type, Quant a, Quant b, const std::vector<int64_t>& a_dims,
                    const std::vector<int64_t>& b_dims) {
  return single_op(op, {input_operand(type, a_dims, a.scale, a.zero_point),
                        input_operand(type, b_dims, b.scale, b.zero_point), output_operand(OPRIG_DTYPE_BOOL_8)});
}

template <typename T>
HostTensor codes(oprig_dtype type, const std::vector<T>& v) {
  return tensor<T>(type, {static_cast<int64_t>(v.size())}, v);
}

constexpr oprig_dtype kQA8 = OPRIG_DTYPE_UINT_8;
constexpr oprig_dtype kQAS8 = OPRIG_DTYPE_INT_8;

TEST_P(BuiltinKernels, QuantisedAddAndSubRoundTiesAwayFromZero) {
  // a, b: scale 0.5, zero point 128; output scale 1, zero point 10.
  // 130 + 131 is 1.0 + 1.5 = 2.5: the final rdbpot by 19 of 2.5 * 2^19 is a
  // tie, away from zero: 3 -> code 13. 130 - 131 = -0.5 -> -1 -> code 9.
  // 200 + 250 = 36 + 61 = 97 -> 107; 0 + 255 = -64 + 63.5 = -0.5 -> -1 -> 9.
  const Quant a{0.5f, 128}, y{1.0f, 10};
  const std::vector<int64_t> dims = {3};
  const HostTensor add = run(arith("ADD", kQA8, a, a, y, 0, dims, dims),
                             {codes<uint8_t>(kQA8, {130, 200, 0}), codes<uint8_t>(kQA8, {131, 250, 255})}, true);
  EXPECT_EQ(values<uint8_t>(add), (std::vector<uint8_t>{13, 107, 9}));
  const HostTensor sub = run(arith("SUB", kQA8, a, a, y, 0, dims, dims),
                             {codes<uint8_t>(kQA8, {130, 200, 0}), codes<uint8_t>(kQA8, {131, 250, 255})}, true);
  // 130 - 131 = -0.5 -> -1 -> 9; 36 - 61 = -25 -> -15; -64 - 63.5 = -127.5 -> -128 -> -118 -> 0.
  EXPECT_EQ(values<uint8_t>(sub), (std::vector<uint8_t>{9, 0, 0}));
}

TEST_P(BuiltinKernels, QuantisedMulAndActivationsGiveNnapisCodes) {
  // a, b: scale 0.5, zero point 128; output scale 1, zero point 10; the
  // multiplier 0.25 is 2^30 * 2^-32: srdhm halves exactly, rdbpot by 1 rounds.
  // 134 * 133 = 3 * 2.5 = 7.5 -> 8 -> 18; 122 * 133 = -7.5 -> -8 -> 2.
  const Quant a{0.5f, 128}, y{1.0f, 10};
  const HostTensor mul = run(arith("MUL", kQA8, a, a, y, 0, {2}, {2}),
                             {codes<uint8_t>(kQA8, {134, 122}), codes<uint8_t>(kQA8, {133, 133})}, true);
  EXPECT_EQ(values<uint8_t>(mul), (std::vector<uint8_t>{18, 2}));
  // RELU6 on an output of scale 0.5, zero point 10: codes [10, 22].
  // 140 + 140 = 6 + 6 = 12 -> 22 (clamped from 34); 120 + 126 = -4 - 1 = -5 -> 10 (from 0).
  const Quant half{0.5f, 10};
  const HostTensor relu6 = run(arith("ADD", kQA8, a, a, half, 3, {2}, {2}),
                               {codes<uint8_t>(kQA8, {140, 120}), codes<uint8_t>(kQA8, {140, 126})}, true);
  EXPECT_EQ(values<uint8_t>(relu6), (std::vector<uint8_t>{22, 10}));
  // QUANT8_ASYMM_SIGNED, zero point -60, RELU1 on an output of scale 0.25,
  // zero point -60: codes [-64, -56]. -50 + -62 = 5 - 1 = 4 -> -44 -> -56;
  // -70 + -60 = -5 -> -80 -> -64; -59 + -60 = 0.5 -> -58.
  const Quant s{0.5f, -60}, quarter{0.25f, -60};
  const HostTensor relu1 = run(arith("ADD", kQAS8, s, s, quarter, 2, {3}, {3}),
                               {codes<int8_t>(kQAS8, {-50, -70, -59}), codes<int8_t>(kQAS8, {-62, -60, -60})}, true);
  EXPECT_EQ(values<int8_t>(relu1), (std::vector<int8_t>{-56, -64, -58}));
}

TEST_P(BuiltinKernels, QuantisedComparisonsCompareRealValues) {
  // a: scale 0.5, zero point 128; b: scale 0.25, zero point 100.
  // 130 = 1.0 vs 104 = 1.0; 131 = 1.5 vs 105 = 1.25; 127 = -0.5 vs 99 = -0.25; 0 = -64 vs 0 = -25.
  const Quant a{0.5f, 128}, b{0.25f, 100};
  const std::vector<int64_t> dims = {4};
  const std::vector<HostTensor> in = {codes<uint8_t>(kQA8, {130, 131, 127, 0}), codes<uint8_t>(kQA8, {104, 105, 99, 0})};
  const bool device = true;
  EXPECT_EQ(values<uint8_t>(run(compare("LESS", kQA8, a, b, dims, dims), in, device)),
            (std::vector<uint8_t>{0, 0, 1, 1}));
  EXPECT_EQ(values<uint8_t>(run(compare("EQUAL", kQA8, a, b, dims, dims), in, device)),
            (std::vector<uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ(values<uint8_t>(run(compare("GREATER_EQUAL", kQA8, a, b, dims, dims), in, device)),
            (std::vector<uint8_t>{1, 1, 0, 0}));
  // Scales 0.1f and 0.3f: 3 * 0.1f and 1 * 0.3f round to the same float
  // (0x3e99999a), so they are EQUAL although 3 * 0.1f's exact product is not 0.3f.
  const Quant tenth{0.1f, 0}, three_tenths{0.3f, 0};
  EXPECT_EQ(values<int8_t>(run(compare("EQUAL", kQAS8, tenth, three_tenths, {2}, {2}),
                               {codes<int8_t>(kQAS8, {3, -3}), codes<int8_t>(kQAS8, {1, -1})}, device)),
            (std::vector<int8_t>{1, 1}));
}

// Every pair of codes: a takes each code 256 times in a row, b cycles.
template <typename T>
std::vector<HostTensor> every_pair(oprig_dtype type) {
  std::vector<T> a, b;
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 256; ++j) {
      a.push_back(static_cast<T>(i));
      b.push_back(static_cast<T>(j));
    }
  return {codes<T>(type, a), codes<T>(type, b)};
}

struct Scales {
  Quant a, b, y;
};

TEST_P(BuiltinKernels, QuantisedArithmeticMatchesTheHostOnEveryPairOfCodes) {
  const std::vector<int64_t> dims = {65536};
  // Equal scales; awkward ones (multipliers far from powers of two); an
  // output scale above the inputs' product only just (MUL); large ratios.
  const std::vector<Scales> unsigned_scales = {{{0.5f, 128}, {0.5f, 128}, {1.0f, 0}},
                                               {{0.3f, 7}, {0.7f, 200}, {0.9f, 13}},
                                               {{1.0f / 255, 0}, {0.05f, 30}, {0.1f, 128}},
                                               {{2.0f, 128}, {0.125f, 0}, {4.0f, 255}}};
  const std::vector<Scales> signed_scales = {{{0.5f, -60}, {0.25f, 12}, {1.0f, 0}},
                                             {{0.3f, -128}, {0.7f, 127}, {0.9f, -13}},
                                             {{0.0123f, 3}, {1.7f, -100}, {2.5f, 40}}};
  const std::vector<HostTensor> u8 = every_pair<uint8_t>(kQA8), s8 = every_pair<int8_t>(kQAS8);
  for (const char* op : {"ADD", "SUB", "MUL"})
    for (int32_t act = 0; act <= 3; ++act) {
      for (const Scales& s : unsigned_scales) {
        SCOPED_TRACE(std::string(op) + " QUANT8_ASYMM activation " + std::to_string(act) + " a scale " +
                     std::to_string(s.a.scale));
        run(arith(op, kQA8, s.a, s.b, s.y, act, dims, dims), u8, true);
      }
      for (const Scales& s : signed_scales) {
        SCOPED_TRACE(std::string(op) + " QUANT8_ASYMM_SIGNED activation " + std::to_string(act) + " a scale " +
                     std::to_string(s.a.scale));
        run(arith(op, kQAS8, s.a, s.b, s.y, act, dims, dims), s8, true);
      }
    }
  // A one-element second input (the built-in's broadcast of [1]).
  run(arith("ADD", kQA8, {0.3f, 7}, {0.7f, 200}, {0.9f, 13}, 0, {5}, {1}),
      {codes<uint8_t>(kQA8, {0, 1, 127, 128, 255}), codes<uint8_t>(kQA8, {201})}, true);
}

TEST_P(BuiltinKernels, QuantisedComparisonsMatchTheHostOnEveryPairOfCodes) {
  const std::vector<int64_t> dims = {65536};
  // Different scales (exact and inexact products), equal ones, and tiny
  // scales whose products are fp32 denormals (flushed by some drivers).
  const std::vector<std::pair<Quant, Quant>> pairs = {{{0.5f, 128}, {0.25f, 100}}, {{0.1f, 0}, {0.3f, 77}},
                                                      {{0.7f, 3}, {0.7f, 3}}, {{1e-40f, 0}, {3e-40f, 5}},
                                                      {{1e-38f, 128}, {2.5e-39f, 100}}};
  const std::vector<HostTensor> u8 = every_pair<uint8_t>(kQA8), s8 = every_pair<int8_t>(kQAS8);
  const bool device = true;
  for (const char* op : {"LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "EQUAL", "NOT_EQUAL"})
    for (const auto& [a, b] : pairs) {
      SCOPED_TRACE(std::string(op) + " scales " + std::to_string(a.scale) + ", " + std::to_string(b.scale));
      run(compare(op, kQA8, a, b, dims, dims), u8, device);
      run(compare(op, kQAS8, {a.scale, a.zero_point - 128}, {b.scale, b.zero_point - 128}, dims, dims), s8, device);
    }
  // One-element inputs on either side (the built-in's broadcast of [1]).
  for (const char* op : {"LESS", "EQUAL", "GREATER_EQUAL"}) {
    run(compare(op, kQA8, {0.5f, 128}, {0.25f, 100}, {5}, {1}),
        {codes<uint8_t>(kQA8, {126, 127, 130, 131, 255}), codes<uint8_t>(kQA8, {104})}, device);
    run(compare(op, kQA8, {0.25f, 100}, {0.5f, 128}, {1}, {5}),
        {codes<uint8_t>(kQA8, {104}), codes<uint8_t>(kQA8, {126, 127, 130, 131, 255})}, device);
  }
}

}  // namespace
}  // namespace oprig::graph::device_test
