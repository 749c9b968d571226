// Vector loads and stores: oprig's vmem/vmemu (the dereferences of HVX code)
// and HVX's predicated aligned stores. The Simulator checks them against the
// mapped regions (simulator.hpp).
#include "hvx_sim/instruction.hpp"
#include "hvx_sim/simulator.hpp"

namespace oprig::hvx {
namespace {

constexpr uintptr_t kLineMask = ~static_cast<uintptr_t>(kVectorBytes - 1);

}  // namespace

OPRIG_HVX_OP(oprig_vmem_load) { o.sim->load(o.address & kLineMask, false, o.d.bytes); }
OPRIG_HVX_OP(oprig_vmemu_load) { o.sim->load(o.address, (o.address & ~kLineMask) != 0, o.d.bytes); }
OPRIG_HVX_OP(oprig_vmem_store) { o.sim->store(o.address & kLineMask, o.b.bytes, nullptr, false, false); }
OPRIG_HVX_OP(oprig_vmemu_store) { o.sim->store(o.address, o.b.bytes, nullptr, false, (o.address & ~kLineMask) != 0); }

// if (Qv) vmem(Rt) = Vs: the operands are Q (a), the address, Vs (c).
OPRIG_HVX_OP(Q6_vmem_QRIV) { o.sim->store(o.address & kLineMask, o.c.bytes, o.a.bytes, false, false); }
OPRIG_HVX_OP(Q6_vmem_QRIV_nt) { o.sim->store(o.address & kLineMask, o.c.bytes, o.a.bytes, false, false); }
OPRIG_HVX_OP(Q6_vmem_QnRIV) { o.sim->store(o.address & kLineMask, o.c.bytes, o.a.bytes, true, false); }
OPRIG_HVX_OP(Q6_vmem_QnRIV_nt) { o.sim->store(o.address & kLineMask, o.c.bytes, o.a.bytes, true, false); }

}  // namespace oprig::hvx
