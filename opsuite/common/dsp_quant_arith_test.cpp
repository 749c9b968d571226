// common/dsp_quant_arith.hpp's vector programs (ADD/SUB's fast program where
// prepare accepts it, the exact one always, MUL's) run on the HVX simulator for all 65536 code pairs of a sweep
// of parameter sets, against quant.hpp's integer rule (eval_add, eval_mul):
// bit-exact for every pair. Random scales and zero points with a fixed seed,
// plus hand-picked sets: equal scales, ties (the output scale twice the
// inputs'), extreme scale ratios, every activation, UINT_8 and INT_8.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#if __has_include("hvx_sim/simulator.hpp")
#include "common/dsp_quant_arith.hpp"
#include "hvx_sim/simulator.hpp"
#define OPRIG_TEST_HAS_DSP 1
#endif

namespace {

#ifdef OPRIG_TEST_HAS_DSP
namespace quant = oprig::opsuite::quant;

struct Case {
  uint32_t operation;  // 0 ADD, 1 SUB, 2 MUL
  float s1, s2, so;
  int32_t z1, z2, zo;
  uint32_t activation;
  bool is_signed;
};

std::string describe(const Case& c) {
  return "op " + std::to_string(c.operation) + " scales " + std::to_string(c.s1) + " " + std::to_string(c.s2) + " " +
         std::to_string(c.so) + " zero points " + std::to_string(c.z1) + " " + std::to_string(c.z2) + " " +
         std::to_string(c.zo) + " activation " + std::to_string(c.activation) + (c.is_signed ? " INT_8" : " UINT_8");
}

class Session {
 public:
  Session() {
    ctx_.struct_size = sizeof ctx_;
    ctx_.kind = OPRIG_BACKEND_DSP;
    ctx_.dsp = &oprig::hvx::api();
    EXPECT_EQ(oprig_dsp_begin(&ctx_), OPRIG_STATUS_OK);
  }

 private:
  oprig::hvx::Simulator sim_;
  oprig::hvx::Simulator::Binding binding_{sim_};
  oprig_backend_context ctx_{};
};

HVX_Vector vector_of(const uint8_t* bytes) {
  HVX_Vector v;
  std::memcpy(&v, bytes, sizeof v);
  return v;
}

// Runs the program for every pair; the number of pairs that differ from the rule.
// (A Session must be bound while the program's constants are splatted.)
size_t mismatches(const Case& c, const quant::ArithmeticParams& p, const oprig::opsuite::DspQuantArith& k) {
  const int32_t lo = c.is_signed ? -128 : 0;
  size_t bad = 0;
  uint8_t a[128], b[128], r[128];
  for (int32_t bi = 0; bi < 256; ++bi)
    for (int32_t half = 0; half < 2; ++half) {
      for (int32_t lane = 0; lane < 128; ++lane) {
        a[lane] = static_cast<uint8_t>(lo + half * 128 + lane);
        b[lane] = static_cast<uint8_t>(lo + bi);
      }
      const HVX_Vector out = oprig::opsuite::dsp_quant_arith_codes(k, vector_of(a), vector_of(b), 128);
      std::memcpy(r, &out, sizeof r);
      for (int32_t lane = 0; lane < 128; ++lane) {
        const int32_t qa = lo + half * 128 + lane, qb = lo + bi;
        const int32_t want = c.operation == 2 ? quant::eval_mul(qa, qb, p) : quant::eval_add(qa, qb, p);
        const int32_t got = c.is_signed ? static_cast<int8_t>(r[lane]) : r[lane];
        if (got != want && bad++ < 3)
          ADD_FAILURE() << describe(c) << ": a " << qa << " b " << qb << " gives " << got << ", the rule " << want;
      }
    }
  return bad;
}

std::vector<Case> sweep() {
  std::vector<Case> cases;
  for (const bool is_signed : {false, true}) {
    const int32_t zmin = is_signed ? -128 : 0, zmax = is_signed ? 127 : 255;
    for (uint32_t op = 0; op < 3; ++op)
      for (uint32_t act = 0; act < 4; ++act) {
        // Equal scales, ties (output scale twice the inputs'), extreme ratios; for MUL
        // multipliers from 0.5 (no rounding shift) to 2^-17 (beyond the narrowing's 15).
        cases.push_back({op, 0.5f, 0.5f, 0.5f, zmin + 128, zmin + 128, zmin + 128, act, is_signed});
        cases.push_back({op, 0.25f, 0.25f, 0.5f, zmin + 100, zmin + 3, zmin + 140, act, is_signed});
        cases.push_back({op, 1.0f / 255, 1.0f / 255, 2.0f / 255, zmin, zmin + 7, zmin + 128, act, is_signed});
        cases.push_back({op, 1e-4f, 1.0f, 0.05f, zmin + 17, zmin + 250, zmin + 9, act, is_signed});
        cases.push_back({op, 3.0f, 1e-3f, 1e-2f, zmax, zmin, zmin + 128, act, is_signed});
        cases.push_back({op, 0.02f, 0.03f, 100.0f, zmin + 128, zmin + 128, zmin + 128, act, is_signed});
      }
    std::mt19937 rng(22);
    std::uniform_real_distribution<float> log_scale(-9.0f, 1.0f);
    std::uniform_int_distribution<int32_t> zero_point(zmin, zmax);
    std::uniform_int_distribution<uint32_t> activation(0, 3), operation(0, 2);
    for (int i = 0; i < 32; ++i)
      cases.push_back({operation(rng), std::exp2(log_scale(rng)), std::exp2(log_scale(rng)),
                       std::exp2(log_scale(rng)), zero_point(rng), zero_point(rng), zero_point(rng), activation(rng),
                       is_signed});
  }
  return cases;
}
#endif

TEST(DspQuantArith, EveryCodePairMatchesTheIntegerRule) {
#ifndef OPRIG_TEST_HAS_DSP
  GTEST_SKIP() << "built without the dsp backend (OPRIG_BACKEND_DSP=OFF)";
#else
  size_t fast = 0, sign_fix = 0, exact_only = 0, tested = 0;
  for (const Case& c : sweep()) {
    quant::ArithmeticParams p;
    if (!quant::arithmetic_params(c.operation, c.s1, c.z1, c.s2, c.z2, c.so, c.zo, c.activation, c.is_signed, &p))
      continue;
    ++tested;
    Session session;
    const bool mul = c.operation == 2;
    const oprig::opsuite::QuantAddFastPlan plan =
        mul ? oprig::opsuite::QuantAddFastPlan{} : oprig::opsuite::plan_dsp_quant_add_fast(p, c.is_signed);
    // MUL's program; ADD/SUB's exact one where the kernel falls back to it and
    // on every third set besides (its 110 instructions a vector dominate the
    // test's time, in the ASan build too).
    if (mul || !plan.usable || tested % 3 == 0) {
      EXPECT_EQ(mismatches(c, p, oprig::opsuite::make_dsp_quant_arith(p, mul, c.is_signed)), 0u) << describe(c);
    }
    if (mul) continue;
    if (!plan.usable) {
      ++exact_only;
      continue;
    }
    ++fast;
    if (plan.sign_fix) ++sign_fix;
    const oprig::opsuite::DspQuantArith k = oprig::opsuite::make_dsp_quant_arith(p, false, c.is_signed, plan);
    ASSERT_TRUE(k.fast);
    EXPECT_EQ(mismatches(c, p, k), 0u) << describe(c) << " (fast program, shift " << plan.shift
                                         << (plan.sign_fix ? ", ties away from zero)" : ")");
  }
  std::cout << tested << " parameter sets; ADD/SUB: " << fast << " by the fast program (" << sign_fix
            << " with the sign fix), " << exact_only
            << " by the exact one only\n";
  EXPECT_GT(tested, 190u);
  EXPECT_GT(exact_only, 0u);  // both of the kernel's paths are exercised
  EXPECT_GT(fast, sign_fix);  // both forms of the fast program
  EXPECT_GT(sign_fix, 0u);
#endif
}

}  // namespace
