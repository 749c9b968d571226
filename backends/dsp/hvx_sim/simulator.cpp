#include "hvx_sim/simulator.hpp"

#include <algorithm>
#include <cstring>

#include "hvx_sim/instruction.hpp"

namespace oprig::hvx {
namespace {

constexpr uintptr_t kLineMask = ~static_cast<uintptr_t>(kVectorBytes - 1);

// Initial-exec: the project builds position-independent code, whose default
// TLS model reaches the variable through a call (__tls_get_addr), which made
// the hot path save and restore every register; initial-exec reads it at a
// fixed offset from the thread pointer (the library is linked into
// executables, or into a shared object loaded at start-up).
[[gnu::tls_model("initial-exec")]] thread_local Simulator* t_bound = nullptr;

size_t result_bytes(Kind kind) {
  switch (kind) {
    case Kind::kVec:
    case Kind::kPred: return kVectorBytes;
    case Kind::kPair: return 2 * kVectorBytes;
    case Kind::kWord: return sizeof(int32_t);
    default: return 0;
  }
}

std::string hex(uintptr_t address) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), kDigits[address & 15]);
    address >>= 4;
  } while (address != 0);
  return "0x" + s;
}

}  // namespace

Simulator::Simulator() = default;

Simulator::Binding::Binding(Simulator& sim) { t_bound = &sim; }
Simulator::Binding::~Binding() { t_bound = nullptr; }
Simulator* Simulator::bound() { return t_bound; }

void Simulator::map(const void* base, size_t bytes, bool writable, std::string name, bool vtcm) {
  const auto b = reinterpret_cast<uintptr_t>(base);
  if (bytes == 0) return;
  if (vtcm) {
    vtcm_mapped_ += bytes;
    if (vtcm_mapped_ > OPRIG_DSP_VTCM_BYTES) {
      opcode_ = UINT32_MAX;  // no instruction's fault
      fail("mapping " + name + " (" + std::to_string(bytes) + " bytes) as VTCM makes " +
           std::to_string(vtcm_mapped_) + " bytes of VTCM, more than the " + std::to_string(OPRIG_DSP_VTCM_BYTES) +
           " an execute may have (OPRIG_DSP_VTCM_BYTES)");
      return;
    }
  }
  regions_.push_back(Region{b, b + bytes, writable || vtcm, std::move(name), vtcm});
}

bool Simulator::used() const {
  return used_ || faulted_ || std::any_of(executed_.begin(), executed_.end(), [](uint64_t n) { return n != 0; });
}

Counters Simulator::counters() const {
  Counters c;
  for (uint32_t op = 0; op < kNumInstructions; ++op) {
    if (executed_[op] == 0) continue;
    const ClassCost& cost = class_cost(instruction(op)->cls);
    c.instructions += executed_[op] * cost.issues;
    c.units[static_cast<size_t>(cost.first)] += executed_[op] * cost.first_units;
    c.units[static_cast<size_t>(cost.second)] += executed_[op] * cost.second_units;
  }
  c.unaligned_accesses = unaligned_;
  c.bytes_loaded = bytes_loaded_;
  c.bytes_stored = bytes_stored_;
  return c;
}

uint64_t Simulator::issue_cycles() const {
  const Counters c = counters();
  uint64_t cycles = (c.instructions + kMaxInstructionsPerPacket - 1) / kMaxInstructionsPerPacket;
  for (size_t r = 0; r < kNumResources; ++r) cycles = std::max(cycles, (c.units[r] + kUnitsPerCycle[r] - 1) / kUnitsPerCycle[r]);
  return cycles + c.unaligned_accesses * kUnalignedPenaltyCycles;
}

uint64_t Simulator::streaming_cycles() const {
  const uint64_t bytes = bytes_loaded_ + bytes_stored_;
  return (bytes + kL2BytesPerCycle - 1) / kL2BytesPerCycle;
}

uint64_t Simulator::cycles() const { return kProgramOverheadCycles + std::max(issue_cycles(), streaming_cycles()); }

void Simulator::execute(uint32_t opcode, void* d, const void* a, const void* b, const void* c, int32_t r, int32_t s) {
  // The memory instructions act on the bound simulator: bind this one for
  // the instruction where another (or none) is.
  Simulator* const previous = t_bound;
  t_bound = this;
  if (faulted_ || opcode >= kNumInstructions) [[unlikely]] {
    execute_exceptional(opcode, d);
  } else {
    ++executed_[opcode];
    kSemantics[opcode](opcode, d, a, b, c, r, s);
  }
  t_bound = previous;
}

void Simulator::execute_exceptional(uint32_t opcode, void* d) {
  if (!faulted_) {
    opcode_ = opcode;
    return unknown_instruction(opcode);
  }
  // Skipped, the result reading 0 (an unknown opcode's size is unknown: left as it is).
  if (opcode < kNumInstructions) std::memset(d, 0, result_bytes(kInstructions[opcode].shape.result));
}

void Simulator::unknown_instruction(uint32_t opcode) {
  fail("an instruction with opcode " + std::to_string(opcode) + ", unknown to this simulator (" + kSimulatorVersion +
       " knows " + std::to_string(kNumInstructions) + "): the kernel was built against a newer oprig_dsp.h");
}

void Simulator::execute_bound(uint32_t opcode, void* d, const void* a, const void* b, const void* c, int32_t r,
                              int32_t s) {
  // Both ways end in the same jump, to the semantics or to everything but
  // the common case, with this function's own parameters: so this stays a
  // leaf that saves no register and moves no operand.
  Semantics next = &execute_uncommon_jump;
  if (Simulator* sim = t_bound; sim != nullptr && !sim->faulted_ && opcode < kNumInstructions) [[likely]] {
    ++sim->executed_[opcode];
    next = kSemantics[opcode];
  }
  next(opcode, d, a, b, c, r, s);
}

void Simulator::execute_uncommon_jump(OPRIG_HVX_SEMANTICS_PARAMS) {
  execute_uncommon(opcode, d, a, b, c, r, static_cast<int32_t>(s));
}

void Simulator::execute_uncommon(uint32_t opcode, void* d, const void* a, const void* b, const void* c, int32_t r,
                                 int32_t s) {
  if (Simulator* sim = t_bound) return sim->execute(opcode, d, a, b, c, r, s);
  Simulator scratch;  // unbound: computes the bits, reports nothing
  scratch.execute(opcode, d, a, b, c, r, s);
}

bool Simulator::line_has_mapped_byte(uintptr_t line) const {
  return std::any_of(regions_.begin(), regions_.end(),
                     [&](const Region& r) { return r.begin < line + kVectorBytes && r.end > line; });
}

const Simulator::Region* Simulator::region_holding(uintptr_t first, size_t bytes, bool writable) const {
  // Kernels stream through a region at a time: try the last one found first.
  if (last_region_ < regions_.size()) {
    const Region& r = regions_[last_region_];
    if ((r.writable || !writable) && first >= r.begin && first + bytes <= r.end) return &r;
  }
  for (size_t k = 0; k < regions_.size(); ++k) {
    const Region& r = regions_[k];
    if ((r.writable || !writable) && first >= r.begin && first + bytes <= r.end) {
      last_region_ = k;
      return &r;
    }
  }
  return nullptr;
}

void Simulator::load(uint32_t opcode, uintptr_t address, bool unaligned, uint8_t* out) {
  // The common case first: all 128 bytes inside one region.
  if (const Region* r = region_holding(address, kVectorBytes, false); r != nullptr) {
    (r->vtcm ? vtcm_bytes_ : bytes_loaded_) += kVectorBytes;
    if (unaligned) ++unaligned_;
    std::memcpy(out, reinterpret_cast<const void*>(address), kVectorBytes);
    return;
  }
  const uintptr_t first_line = address & kLineMask;
  const uintptr_t last_line = (address + kVectorBytes - 1) & kLineMask;
  for (const uintptr_t line : {first_line, last_line})
    if (!line_has_mapped_byte(line)) {
      opcode_ = opcode;
      fail("a vector load of " + hex(address) + ".." + hex(address + kVectorBytes - 1) + " touches the line at " +
           hex(line) + ", which holds no mapped byte: it is " + describe(line == first_line ? address : line));
      std::memset(out, 0, kVectorBytes);
      return;
    }
  bytes_loaded_ += kVectorBytes;
  if (unaligned) ++unaligned_;
  for (size_t i = 0; i < kVectorBytes; ++i)
    out[i] = region_holding(address + i, 1, false) != nullptr ? *reinterpret_cast<const uint8_t*>(address + i) : 0;
}

void Simulator::store(uint32_t opcode, uintptr_t address, const uint8_t* value, const uint8_t* predicate, bool negate, bool unaligned) {
  const auto written = [&](size_t i) { return predicate == nullptr || ((predicate[i] != 0) != negate); };
  const Region* whole = region_holding(address, kVectorBytes, true);
  if (whole == nullptr) {
    size_t first_bad = kVectorBytes, bad = 0;
    for (size_t i = 0; i < kVectorBytes; ++i)
      if (written(i) && region_holding(address + i, 1, true) == nullptr) {
        first_bad = std::min(first_bad, i);
        ++bad;
      }
    if (bad > 0) {
      opcode_ = opcode;
      fail("a vector store to " + hex(address) + ".." + hex(address + kVectorBytes - 1) + " writes " +
           std::to_string(bad) + " byte(s) outside writable memory, the first at " + hex(address + first_bad) +
           ": it is " + describe(address + first_bad));
      return;
    }
  }
  for (size_t i = 0; i < kVectorBytes; ++i)
    if (written(i)) *reinterpret_cast<uint8_t*>(address + i) = value[i];
  (whole != nullptr && whole->vtcm ? vtcm_bytes_ : bytes_stored_) += kVectorBytes;
  if (unaligned) ++unaligned_;
}

const Simulator::Region* Simulator::vtcm_region_of(uint32_t rt, uintptr_t* address) const {
  for (const Region& r : regions_) {
    if (!r.vtcm) continue;
    // The address in r's 4 GiB whose low 32 bits are rt, or the next one up.
    uint64_t a = (static_cast<uint64_t>(r.begin) & ~uint64_t{0xFFFFFFFF}) | rt;
    if (a < r.begin) a += uint64_t{1} << 32;
    if (a < r.end) {
      *address = static_cast<uintptr_t>(a);
      return &r;
    }
  }
  return nullptr;
}

void Simulator::gather(uint32_t opcode, uintptr_t destination, int32_t rt, int32_t mu, const uint8_t* offsets,
                       size_t element_bytes, size_t offset_bytes) {
  opcode_ = opcode;
  // As the HVX reference and qemu-hexagon: Rt aligned down to the element,
  // Mu up to the element's last byte; byte k of element i comes from
  // Rt + offset[i] + k when offset[i] + k <= Mu, else it is dropped.
  const uint64_t last = static_cast<uint32_t>(mu) | (element_bytes - 1);
  uintptr_t base = 0;
  const Region* region = vtcm_region_of(static_cast<uint32_t>(rt), &base);
  base &= ~static_cast<uintptr_t>(element_bytes - 1);
  if (region == nullptr || base < region->begin || last >= region->end - base) {
    const std::string where = region == nullptr ? "no VTCM region holds its base (mapped with oprig_dsp_map_vtcm?)"
                                                : "it runs past the end of " + region->name;
    return fail("the gather region of " + std::to_string(last + 1) + " bytes at Rt = " +
                hex(static_cast<uint32_t>(rt)) + " is not inside VTCM: " + where);
  }
  destination &= kLineMask;
  const Region* out = region_holding(destination, kVectorBytes, true);
  if (out == nullptr || !out->vtcm)
    return fail("a gather stores to " + hex(destination) + ", which is not a line of VTCM: it is " +
                describe(destination));
  // vtmp starts as the destination's bytes (what a dropped byte leaves) and
  // is stored after every element is read, as the store follows the gather.
  uint8_t vtmp[kVectorBytes];
  std::memcpy(vtmp, reinterpret_cast<const void*>(destination), kVectorBytes);
  const auto* from = reinterpret_cast<const uint8_t*>(base);
  if (element_bytes == 2 && offset_bytes == 2) {  // the common form: whole elements in one copy
    for (size_t i = 0; i < kVectorBytes / 2; ++i) {
      uint16_t offset;
      std::memcpy(&offset, offsets + 2 * i, 2);
      if (offset < last)  // last is odd: both bytes are in the region
        std::memcpy(vtmp + 2 * i, from + offset, 2);
      else if (offset == last)
        vtmp[2 * i] = from[offset];
    }
  } else {
    for (size_t i = 0; i < kVectorBytes / element_bytes; ++i) {
      // Element i's offset: lane i of the offsets, or with word offsets for
      // halfwords lane i / 2 of the pair's vector i % 2.
      const size_t lane = offset_bytes == element_bytes ? i : (i % 2) * (kVectorBytes / 4) + i / 2;
      uint32_t offset = 0;
      std::memcpy(&offset, offsets + lane * offset_bytes, offset_bytes);  // little-endian lanes
      for (size_t k = 0; k < element_bytes; ++k)
        if (uint64_t{offset} + k <= last) vtmp[i * element_bytes + k] = from[offset + k];
    }
  }
  std::memcpy(reinterpret_cast<void*>(destination), vtmp, kVectorBytes);
  vtcm_bytes_ += kVectorBytes;
}

// Where an address lies relative to the mapped regions, for fault messages.
std::string Simulator::describe(uintptr_t address) const {
  const auto what = [&](const Region& r) {
    return r.name + " (" + std::to_string(r.end - r.begin) + " bytes at " + hex(r.begin) +
           (r.writable ? "" : ", read-only") + ")";
  };
  const Region* nearest = nullptr;
  uintptr_t distance = 0;
  for (const Region& r : regions_) {
    if (address >= r.begin && address < r.end)
      return "byte " + std::to_string(address - r.begin) + " of " + what(r);
    const uintptr_t d = address < r.begin ? r.begin - address : address - r.end;
    if (nearest == nullptr || d < distance) {
      nearest = &r;
      distance = d;
    }
  }
  if (nearest == nullptr) return "outside every region (nothing is mapped)";
  if (address < nearest->begin) return std::to_string(distance) + " byte(s) before " + what(*nearest);
  if (distance == 0) return "just past the end of " + what(*nearest);
  return std::to_string(distance) + " byte(s) past the end of " + what(*nearest);
}

void Simulator::fail(const std::string& what) {
  if (faulted_) return;
  faulted_ = true;
  const Instruction* in = instruction(opcode_);
  uint64_t instructions = 0;  // executed so far, this one included
  for (const uint64_t n : executed_) instructions += n;
  fault_ = in == nullptr ? what
                         : std::string(in->name) + " (" + in->assembly + "), instruction " +
                               std::to_string(instructions) + " of this execution: " + what;
}

}  // namespace oprig::hvx
