#include "hvx_sim/simulator.hpp"

#include <algorithm>
#include <cstring>

#include "hvx_sim/instruction.hpp"

namespace oprig::hvx {
namespace {

constexpr uintptr_t kLineMask = ~static_cast<uintptr_t>(kVectorBytes - 1);

thread_local Simulator* t_bound = nullptr;

std::string hex(uintptr_t address) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), kDigits[address & 15]);
    address >>= 4;
  } while (address != 0);
  return "0x" + s;
}

size_t bytes_of(Kind kind) {
  switch (kind) {
    case Kind::kVec:
    case Kind::kPred:
    case Kind::kPredInOut: return kVectorBytes;
    case Kind::kPair: return 2 * kVectorBytes;
    case Kind::kWord: return sizeof(int32_t);
    default: return 0;
  }
}

}  // namespace

Simulator::Binding::Binding(Simulator& sim) { t_bound = &sim; }
Simulator::Binding::~Binding() { t_bound = nullptr; }
Simulator* Simulator::bound() { return t_bound; }

void Simulator::map(const void* base, size_t bytes, bool writable, std::string name) {
  const auto b = reinterpret_cast<uintptr_t>(base);
  if (bytes > 0) regions_.push_back(Region{b, b + bytes, writable, std::move(name)});
}

uint64_t Simulator::issue_cycles() const {
  uint64_t cycles = (counters_.instructions + kMaxInstructionsPerPacket - 1) / kMaxInstructionsPerPacket;
  for (size_t r = 0; r < kNumResources; ++r)
    cycles = std::max(cycles, (counters_.units[r] + kUnitsPerCycle[r] - 1) / kUnitsPerCycle[r]);
  return cycles + counters_.unaligned_accesses * kUnalignedPenaltyCycles;
}

uint64_t Simulator::streaming_cycles() const {
  const uint64_t bytes = counters_.bytes_loaded + counters_.bytes_stored;
  return (bytes + kL2BytesPerCycle - 1) / kL2BytesPerCycle;
}

uint64_t Simulator::cycles() const { return kProgramOverheadCycles + std::max(issue_cycles(), streaming_cycles()); }

void Simulator::execute(uint32_t opcode, void* d, const void* a, const void* b, const void* c, int32_t r, int32_t s) {
  used_ = true;
  if (faulted_) return;  // skipped: the result keeps the 0 the intrinsic's wrapper put there
  opcode_ = opcode;
  const Instruction* in = instruction(opcode);
  if (in == nullptr) {
    fail("an instruction with opcode " + std::to_string(opcode) + ", unknown to this simulator (" + kSimulatorVersion +
         " knows " + std::to_string(kNumInstructions) + "): the kernel was built against a newer oprig_dsp.h");
    return;
  }
  ++counters_.instructions;
  const ClassCost& cost = class_cost(in->cls);
  counters_.units[static_cast<size_t>(cost.first)] += cost.first_units;
  counters_.units[static_cast<size_t>(cost.second)] += cost.second_units;

  Operands o;
  o.r = r;
  o.s = s;
  o.sim = this;
  o.opcode = opcode;
  const void* const sources[3] = {a, b, c};
  Reg* const slots[3] = {&o.a, &o.b, &o.c};
  for (size_t k = 0; k < 3; ++k) {
    const Kind kind = in->shape.operand[k];
    if (kind == Kind::kAddress)
      o.address = reinterpret_cast<uintptr_t>(sources[k]);
    else if (const size_t n = bytes_of(kind); n > 0)
      std::memcpy(slots[k]->bytes, sources[k], n);
  }
  const size_t result_bytes = bytes_of(in->shape.result);
  std::memset(o.d.bytes, 0, sizeof o.d.bytes);
  in->semantics(o);
  if (faulted_) return;
  if (result_bytes > 0) std::memcpy(d, o.d.bytes, result_bytes);
  for (size_t k = 0; k < 3; ++k)
    if (in->shape.operand[k] == Kind::kPredInOut) std::memcpy(const_cast<void*>(sources[k]), slots[k]->bytes, kVectorBytes);
}

bool Simulator::line_has_mapped_byte(uintptr_t line) const {
  return std::any_of(regions_.begin(), regions_.end(),
                     [&](const Region& r) { return r.begin < line + kVectorBytes && r.end > line; });
}

const Simulator::Region* Simulator::region_holding(uintptr_t first, size_t bytes, bool writable) const {
  for (const Region& r : regions_)
    if ((r.writable || !writable) && first >= r.begin && first + bytes <= r.end) return &r;
  return nullptr;
}

void Simulator::load(uintptr_t address, bool unaligned, uint8_t* out) {
  const uintptr_t first_line = address & kLineMask;
  const uintptr_t last_line = (address + kVectorBytes - 1) & kLineMask;
  for (const uintptr_t line : {first_line, last_line})
    if (!line_has_mapped_byte(line)) {
      fail("a vector load of " + hex(address) + ".." + hex(address + kVectorBytes - 1) + " touches the line at " +
           hex(line) + ", which holds no mapped byte: it is " + describe(line == first_line ? address : line));
      return;
    }
  counters_.bytes_loaded += kVectorBytes;
  if (unaligned) ++counters_.unaligned_accesses;
  if (region_holding(address, kVectorBytes, false) != nullptr) {
    std::memcpy(out, reinterpret_cast<const void*>(address), kVectorBytes);
    return;
  }
  for (size_t i = 0; i < kVectorBytes; ++i)
    out[i] = region_holding(address + i, 1, false) != nullptr ? *reinterpret_cast<const uint8_t*>(address + i) : 0;
}

void Simulator::store(uintptr_t address, const uint8_t* value, const uint8_t* predicate, bool negate, bool unaligned) {
  const auto written = [&](size_t i) { return predicate == nullptr || ((predicate[i] != 0) != negate); };
  if (region_holding(address, kVectorBytes, true) == nullptr) {
    size_t first_bad = kVectorBytes, bad = 0;
    for (size_t i = 0; i < kVectorBytes; ++i)
      if (written(i) && region_holding(address + i, 1, true) == nullptr) {
        first_bad = std::min(first_bad, i);
        ++bad;
      }
    if (bad > 0) {
      fail("a vector store to " + hex(address) + ".." + hex(address + kVectorBytes - 1) + " writes " +
           std::to_string(bad) + " byte(s) outside writable memory, the first at " + hex(address + first_bad) +
           ": it is " + describe(address + first_bad));
      return;
    }
  }
  for (size_t i = 0; i < kVectorBytes; ++i)
    if (written(i)) *reinterpret_cast<uint8_t*>(address + i) = value[i];
  counters_.bytes_stored += kVectorBytes;
  if (unaligned) ++counters_.unaligned_accesses;
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
  return std::to_string(distance) + " byte(s) past the end of " + what(*nearest);
}

void Simulator::fail(const std::string& what) {
  if (faulted_) return;
  faulted_ = true;
  const Instruction* in = instruction(opcode_);
  fault_ = in == nullptr ? what
                         : std::string(in->name) + " (" + in->assembly + "), instruction " +
                               std::to_string(counters_.instructions) + " of this execution: " + what;
}

}  // namespace oprig::hvx
