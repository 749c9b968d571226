// The simulator's cycle cost model, version kCostModelVersion. Every number
// here is described, with its reasoning, in backends/dsp/cost_model.md; change
// both together and bump the version (it is part of the backend's
// driver_version, so results taken under different models never compare).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace oprig::hvx {

inline constexpr const char* kSimulatorVersion = "hvx-sim 2.0";
inline constexpr uint32_t kCostModelVersion = 2;

// Nominal core clock: simulated cycles become nanoseconds at this rate.
inline constexpr uint64_t kClockHz = 1'000'000'000;

// The vector unit's resources. An instruction uses units of one or two of
// them, as its HVX class says (Class below).
// kGather: the path from VTCM into a gather's vtmp register, counted in
// elements (an assumption, cost_model.md "Gathers").
enum class Resource : uint8_t { kLoad, kStore, kAlu, kMultiply, kShift, kPermute, kGather };
inline constexpr std::size_t kNumResources = 7;
inline constexpr std::array<const char*, kNumResources> kResourceNames = {"load",     "store",   "ALU",   "multiply",
                                                                          "shift",    "permute", "gather"};

// A gather reads this many elements from VTCM per cycle. Qualcomm publishes
// no gather throughput; the model assumes one element per cycle (as if each
// element were a separate VTCM access, no two served together): a halfword
// gather of 64 elements takes 64 cycles of the gather path, a word gather 32.
inline constexpr uint32_t kGatherElementsPerCycle = 1;

// At most this many instructions issue per cycle (VLIW packet width).
inline constexpr uint32_t kMaxInstructionsPerPacket = 4;

// Units of each resource one cycle offers, indexed by Resource.
inline constexpr std::array<uint32_t, kNumResources> kUnitsPerCycle = {
    1,  // kLoad: one vector load
    1,  // kStore: one vector store
    2,  // kAlu: two vector ALUs
    2,  // kMultiply: two multiplier halves
    1,  // kShift: one shifter
    1,  // kPermute: one permute network
    kGatherElementsPerCycle,  // kGather: elements read from VTCM
};

// The HVX instruction classes of oprig_dsp.h's list and the units each takes.
// REG is no instruction at all: lo()/hi() name one register of a pair.
enum class Class : uint8_t { VA, VA_DV, VX, VX_DV, VS, VP, VP_VS, LD, LDU, ST, STU, GATHER_H, GATHER_W, REG };
struct ClassCost {
  const char* name;
  Resource first;
  uint8_t first_units;
  Resource second;
  uint8_t second_units;  // 0: one resource only
  uint8_t issues;        // issue slots: 1 an instruction, 2 a gather and its store, 0 none (REG)
};
inline constexpr std::array<ClassCost, 14> kClassCosts = {{
    {"VA", Resource::kAlu, 1, Resource::kAlu, 0, 1},
    {"VA_DV", Resource::kAlu, 2, Resource::kAlu, 0, 1},
    {"VX", Resource::kMultiply, 1, Resource::kMultiply, 0, 1},
    {"VX_DV", Resource::kMultiply, 2, Resource::kMultiply, 0, 1},
    {"VS", Resource::kShift, 1, Resource::kShift, 0, 1},
    {"VP", Resource::kPermute, 1, Resource::kPermute, 0, 1},
    {"VP_VS", Resource::kPermute, 1, Resource::kShift, 1, 1},
    {"LD", Resource::kLoad, 1, Resource::kLoad, 0, 1},
    {"LDU", Resource::kLoad, 1, Resource::kPermute, 1, 1},
    {"ST", Resource::kStore, 1, Resource::kStore, 0, 1},
    {"STU", Resource::kStore, 1, Resource::kPermute, 1, 1},
    // vtmp = vgather(...) and vmem(Rs) = vtmp.new: one packet, two slots
    // (0 and 1), the gather path for each element and the store.
    {"GATHER_H", Resource::kGather, 64, Resource::kStore, 1, 2},
    {"GATHER_W", Resource::kGather, 32, Resource::kStore, 1, 2},
    {"REG", Resource::kAlu, 0, Resource::kAlu, 0, 0},
}};
inline constexpr const ClassCost& class_cost(Class c) { return kClassCosts[static_cast<std::size_t>(c)]; }

// An unaligned vector access (vmemu at an address that is not a multiple of
// 128) touches two lines: it holds the pipeline this many extra cycles.
inline constexpr uint32_t kUnalignedPenaltyCycles = 1;

// L2 streaming bandwidth of vector loads and stores, bytes per cycle. A
// program never finishes faster than its vector traffic at this rate.
inline constexpr uint64_t kL2BytesPerCycle = 64;

// Fixed cost of one program (one kernel execute): entry, scalar argument and
// loop set-up, pipeline fill and drain, return.
inline constexpr uint64_t kProgramOverheadCycles = 20;

}  // namespace oprig::hvx
