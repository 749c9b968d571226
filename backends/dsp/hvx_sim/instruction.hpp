// One simulated instruction: what oprig_dsp.h's exec() hands over (the
// operands of one intrinsic), the instruction's semantics and its cost. The
// list of instructions is oprig_dsp.h's OPRIG_DSP_INTRINSICS; each has a
// function op_<intrinsic name> in one of the ops_*.cpp files, written from
// the instruction's documented behaviour (HVX programmer's reference, as
// Qualcomm's architecture description and QEMU implement it) and checked bit
// for bit against qemu-hexagon by tests/backends_dsp/hvx_bitexact.
#pragma once

#include <cstdint>

#include "hvx_sim/cost_model.hpp"
#include "hvx_sim/vector.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::hvx {

class Simulator;

// How one operand or the result travels through exec().
enum class Kind : uint8_t {
  kNone,
  kVec,        // 128 bytes
  kPair,       // 256 bytes
  kPred,       // 128 bytes, non-zero = set
  kWord,       // a 32-bit scalar result
  kAddress,    // the operand is an address of simulated memory
  kPredInOut,  // a predicate read and written back (the carry of vadd/vsub)
};
struct Shape {
  Kind result;
  Kind operand[3];
};

// The operands of one instruction, viewed in place. a, b, c are the vector
// operands in the intrinsic's order (a memory operand's view is its address:
// the memory instructions read it from there); r and s the scalar ones; d the result. d
// never overlaps an operand (oprig_dsp.h's wrappers pass a fresh local); an
// in/out predicate (kPredInOut) is updated through its operand's view.
struct Operands {
  Reg d, a, b, c;
  int32_t r = 0, s = 0;
  uint32_t opcode = 0;  // for the memory instructions' fault messages
};

// An instruction's semantics take exec()'s own parameters, in exec()'s
// order: the hot path (Simulator::execute_bound) counts the instruction and
// jumps to them with the operands still in the registers exec() received
// them in (no copy into the simulator, no reload). s, the one passed on the
// stack, is widened to 64 bits (its value is exec()'s int32_t s): the jump
// rewrites that stack slot, and an 8-byte store there lets the kernel's
// 8-byte pop after the call take it by store forwarding, where the 4-byte
// store an int32_t parameter gets made every instruction stall on return.
#define OPRIG_HVX_SEMANTICS_PARAMS \
  uint32_t opcode, void* d, const void* a, const void* b, const void* c, int32_t r, int64_t s
using Semantics = void (*)(OPRIG_HVX_SEMANTICS_PARAMS);

struct Instruction {
  const char* name;         // the intrinsic, e.g. "Q6_Vub_vadd_VubVub_sat"
  Shape shape;
  Class cls;                // what it costs (cost_model.hpp)
  const char* assembly;     // e.g. "Vd32.ub=vadd(Vu32.ub,Vv32.ub):sat"
  Semantics semantics;
};

inline constexpr uint32_t kNumInstructions = OPRIG_DSP_NUM_OPCODES;
// Indexed by opcode (table.cpp).
extern const Instruction kInstructions[kNumInstructions];

// The instruction of an opcode (OPRIG_DSP_OP_*), or nullptr when unknown.
inline const Instruction* instruction(uint32_t opcode) {
  return opcode < kNumInstructions ? &kInstructions[opcode] : nullptr;
}

// Every instruction's semantics, defined across the ops_*.cpp files.
#define OPRIG_HVX_DECLARE(name, shape, cls, assembly) void op_##name(OPRIG_HVX_SEMANTICS_PARAMS);
OPRIG_DSP_INTRINSICS(OPRIG_HVX_DECLARE)
#undef OPRIG_HVX_DECLARE

// Defines the semantics of one intrinsic: OPRIG_HVX_OP(Q6_V_vzero) { ... },
// the body seeing its operands as `o`. The entry point op_<name> views
// exec()'s parameters as Operands and runs the body inlined, so `o` lives in
// registers or on op_<name>'s own frame.
#define OPRIG_HVX_OP(name)                                                                                     \
  [[gnu::always_inline]] static inline void body_##name(Operands& o);                                         \
  void op_##name(OPRIG_HVX_SEMANTICS_PARAMS) {                                                                \
    Operands o{Reg{static_cast<uint8_t*>(d)}, Reg{static_cast<uint8_t*>(const_cast<void*>(a))},               \
               Reg{static_cast<uint8_t*>(const_cast<void*>(b))}, Reg{static_cast<uint8_t*>(const_cast<void*>(c))}, \
               r, static_cast<int32_t>(s), opcode};                                                           \
    body_##name(o);                                                                                           \
  }                                                                                                           \
  [[gnu::always_inline]] static inline void body_##name([[maybe_unused]] Operands& o)

// The semantics by opcode, densely (table.cpp): what the hot path reads.
extern const Semantics kSemantics[kNumInstructions];

}  // namespace oprig::hvx
