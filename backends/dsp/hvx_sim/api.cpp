// oprig_dsp.h's entry points: the C functions a kernel reaches through
// oprig_backend_context::dsp. Each acts on the simulator bound to the calling
// thread (Simulator::Binding); an intrinsic called where none is bound (from
// create or prepare) runs on a scratch simulator, computing its bits and
// reporting nothing.
#include <string>

#include "hvx_sim/simulator.hpp"

namespace oprig::hvx {
namespace {

oprig_status begin() {
  Simulator* sim = Simulator::bound();
  if (sim == nullptr) return OPRIG_STATUS_BACKEND_ERROR;  // not inside execute()
  sim->begin();
  return OPRIG_STATUS_OK;
}

oprig_status end(uint64_t* cycles) {
  Simulator* sim = Simulator::bound();
  if (cycles != nullptr) *cycles = sim == nullptr ? 0 : sim->cycles();
  if (sim == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  return sim->faulted() ? OPRIG_STATUS_BACKEND_ERROR : OPRIG_STATUS_OK;
}

void map(const void* base, size_t bytes, uint32_t flags, const char* name) {
  if (Simulator* sim = Simulator::bound())
    sim->map(base, bytes, (flags & OPRIG_DSP_MAP_WRITABLE) != 0, name != nullptr ? name : "a region the kernel mapped",
             (flags & OPRIG_DSP_MAP_VTCM) != 0);
}

uint32_t failed() {
  const Simulator* sim = Simulator::bound();
  return sim != nullptr && sim->faulted() ? 1u : 0u;
}

const std::string kDescription = std::string("oprig ") + kSimulatorVersion + ", cost model " +
                                 std::to_string(kCostModelVersion) + " @ " + std::to_string(kClockHz / 1'000'000) +
                                 " MHz";

const oprig_dsp_api_v1 kApi = {sizeof(oprig_dsp_api_v1), OPRIG_DSP_API_VERSION, OPRIG_DSP_NUM_OPCODES, 0,
                               kDescription.c_str(), begin, end, map, Simulator::execute_bound, failed, {}};

}  // namespace

const oprig_dsp_api_v1& api() { return kApi; }

}  // namespace oprig::hvx
