// Vector loads and stores: oprig's vmem/vmemu (the dereferences of HVX code)
// HVX's predicated aligned stores and its gathers from VTCM. The Simulator checks them against the
// mapped regions (simulator.hpp).
#include "hvx_sim/instruction.hpp"
#include "hvx_sim/simulator.hpp"

namespace oprig::hvx {
namespace {

constexpr uintptr_t kLineMask = ~static_cast<uintptr_t>(kVectorBytes - 1);

// A memory operand's view is the address itself (its slot views nothing).
// The simulator is the one bound to the thread: Simulator::execute binds the
// one it runs on.
uintptr_t address_of(const Reg& operand) { return reinterpret_cast<uintptr_t>(operand.bytes); }

}  // namespace

// Vd = vmem(Rt), vmem(Rt) = Vs: the address is operand a.
OPRIG_HVX_OP(oprig_vmem_load) { Simulator::bound()->load(o.opcode, address_of(o.a) & kLineMask, false, o.d.bytes); }
OPRIG_HVX_OP(oprig_vmemu_load) {
  const uintptr_t address = address_of(o.a);
  Simulator::bound()->load(o.opcode, address, (address & ~kLineMask) != 0, o.d.bytes);
}
OPRIG_HVX_OP(oprig_vmem_store) { Simulator::bound()->store(o.opcode, address_of(o.a) & kLineMask, o.b.bytes, nullptr, false, false); }
OPRIG_HVX_OP(oprig_vmemu_store) {
  const uintptr_t address = address_of(o.a);
  Simulator::bound()->store(o.opcode, address, o.b.bytes, nullptr, false, (address & ~kLineMask) != 0);
}

// if (Qv) vmem(Rt) = Vs: the operands are Q (a), the address, Vs (c).
OPRIG_HVX_OP(Q6_vmem_QRIV) { Simulator::bound()->store(o.opcode, address_of(o.b) & kLineMask, o.c.bytes, o.a.bytes, false, false); }
OPRIG_HVX_OP(Q6_vmem_QRIV_nt) { Simulator::bound()->store(o.opcode, address_of(o.b) & kLineMask, o.c.bytes, o.a.bytes, false, false); }
OPRIG_HVX_OP(Q6_vmem_QnRIV) { Simulator::bound()->store(o.opcode, address_of(o.b) & kLineMask, o.c.bytes, o.a.bytes, true, false); }
OPRIG_HVX_OP(Q6_vmem_QnRIV_nt) { Simulator::bound()->store(o.opcode, address_of(o.b) & kLineMask, o.c.bytes, o.a.bytes, true, false); }

// vtmp = vgather(Rt, Mu, Vv); vmem(Rs) = vtmp.new: Rs is operand a, Vv b,
// Rt r and Mu s (Simulator::gather).
OPRIG_HVX_OP(Q6_vgather_ARMVh) { Simulator::bound()->gather(o.opcode, address_of(o.a), o.r, o.s, o.b.bytes, 2, 2); }
OPRIG_HVX_OP(Q6_vgather_ARMVw) { Simulator::bound()->gather(o.opcode, address_of(o.a), o.r, o.s, o.b.bytes, 4, 4); }
OPRIG_HVX_OP(Q6_vgather_ARMWw) { Simulator::bound()->gather(o.opcode, address_of(o.a), o.r, o.s, o.b.bytes, 2, 4); }

}  // namespace oprig::hvx
