// The packet scheduler: in-order VLIW packing with resource limits and an
// operand scoreboard (see core.hpp for the rules, cost_model.md for numbers).
#include <algorithm>

#include "hvx_sim/core.hpp"

namespace oprig::hvx {

void Core::open_packet(uint64_t earliest) {
  const uint64_t next_free = packet_.id == 0 ? 0 : packet_.issue + packet_.duration;
  const uint64_t start = std::max(next_free, earliest);
  counters_.stall_cycles += start - next_free;
  packet_ = Packet{packet_.id + 1, start, 1, 0, {}};
  ++counters_.packets;
}

Stamp Core::issue(Resource resource, uint32_t units, std::initializer_list<Stamp> operands,
                  bool unaligned) {
  const size_t r = static_cast<size_t>(resource);
  uint64_t ready = 0;
  bool reads_open_packet = false;
  for (const Stamp& s : operands) {
    ready = std::max(ready, s.ready);
    if (packet_.id != 0 && s.packet == packet_.id) reads_open_packet = true;
  }
  const bool fits = packet_.id != 0 && !reads_open_packet && ready <= packet_.issue &&
                    packet_.instructions < kMaxInstructionsPerPacket &&
                    packet_.units[r] + units <= kUnitsPerPacket[r];
  if (!fits) open_packet(ready);

  ++packet_.instructions;
  packet_.units[r] += units;
  ++counters_.instructions;
  ++counters_.by_resource[r];
  const uint64_t penalty = unaligned ? kUnalignedPenaltyCycles : 0;
  packet_.duration += penalty;
  return Stamp{packet_.issue + kLatency[r] + penalty, packet_.id};
}

uint64_t Core::pipeline_cycles() const {
  return packet_.id == 0 ? 0 : packet_.issue + packet_.duration;
}

uint64_t Core::streaming_cycles() const {
  const uint64_t bytes = counters_.bytes_loaded + counters_.bytes_stored;
  return (bytes + kL2BytesPerCycle - 1) / kL2BytesPerCycle;
}

uint64_t Core::cycles() const {
  return kProgramOverheadCycles + std::max(pipeline_cycles(), streaming_cycles());
}

}  // namespace oprig::hvx
