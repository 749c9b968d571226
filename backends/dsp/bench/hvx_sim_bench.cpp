// How fast the simulator runs on this host: simulated elements per host
// second for three UINT_8 elementwise programs written against oprig_dsp.h,
// as a kernel would: a saturating add (2 loads, 1 ALU, 1 store per 128
// elements), a 256-entry lookup (oprig_dsp_lut256: 8 permutes), a
// 65536-entry lookup by halfword gathers from VTCM, and a
// quantised add (widen both inputs, subtract the zero points, requantise
// each with gemmlowp's fixed point, add, requantise, clamp, narrow: about
// 100 instructions per 128 elements). items_per_second is host speed, not
// DSP speed; the simulated cycles per element are the sim_cycles_per_elem
// counter.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "common/dsp_quant_arith.hpp"
#include "hvx_sim/simulator.hpp"
#include "oprig/oprig_dsp.h"

namespace {

constexpr size_t kN = size_t{1} << 18;

struct Session {
  oprig::hvx::Simulator sim;
  oprig::hvx::Simulator::Binding binding{sim};
  Session() {
    oprig_backend_context ctx{};
    ctx.struct_size = sizeof ctx;
    ctx.dsp = &oprig::hvx::api();
    oprig_dsp_begin(&ctx);
  }
};

struct Tensors {
  std::vector<uint8_t> a, b, y;
  Tensors() : a(kN + 128), b(kN + 128), y(kN + 128) {
    for (size_t i = 0; i < kN; ++i) {
      a[i] = static_cast<uint8_t>(i * 7);
      b[i] = static_cast<uint8_t>(i * 13);
    }
  }
  void map(oprig::hvx::Simulator& sim) {
    sim.map(a.data(), kN, false, "input 0");
    sim.map(b.data(), kN, false, "input 1");
    sim.map(y.data(), kN, true, "output 0");
  }
};

// The simulated figures of one iteration; host speed from the iterations.
struct Simulated {
  double cycles_per_element = 0, instructions_per_vector = 0;
  void take(const oprig::hvx::Simulator& sim) {
    cycles_per_element = static_cast<double>(sim.cycles()) / static_cast<double>(kN);
    instructions_per_vector = static_cast<double>(sim.counters().instructions) * 128 / static_cast<double>(kN);
  }
  void report(benchmark::State& state) const {
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kN));
    state.counters["sim_cycles_per_elem"] = cycles_per_element;
    state.counters["instructions_per_128"] = instructions_per_vector;
  }
};

void BM_AddSatU8(benchmark::State& state) {
  Tensors t;
  Simulated simulated;
  for (auto _ : state) {
    Session s;
    t.map(s.sim);
    for (size_t o = 0; o < kN; o += 128)
      oprig_vmemu_store(t.y.data() + o,
                        Q6_Vub_vadd_VubVub_sat(oprig_vmemu_load(t.a.data() + o), oprig_vmemu_load(t.b.data() + o)));
    simulated.take(s.sim);
  }
  simulated.report(state);
}
BENCHMARK(BM_AddSatU8);

void BM_LutU8(benchmark::State& state) {
  Tensors t;
  Simulated simulated;
  alignas(128) static uint8_t table[256];
  for (auto _ : state) {
    Session s;
    t.map(s.sim);
    oprig_dsp_map(table, sizeof table, "table");
    const HVX_Vector low = oprig_vmem_load(table), high = oprig_vmem_load(table + 128);
    for (size_t o = 0; o < kN; o += 128)
      oprig_vmemu_store(t.y.data() + o, oprig_dsp_lut256(oprig_vmemu_load(t.a.data() + o), low, high));
    simulated.take(s.sim);
  }
  simulated.report(state);
}
BENCHMARK(BM_LutU8);

// A 65536-entry byte table indexed by the pair of input codes, a << 8 | b,
// looked up with halfword gathers from VTCM (ElementwiseBinary UINT_8
// DIV/POW's program): one vshuff, two gathers, two loads, one vpacke.
void BM_GatherTableU8(benchmark::State& state) {
  struct alignas(128) Vtcm {
    uint8_t table[65536];
    HVX_Vector gathered[2];
  };
  Tensors t;
  Simulated simulated;
  auto vtcm = std::make_unique<Vtcm>();
  for (size_t i = 0; i < sizeof vtcm->table; ++i) vtcm->table[i] = static_cast<uint8_t>(i * 31 + 7);
  const int rt = static_cast<int>(reinterpret_cast<intptr_t>(vtcm->table));
  for (auto _ : state) {
    Session s;
    t.map(s.sim);
    oprig_dsp_map_vtcm(vtcm.get(), sizeof *vtcm, "table in VTCM");
    for (size_t o = 0; o < kN; o += 128) {
      const HVX_VectorPair offsets =
          Q6_W_vshuff_VVR(oprig_vmemu_load(t.a.data() + o), oprig_vmemu_load(t.b.data() + o), -1);
      Q6_vgather_ARMVh(&vtcm->gathered[0], rt, 65535, Q6_V_lo_W(offsets));
      Q6_vgather_ARMVh(&vtcm->gathered[1], rt, 65535, Q6_V_hi_W(offsets));
      oprig_vmemu_store(t.y.data() + o, Q6_Vb_vpacke_VhVh(oprig_vmem_load(&vtcm->gathered[1]),
                                                          oprig_vmem_load(&vtcm->gathered[0])));
    }
    simulated.take(s.sim);
  }
  simulated.report(state);
}
BENCHMARK(BM_GatherTableU8);

void BM_QuantAddU8(benchmark::State& state) {
  Tensors t;
  Simulated simulated;
  for (auto _ : state) {
    Session s;
    t.map(s.sim);
    const HVX_Vector off1 = Q6_V_vsplat_R(-128), off2 = Q6_V_vsplat_R(-3), out_offset = Q6_V_vsplat_R(7);
    const oprig_dsp_quantized_multiplier m1 = oprig_dsp_make_quantized_multiplier(1518500250, -1);
    const oprig_dsp_quantized_multiplier m2 = oprig_dsp_make_quantized_multiplier(1288490189, -1);
    const oprig_dsp_quantized_multiplier mo = oprig_dsp_make_quantized_multiplier(1431655765, -19);
    const HVX_Vector lo = Q6_V_vzero(), hi = Q6_V_vsplat_R(255);
    for (size_t o = 0; o < kN; o += 128) {
      HVX_Vector wa[4], wb[4], r[4];
      oprig_dsp_widen_ub_w(oprig_vmemu_load(t.a.data() + o), wa);
      oprig_dsp_widen_ub_w(oprig_vmemu_load(t.b.data() + o), wb);
      for (int p = 0; p < 4; ++p) {
        const HVX_Vector sx = oprig_dsp_apply_quantized_multiplier_w(Q6_Vw_vasl_VwR(Q6_Vw_vadd_VwVw(wa[p], off1), 20), &m1);
        const HVX_Vector sz = oprig_dsp_apply_quantized_multiplier_w(Q6_Vw_vasl_VwR(Q6_Vw_vadd_VwVw(wb[p], off2), 20), &m2);
        const HVX_Vector raw = oprig_dsp_apply_quantized_multiplier_w(Q6_Vw_vadd_VwVw(sx, sz), &mo);
        r[p] = Q6_Vw_vmin_VwVw(Q6_Vw_vmax_VwVw(Q6_Vw_vadd_VwVw(raw, out_offset), lo), hi);
      }
      oprig_vmemu_store(t.y.data() + o, oprig_dsp_narrow_w_ub_sat(r));
    }
    simulated.take(s.sim);
  }
  simulated.report(state);
}
BENCHMARK(BM_QuantAddU8);

// The same quantised add (the same multipliers and offsets) by the opsuite's
// fast program (opsuite/common/dsp_quant_arith.hpp: two vdmpy per 32 lanes,
// one rounding narrowing), which prepare found bit-exact for these parameters.
void BM_QuantAddU8Fast(benchmark::State& state) {
  oprig::opsuite::quant::ArithmeticParams p;
  p.in1_offset = -128;
  p.in2_offset = -3;
  p.out_offset = 7;
  p.in1 = {1518500250, 0, 1};
  p.in2 = {1288490189, 0, 1};
  p.out = {1431655765, 0, 19};
  const oprig::opsuite::QuantAddFastPlan plan = oprig::opsuite::plan_dsp_quant_add_fast(p, false);
  if (!plan.usable) {
    state.SkipWithError("the fast program is not exact for these parameters");
    return;
  }
  Tensors t;
  Simulated simulated;
  for (auto _ : state) {
    Session s;
    t.map(s.sim);
    const oprig::opsuite::DspQuantAddFast k = oprig::opsuite::make_dsp_quant_add_fast(plan);
    for (size_t o = 0; o < kN; o += 128)
      oprig_vmemu_store(t.y.data() + o, oprig::opsuite::dsp_quant_add_fast_codes(k, oprig_vmemu_load(t.a.data() + o),
                                                                                 oprig_vmemu_load(t.b.data() + o)));
    simulated.take(s.sim);
  }
  simulated.report(state);
}
BENCHMARK(BM_QuantAddU8Fast);

}  // namespace

namespace {
// The cost of one instruction on the host: a chain of vor (the cheapest semantics).
void BM_OneInstruction(benchmark::State& state) {
  Session s;
  HVX_Vector v = Q6_V_vzero(), w = Q6_V_vsplat_R(1);
  for (auto _ : state)
    for (int i = 0; i < 1000; ++i) v = Q6_V_vor_VV(v, w);
  benchmark::DoNotOptimize(v);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 1000);
}
BENCHMARK(BM_OneInstruction);
}  // namespace
