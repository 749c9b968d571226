// One simulated HVX context: the memory the DSP may see, the instructions a
// kernel ran (counted per resource for the cost model) and the first fault.
// The dsp backend creates one per execute(), maps the tensors, binds it to
// the thread that calls the kernel (Binding) and reads cycles and faults
// afterwards; kernels reach it through oprig_dsp.h (api()).
//
// Memory rules (oprig_dsp.h, "Memory"): a load may touch any byte of a
// 128-byte line that holds at least one mapped byte (on hardware such a load
// cannot fault: pages are multiples of 128 B); bytes outside mapped memory
// read as 0, standing for the unspecified contents hardware would return. A
// load touching a line with no mapped byte, or a store writing a byte outside
// writable memory, is a fault: recorded with a message naming the
// instruction, the address and the nearest region, after which every
// instruction is skipped (results read 0).
//
// VTCM: regions mapped as VTCM (oprig_dsp_map_vtcm, at most
// OPRIG_DSP_VTCM_BYTES in all) are writable memory that gathers may read and
// store to; loads and stores there are not L2 traffic (streaming_cycles).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hvx_sim/cost_model.hpp"
#include "hvx_sim/instruction.hpp"
#include "hvx_sim/vector.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::hvx {

inline constexpr uint32_t kNumOpcodes = OPRIG_DSP_NUM_OPCODES;

struct Counters {
  uint64_t instructions = 0;        // that take an issue slot
  uint64_t unaligned_accesses = 0;  // vmemu at an address not a multiple of 128
  uint64_t bytes_loaded = 0;        // whole vectors: 128 per load
  uint64_t bytes_stored = 0;        // whole vectors: 128 per store, predicated or not
  std::array<uint64_t, kNumResources> units{};  // resource units used, per Resource
};

class Simulator {
 public:
  Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  // Makes [base, base + bytes) visible; `name` appears in fault messages.
  // VTCM is writable; mapping more than OPRIG_DSP_VTCM_BYTES of it faults.
  void map(const void* base, size_t bytes, bool writable, std::string name, bool vtcm = false);

  // Binds a simulator to the calling thread for its lifetime: oprig_dsp.h's
  // calls on this thread act on it. Bindings do not nest.
  class Binding {
   public:
    explicit Binding(Simulator& sim);
    ~Binding();
    Binding(const Binding&) = delete;
    Binding& operator=(const Binding&) = delete;
  };

  // Whether a kernel used this simulator (oprig_dsp_begin or an instruction).
  bool used() const;
  bool faulted() const { return faulted_; }
  const std::string& fault() const { return fault_; }
  // What the program used so far (from the per-instruction counts).
  Counters counters() const;
  // How many times each instruction ran, by opcode.
  const std::array<uint64_t, kNumOpcodes>& executed() const { return executed_; }

  // Cycles the instructions need at the issue width and each resource's units
  // per cycle, plus the unaligned penalties (cost_model.md).
  uint64_t issue_cycles() const;
  // Cycles the vector traffic needs at kL2BytesPerCycle (rounded up).
  uint64_t streaming_cycles() const;
  // The program's cost: kProgramOverheadCycles + max(issue, streaming).
  uint64_t cycles() const;

  // oprig_dsp.h's entry points, on this simulator.
  void begin() { used_ = true; }
  void execute(uint32_t opcode, void* d, const void* a, const void* b, const void* c, int32_t r, int32_t s);
  // exec() on the simulator bound to the calling thread (a scratch one when none is).
  // The hot path: every instruction of every kernel passes here, so it does
  // no more than count the instruction by opcode and jump to its semantics
  // with exec()'s parameters as they came (the cost model needs only those
  // counts; cycles() derives the rest).
  static void execute_bound(uint32_t opcode, void* d, const void* a, const void* b, const void* c, int32_t r,
                            int32_t s);

  // Memory instructions' access to the mapped regions; opcode names the
  // instruction in a fault message.
  void load(uint32_t opcode, uintptr_t address, bool unaligned, uint8_t* out);
  void store(uint32_t opcode, uintptr_t address, const uint8_t* value, const uint8_t* predicate, bool negate,
             bool unaligned);
  // vtmp = vgather(Rt, Mu, offsets); vmem(destination) = vtmp.new, for
  // elements of element_bytes (2 or 4) with offsets of offset_bytes: the
  // element's own width, or 4 for halfwords (a pair of word offsets, lo the
  // even elements', hi the odd ones').
  void gather(uint32_t opcode, uintptr_t destination, int32_t rt, int32_t mu, const uint8_t* offsets,
              size_t element_bytes, size_t offset_bytes);
  // Bytes loaded from and stored to VTCM (not L2 traffic).
  uint64_t vtcm_bytes() const { return vtcm_bytes_; }

  // The simulator bound to the calling thread, or nullptr.
  static Simulator* bound();

 private:
  struct Region {
    uintptr_t begin;
    uintptr_t end;
    bool writable;
    std::string name;
    bool vtcm = false;
  };
  // The VTCM region holding the 32-bit address rt (its low bits), or nullptr.
  const Region* vtcm_region_of(uint32_t rt, uintptr_t* address) const;
  void fail(const std::string& what);
  [[gnu::cold, gnu::noinline]] void unknown_instruction(uint32_t opcode);
  // execute() of a faulted simulator or an unknown opcode.
  [[gnu::cold, gnu::noinline]] void execute_exceptional(uint32_t opcode, void* d);
  // execute_uncommon() in the shape of the semantics, for execute_bound's jump.
  [[gnu::cold, gnu::noinline]] static void execute_uncommon_jump(OPRIG_HVX_SEMANTICS_PARAMS);
  // execute_bound() without a bound simulator, of a faulted one, or of an unknown opcode.
  [[gnu::cold, gnu::noinline]] static void execute_uncommon(uint32_t opcode, void* d, const void* a, const void* b,
                                                            const void* c, int32_t r, int32_t s);
  std::string describe(uintptr_t address) const;
  bool line_has_mapped_byte(uintptr_t line) const;
  const Region* region_holding(uintptr_t first, size_t bytes, bool writable) const;

  std::vector<Region> regions_;
  mutable size_t last_region_ = 0;  // region_holding's guess
  std::array<uint64_t, kNumOpcodes> executed_{};  // per opcode
  uint64_t unaligned_ = 0, bytes_loaded_ = 0, bytes_stored_ = 0, vtcm_bytes_ = 0, vtcm_mapped_ = 0;
  uint32_t opcode_ = 0;  // of the faulting instruction, for fault messages
  bool used_ = false;    // oprig_dsp_begin ran (an instruction counts in executed_)
  bool faulted_ = false;
  std::string fault_;
};

// The entry points the dsp backend puts in oprig_backend_context::dsp.
const oprig_dsp_api_v1& api();

}  // namespace oprig::hvx
