// The opencl and vulkan ScaledDotProductAttention kernels through the
// package ABI, on what the plan's modest shapes do not reach: every tile
// boundary crossed with a tail (several tiles of queries and of keys, depth
// chunks with a tail, more output features than one work-group's chunk),
// fp16 outputs of odd length whose 32-bit words are shared between
// work-items (vulkan writes those halves with atomics), causal attention with
// more queries than keys, no keys at all, and a run repeated bit for bit.
// Expected values come from the fp64 reference (reference.cpp), within the
// plan's tolerances. Skipped where the backend is absent (builds without the
// GPU backends, hosts without a driver).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/reference.hpp"
#include "core/half.hpp"
#include "registry.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

struct Case {
  std::vector<int64_t> query, key, value, mask;  // mask empty: absent
  bool causal = false;
  bool half = false;
};

struct Inputs {
  std::vector<HostTensor> tensors;
  std::vector<opsuite::RefTensor> reference;
};

// Uniform values in [low, high) (the plan's fills: |q|, |k|, |v| <= 1, mask
// in [-3, 1)), rounded to fp16 first for FLOAT_16 so both sides see the same values.
Inputs make_inputs(const Case& c) {
  Inputs in;
  uint32_t state = 12345;
  auto add = [&](const std::vector<int64_t>& shape, float low, float high) {
    std::vector<float> values(opsuite::element_count(shape));
    for (float& v : values) {
      state = state * 1664525u + 1013904223u;
      v = low + (high - low) * static_cast<float>(state >> 8) / 16777216.0f;
      if (c.half) v = half_to_float(float_to_half(v));
    }
    opsuite::RefTensor ref;
    ref.shape = shape;
    ref.values.assign(values.begin(), values.end());
    ref.dtype = c.half ? OPRIG_DTYPE_FLOAT_16 : OPRIG_DTYPE_FLOAT_32;
    in.reference.push_back(ref);
    if (!c.half) {
      in.tensors.push_back(HostTensor::of(OPRIG_DTYPE_FLOAT_32, shape, values));
      return;
    }
    std::vector<uint16_t> halves(values.size());
    for (size_t i = 0; i < values.size(); ++i) halves[i] = float_to_half(values[i]);
    in.tensors.push_back(HostTensor::of(OPRIG_DTYPE_FLOAT_16, shape, halves));
  };
  add(c.query, -1, 1);
  add(c.key, -1, 1);
  add(c.value, -1, 1);
  if (!c.mask.empty()) add(c.mask, -3, 1);
  return in;
}

std::vector<double> reference_output(const Case& c, const Inputs& in) {
  const opsuite::ReferenceOp* op = opsuite::find_reference("ScaledDotProductAttention");
  if (op == nullptr) throw std::runtime_error("no reference for ScaledDotProductAttention");
  std::vector<opsuite::RefTensor> outputs(1);
  op->compute(in.reference, opsuite::RefParams(nlohmann::json{{"is_causal", c.causal}}), outputs);
  return outputs[0].values;
}

class DeviceAttention : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string why;
    backend_ = create_backend(GetParam(), &why);
    if (backend_ == nullptr) GTEST_SKIP() << GetParam() << " unavailable: " << why;
    impl_ = opsuite_implementation(backend_->kind(), &why);
    if (impl_ == nullptr) GTEST_SKIP() << "no opsuite " << GetParam() << " library: " << why;
  }

  std::unique_ptr<KernelSession> session(const Case& c, const Inputs& in) {
    oprig_tensor out{};
    out.dtype = c.half ? OPRIG_DTYPE_FLOAT_16 : OPRIG_DTYPE_FLOAT_32;
    return std::make_unique<KernelSession>(*backend_, *impl_, "ScaledDotProductAttention",
                                           ParamList().add_bool("is_causal", c.causal), in.tensors,
                                           std::vector<oprig_tensor>{out});
  }

  // The output as fp32 values.
  std::vector<float> run(const Case& c, const Inputs& in) {
    auto s = session(c, in);
    if (!s->ok()) throw std::runtime_error(s->error());
    if (s->run() != OPRIG_STATUS_OK) throw std::runtime_error("execute failed");
    const HostTensor out = s->output(0);
    if (!c.half) return out.as<float>();
    std::vector<float> values;
    for (uint16_t h : out.as<uint16_t>()) values.push_back(half_to_float(h));
    return values;
  }

  // The plan's tolerances: atol 1.5e-4 (fp32 accumulation), plus one fp16 rounding of the output.
  void expect_close(const Case& c) {
    const Inputs in = make_inputs(c);
    const std::vector<double> expected = reference_output(c, in);
    const std::vector<float> got = run(c, in);
    ASSERT_EQ(got.size(), expected.size());
    const double rtol = c.half ? 4.9e-4 : 0.0;
    size_t bad = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const bool ok = std::isnan(expected[i]) ? std::isnan(got[i])
                                              : std::fabs(got[i] - expected[i]) <= 1.5e-4 + rtol * std::fabs(expected[i]);
      if (!ok && ++bad <= 5) ADD_FAILURE() << "element " << i << ": " << got[i] << ", expected " << expected[i];
    }
    EXPECT_EQ(bad, 0u) << "of " << got.size();
  }

  std::unique_ptr<Backend> backend_;
  const oprig_implementation_v1* impl_ = nullptr;
};

TEST_P(DeviceAttention, TilesAndTailsInEveryDimension) {
  // 77 queries (3 tiles of 32, 2 of 64), 133 keys (3 tiles of 64 with a tail),
  // D = 40 (3 chunks of 16), Dv = 70 (two chunks of features).
  for (bool half : {false, true})
    for (bool causal : {false, true}) {
      SCOPED_TRACE(std::string(half ? "fp16" : "fp32") + (causal ? " causal" : ""));
      expect_close({{2, 3, 77, 40}, {2, 3, 133, 40}, {2, 3, 133, 70}, {}, causal, half});
    }
}

TEST_P(DeviceAttention, BroadcastMaskAcrossTiles) {
  for (bool half : {false, true}) {
    SCOPED_TRACE(half ? "fp16" : "fp32");
    expect_close({{2, 2, 70, 24}, {2, 2, 150, 24}, {2, 2, 150, 16}, {2, 1, 70, 150}, true, half});
    expect_close({{1, 2, 40, 8}, {1, 2, 90, 8}, {1, 2, 90, 8}, {90}, false, half});
  }
}

TEST_P(DeviceAttention, OddFp16RowsShareWords) {
  // Dv = 67 and 5: rows start at odd elements, and a word's halves belong to
  // two work-items (two rows, or two chunks of features).
  expect_close({{1, 3, 37, 16}, {1, 3, 45, 16}, {1, 3, 45, 67}, {}, false, true});
  expect_close({{2, 1, 33, 16}, {2, 1, 65, 16}, {2, 1, 65, 5}, {}, true, true});
}

TEST_P(DeviceAttention, CausalWithMoreQueriesThanKeys) {
  // Top-left aligned: queries from 40 on see all 40 keys; query 0 sees key 0.
  expect_close({{1, 2, 100, 32}, {1, 2, 40, 32}, {1, 2, 40, 32}, {}, true, false});
}

TEST_P(DeviceAttention, NoKeysGiveNaN) {
  const Case c{{1, 2, 3, 4}, {1, 2, 0, 4}, {1, 2, 0, 6}, {}, false, false};
  const std::vector<float> got = run(c, make_inputs(c));
  ASSERT_EQ(got.size(), 36u);
  for (float v : got) EXPECT_TRUE(std::isnan(v)) << v;
}

TEST_P(DeviceAttention, RunsRepeatBitForBit) {
  const Case c{{1, 2, 65, 64}, {1, 2, 129, 64}, {1, 2, 129, 64}, {}, true, false};
  const Inputs in = make_inputs(c);
  auto s = session(c, in);
  ASSERT_TRUE(s->ok()) << s->error();
  ASSERT_EQ(s->run(), OPRIG_STATUS_OK);
  const HostTensor first = s->output(0);
  ASSERT_EQ(s->run(), OPRIG_STATUS_OK);
  EXPECT_EQ(first.bytes, s->output(0).bytes);
}

INSTANTIATE_TEST_SUITE_P(Backends, DeviceAttention, ::testing::Values("opencl", "vulkan"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace oprig::harness
