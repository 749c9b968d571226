// The simulator's cycle cost model, version kCostModelVersion. Every number
// here is described, with its reasoning, in backends/dsp/cost_model.md; change
// both together and bump the version (it is part of the backend's
// driver_version, so results taken under different models never compare).
#pragma once

#include <array>
#include <cstdint>

namespace oprig::hvx {

inline constexpr const char* kSimulatorVersion = "hvx-sim 1.0";
inline constexpr uint32_t kCostModelVersion = 1;

// Nominal core clock: simulated cycles become nanoseconds at this rate.
inline constexpr uint64_t kClockHz = 1'000'000'000;

// Resource classes of the vector unit. Every instruction uses units of one.
enum class Resource : uint8_t { kLoad, kStore, kAlu, kMultiply, kShift, kPermute };
inline constexpr size_t kNumResources = 6;

// At most this many instructions share one packet (VLIW issue width).
inline constexpr uint32_t kMaxInstructionsPerPacket = 4;

// Units of each resource one packet may use, indexed by Resource.
inline constexpr std::array<uint32_t, kNumResources> kUnitsPerPacket = {
    1,  // kLoad: one vector load
    1,  // kStore: one vector store
    2,  // kAlu: two vector ALU operations
    2,  // kMultiply: two halves; a widening (pair-producing) multiply takes both
    1,  // kShift: one shift/narrowing operation
    1,  // kPermute: one table lookup / permute
};

// Cycles from a packet's issue until an instruction's result may be used.
inline constexpr std::array<uint32_t, kNumResources> kLatency = {
    4,  // kLoad: load-to-use from L2
    0,  // kStore: produces no register
    1,  // kAlu
    2,  // kMultiply
    1,  // kShift
    1,  // kPermute
};

// An unaligned vector access (vmemu at an address that is not a multiple of
// 128) touches two lines: its packet takes this many extra cycles and, for a
// load, the data arrives that much later.
inline constexpr uint32_t kUnalignedPenaltyCycles = 1;

// L2 streaming bandwidth of vector loads and stores, bytes per cycle. A
// program never finishes faster than its vector traffic at this rate.
inline constexpr uint64_t kL2BytesPerCycle = 64;

// Fixed cost of one program (one kernel execute): entry, scalar argument and
// loop set-up, return.
inline constexpr uint64_t kProgramOverheadCycles = 20;

}  // namespace oprig::hvx
