// One simulated HVX-like vector context. Kernels call its instructions as
// functions; each call computes the exact result bits AND feeds the packet
// scheduler that counts cycles under the cost model (cost_model.hpp,
// backends/dsp/cost_model.md). A Core holds no global state: create one per
// kernel execution (or per kernel instance) and read cycles() at the end.
//
// Scheduling: instructions are packed in program order into VLIW packets of at
// most four, within each resource's units per packet. An instruction starts a
// new packet when it reads a value produced in the open packet, when its
// operands are not ready at the open packet's issue cycle (the new packet
// waits: an interlock stall), or when the packet is full. This is what a
// careful assembler does for straight-line code; a kernel gets overlap only by
// writing independent work next to each other (software pipelining).
//
// Memory: the DSP sees only the regions the kernel maps (map_readable /
// map_writable), as a real DSP sees only buffers mapped through its SMMU. A
// load may touch any byte of a 128-byte line that holds at least one mapped
// byte (on hardware such a load cannot fault: pages are multiples of 128 B);
// bytes outside the mapped regions read as 0, standing for the unspecified
// contents hardware would return. A load touching a line with no mapped byte,
// or a store writing any byte outside a writable region, raises Fault.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hvx_sim/cost_model.hpp"
#include "hvx_sim/vector.hpp"

namespace oprig::hvx {

// A memory access the simulated DSP could not make (a kernel bug).
class Fault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Counters {
  uint64_t packets = 0;
  uint64_t instructions = 0;
  uint64_t stall_cycles = 0;        // cycles packets waited for operands
  uint64_t unaligned_accesses = 0;  // vmemu at an address not a multiple of 128
  uint64_t bytes_loaded = 0;        // whole vectors: 128 per load
  uint64_t bytes_stored = 0;        // whole vectors: 128 per store, masked or not
  std::array<uint64_t, kNumResources> by_resource{};  // instructions per Resource
};

class Core {
 public:
  Core() = default;

  // ---- memory map ----
  void map_readable(const void* base, size_t bytes);
  void map_writable(void* base, size_t bytes);

  // ---- vector loads and stores ----
  // vmem: aligned; like HVX, the low 7 address bits are ignored.
  Vec vmem(const void* address);
  // vmemu: any address; unaligned addresses pay kUnalignedPenaltyCycles.
  Vec vmemu(const void* address);
  void vmem_store(void* address, const Vec& value);
  void vmemu_store(void* address, const Vec& value);
  // Predicated stores: only bytes whose predicate bit is set are written.
  void vmem_store_if(const Pred& q, void* address, const Vec& value);
  void vmemu_store_if(const Pred& q, void* address, const Vec& value);

  // ---- splat and predicates (ALU) ----
  Vec splat_b(uint8_t value);
  Vec splat_h(int16_t value);
  Vec splat_w(int32_t value);
  // Predicate with bytes [0, n) set; n is taken modulo 128 (vsetq semantics),
  // so n = 128 gives an empty predicate.
  Pred setq(size_t n);

  // ---- saturating add/sub (ALU) ----
  Vec add_sat_ub(const Vec& a, const Vec& b);
  Vec sub_sat_ub(const Vec& a, const Vec& b);
  Vec add_sat_b(const Vec& a, const Vec& b);
  Vec sub_sat_b(const Vec& a, const Vec& b);
  Vec add_sat_h(const Vec& a, const Vec& b);
  Vec sub_sat_h(const Vec& a, const Vec& b);
  Vec add_sat_w(const Vec& a, const Vec& b);
  Vec sub_sat_w(const Vec& a, const Vec& b);
  // Wrap-around (two's complement) add/sub of 32-bit lanes: HVX vadd/vsub .w
  // without :sat, what an INT_32 loop counter needs.
  Vec add_w(const Vec& a, const Vec& b);
  Vec sub_w(const Vec& a, const Vec& b);

  // ---- min/max (ALU) ----
  Vec min_ub(const Vec& a, const Vec& b);
  Vec max_ub(const Vec& a, const Vec& b);
  Vec min_b(const Vec& a, const Vec& b);
  Vec max_b(const Vec& a, const Vec& b);
  Vec min_h(const Vec& a, const Vec& b);
  Vec max_h(const Vec& a, const Vec& b);
  Vec min_w(const Vec& a, const Vec& b);
  Vec max_w(const Vec& a, const Vec& b);

  // ---- bitwise, compare, select (ALU) ----
  Vec vor(const Vec& a, const Vec& b);
  Vec vand(const Vec& a, const Vec& b);
  Pred cmp_gt_ub(const Vec& a, const Vec& b);  // a > b per lane
  Pred cmp_gt_b(const Vec& a, const Vec& b);
  Pred cmp_gt_h(const Vec& a, const Vec& b);
  Pred cmp_gt_w(const Vec& a, const Vec& b);
  Pred cmp_eq_b(const Vec& a, const Vec& b);
  Pred cmp_eq_w(const Vec& a, const Vec& b);
  // Byte-wise select: q ? a : b (vmux).
  Vec mux(const Pred& q, const Vec& a, const Vec& b);

  // ---- multiply (MULTIPLY; widening ops take both units) ----
  // u8 x s8 -> i16 products (exact, never saturate); pair lane order as in
  // VecPair. The _acc forms add to acc with wrap-around, like HVX's +=.
  VecPair mpy_ub_b(const Vec& a, const Vec& b);
  VecPair mpy_acc_ub_b(const VecPair& acc, const Vec& a, const Vec& b);
  // i16 x i16 -> i32 products (exact); _acc adds with wrap-around.
  VecPair mpy_h_h(const Vec& a, const Vec& b);
  VecPair mpy_acc_h_h(const VecPair& acc, const Vec& a, const Vec& b);

  // ---- shifts and narrowing (SHIFT) ----
  // Arithmetic shift right by `shift` (0..31 / 0..15) with rounding (adds
  // 2^(shift-1) first; none when shift is 0) and saturation to the narrower
  // type. Result lanes [0, N) come from lo's lanes, [N, 2N) from hi's.
  Vec asr_w_to_h_rnd_sat(const Vec& lo, const Vec& hi, uint32_t shift);
  Vec asr_h_to_ub_rnd_sat(const Vec& lo, const Vec& hi, uint32_t shift);
  Vec asr_h_to_b_rnd_sat(const Vec& lo, const Vec& hi, uint32_t shift);

  // ---- gemmlowp-style requantisation on int32 lanes ----
  // SaturatingRoundingDoublingHighMul: round((2*a*b) / 2^32), ties towards
  // +inf, INT32_MIN*INT32_MIN saturating to INT32_MAX. On HVX a vmpye and a
  // dependent vmpyo:<<1:rnd:sat: charged as two dependent MULTIPLY ops.
  Vec srdhm_w(const Vec& a, const Vec& b);
  // The low 32 bits of the 32 x 32 product per lane (wrap-around). On HVX a
  // vmpyieo and a dependent vmpyie accumulate: charged as two dependent
  // MULTIPLY ops, like srdhm_w.
  Vec mpyi_w(const Vec& a, const Vec& b);
  // RoundingDivideByPOT: x / 2^exponent rounded to nearest, ties away from
  // zero; exponent 0..31. On HVX a shift plus a remainder compare and an add:
  // charged as SHIFT and ALU in parallel, then a dependent ALU.
  Vec rdbpot_w(const Vec& x, uint32_t exponent);

  // ---- table lookup (PERMUTE) ----
  // vlut32-style: a 32-entry byte table per lookup. `table` holds four 32-byte
  // segments; lookup `segment` (0..7) serves indices [32*segment, 32*segment+32)
  // from table bytes [32*(segment%4), +32) and gives 0 for every other index.
  // Eight lookups over two table vectors, or-ed together, cover 256 entries.
  Vec lut32(const Vec& index, const Vec& table, uint32_t segment);
  // acc | lut32(index, table, segment), one instruction (vlut32 with |=).
  Vec lut32_or(const Vec& acc, const Vec& index, const Vec& table, uint32_t segment);

  // vror: rotate the bytes right by `bytes` (mod 128): result byte i is
  // v's byte (i + bytes) % 128. With an aligned vmem it reads data that does
  // not start on a line without touching the next line.
  Vec vror(const Vec& v, size_t bytes);

  // ---- results ----
  const Counters& counters() const { return counters_; }
  // Cycles of the packets issued so far: last packet's issue + duration.
  uint64_t pipeline_cycles() const;
  // Cycles the vector traffic needs at kL2BytesPerCycle (rounded up).
  uint64_t streaming_cycles() const;
  // The program's cost: kProgramOverheadCycles + max(pipeline, streaming).
  uint64_t cycles() const;

 private:
  struct Region {
    uintptr_t begin;
    uintptr_t end;
    bool writable;
  };
  struct Packet {
    uint64_t id = 0;  // 0: no packet yet
    uint64_t issue = 0;
    uint64_t duration = 0;
    uint32_t instructions = 0;
    std::array<uint32_t, kNumResources> units{};
  };

  // Schedules one instruction; returns its result's stamp.
  Stamp issue(Resource resource, uint32_t units, std::initializer_list<Stamp> operands,
              bool unaligned = false);
  void open_packet(uint64_t earliest);

  Vec load(uintptr_t address, bool unaligned_allowed);
  void store(uintptr_t address, const Vec& value, const Pred* q, bool unaligned_allowed);
  bool readable(uintptr_t address) const;
  bool writable(uintptr_t address) const;
  bool line_has_mapped_byte(uintptr_t line) const;

  std::vector<Region> regions_;
  Packet packet_;
  Counters counters_;
};

}  // namespace oprig::hvx
