/*
 * oprig_dsp.h — the DSP kernel API of oprig's dsp backend, version 1.
 *
 * A package's dsp kernel (its execute(), in C or C++) runs HVX code on the
 * simulator the dsp backend hands it: a bit-exact model of Hexagon HVX in its
 * 128-byte mode, with a cycle model (backends/dsp/cost_model.md in oprig's
 * source). The code is written in HVX's own terms: the documented intrinsics
 * (Q6_Vub_vadd_VubVub_sat, Q6_Vw_vrmpy_VubRb, Q6_V_vmux_QVV, ...) on the
 * 128-byte types HVX_Vector, HVX_VectorPair and HVX_VectorPred, with the same
 * names, operand order and bits as on the hardware. Existing HVX code for the
 * covered set (OPRIG_DSP_INTRINSICS below, one line per intrinsic) compiles
 * against this header unchanged, except for its memory accesses (below).
 *
 * A kernel, start to end:
 *
 *   create():   if (!oprig_dsp_available(ctx)) return OPRIG_STATUS_UNSUPPORTED;
 *               keep ctx (valid until destroy)
 *   execute():  oprig_status s = oprig_dsp_begin(k->ctx);
 *               if (s != OPRIG_STATUS_OK) return s;
 *               oprig_dsp_map(k->table, sizeof k->table, "table");  // own memory it reads
 *               ... HVX_Vector x = oprig_vmemu_load(in + i); ...
 *               ... Q6_* intrinsics ...
 *               oprig_vmemu_store(out + i, y);  // or oprig_dsp_store_bytes() for a tail
 *               return oprig_dsp_end(info);     // fills info->dsp_cycles
 *
 * Memory. The simulated DSP sees only mapped memory, as a DSP sees only the
 * buffers mapped through its SMMU. The backend maps every input tensor
 * readable and every output tensor writable before execute(); a kernel maps
 * anything else it reads or writes (tables, workspace) with oprig_dsp_map /
 * oprig_dsp_map_writable. Vector memory goes through oprig_vmem_load (aligned:
 * like vmem, the low 7 address bits are ignored), oprig_vmemu_load (any
 * address), oprig_vmem_store, oprig_vmemu_store and the predicated stores
 * Q6_vmem_QRIV / Q6_vmem_QnRIV. HVX code usually dereferences HVX_Vector
 * pointers instead; on the host such a dereference reads the right bytes but
 * the simulator never sees it (no cycles, no check), so replace each by the
 * call. A load may touch any 128-byte line holding at least one mapped byte
 * (bytes outside mapped memory read as 0); a load touching a line with no
 * mapped byte, or a store to a byte outside writable memory, is a fault.
 *
 * VTCM (API 1.1). HVX's gathers (Q6_vgather_*) read from a region of VTCM,
 * the vector unit's local memory, and store the gathered vector to VTCM. A
 * kernel declares its VTCM with oprig_dsp_map_vtcm (at most
 * OPRIG_DSP_VTCM_BYTES per execute); a gather whose region or destination is
 * not in it is a fault. Accesses to VTCM do not count as L2 traffic
 * (cost_model.md). Rt, the region's base, is a 32-bit int as on Hexagon:
 * pass (int)(intptr_t)pointer; the simulator resolves it against the mapped
 * VTCM. Semantics as qemu-hexagon and the HVX reference: the base is aligned
 * down to the element size, each element reads the bytes at base + offset
 * (any offset, odd ones too); a byte past the region (offset + k > Mu, Mu
 * rounded up to the element's last byte) is dropped: on hardware that byte
 * of the stored vector is unspecified, the simulator leaves the destination's
 * byte as it was (qemu-hexagon's user mode reads past the region instead).
 *
 * Faults. The first fault (its instruction, address and the tensor or region
 * it missed) is recorded, later instructions are skipped (their results read
 * as 0), oprig_dsp_failed() turns non-zero and oprig_dsp_end() returns
 * OPRIG_STATUS_BACKEND_ERROR. Whatever execute() returns, the backend fails
 * the execution with that message: oprig reports the case FAILED, naming the
 * address, the tensor and the instruction. Nothing crashes the worker.
 *
 * Threads. The simulator is bound to the thread that runs execute(), from the
 * backend's call until it returns; intrinsics called elsewhere (in create or
 * prepare) compute bits but count and report nothing. Kernel instances run
 * concurrently on different threads, each on its own simulator.
 *
 * Cycles. Every instruction is charged to the HVX resource its class names
 * (VA, VA_DV, VX, VX_DV, VS, VP, VP_VS, LD, ST, ...: the third column of
 * the list)
 * and a program's cycles come from the busiest resource, the issue width and
 * the memory traffic; cost_model.md has the numbers. The backend reports them
 * as the execution's device time (dsp_cycles at the nominal clock).
 *
 * The same source builds for real Hexagon: with __hexagon__ defined this
 * header takes the types and intrinsics from the compiler's
 * <hvx_hexagon_protos.h>, the loads and stores become plain dereferences and
 * begin/end/map do nothing. oprig's bit-exactness test compiles one source
 * both ways and runs the Hexagon build under qemu-hexagon.
 *
 * Versioning, as oprig_package.h: OPRIG_DSP_API_VERSION is 1 (1.1 added the
 * gathers and oprig_dsp_map_vtcm: new opcodes and a map() flag, no new
 * member, so a 1.0 host faults cleanly on a 1.1 kernel's gather). Opcodes are
 * positions in OPRIG_DSP_INTRINSICS and never change meaning; new intrinsics
 * are appended. A kernel built against a newer header on an older host faults
 * cleanly on the first intrinsic the host does not know (an "unknown
 * instruction" message), never computes garbage. oprig_dsp_api_v1 members are
 * never reordered; new ones take reserved slots.
 *
 * Requires GCC or Clang (vector types); C99 or later, C++ welcome. Passing
 * 128-byte vectors by value makes GCC print an ABI note ("parameters with
 * 128-byte alignment"): harmless, -Wno-psabi silences it (oprig_add_package
 * adds it); Clang's -Wpsabi warning is turned off by this header.
 */
#ifndef OPRIG_DSP_H_
#define OPRIG_DSP_H_

#include <stddef.h>
#include <stdint.h>

#include "oprig_package.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OPRIG_DSP_API_VERSION 1u
#define OPRIG_DSP_VECTOR_BYTES 128
/* map()'s flags (VTCM: since 1.1, with the gathers). */
#define OPRIG_DSP_MAP_WRITABLE 1u
#define OPRIG_DSP_MAP_VTCM 2u
/* The most VTCM one execute may map: 256 KiB. Qualcomm documents VTCM's size
 * as implementation-defined (read from the configuration table); oprig picks
 * a small figure so a kernel that fits here leaves room on real parts. */
#define OPRIG_DSP_VTCM_BYTES (256u * 1024u)

/* ---- Types --------------------------------------------------------------- */

/* HVX code passes vectors by value; on x86 Clang warns (-Wpsabi) at each
 * such call that 128-byte vectors need AVX-512 registers to travel in
 * registers. The ABI in question is only the kernel's own, so the warning is
 * off for the rest of the including file. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#endif

#if defined(__hexagon__)
#include <hexagon_types.h>
#include <hvx_hexagon_protos.h>
#else
/* HVX's 128-byte mode: a vector register, a register pair (lo() is the first
 * 128 bytes) and a predicate. As in C code for Hexagon, a predicate travels
 * as a vector whose byte i is 0xFF when bit i is set and 0 when clear; an
 * intrinsic reading a predicate takes any non-zero byte as set. Elements of
 * 32 bits, as Hexagon's long. */
typedef int32_t HVX_Vector __attribute__((__vector_size__(128), __aligned__(128)));
typedef int32_t HVX_VectorPair __attribute__((__vector_size__(256), __aligned__(256)));
typedef int32_t HVX_VectorPred __attribute__((__vector_size__(128), __aligned__(128)));
typedef int32_t HVX_UVector __attribute__((__vector_size__(128), __aligned__(4)));
typedef int32_t HVX_UVectorPair __attribute__((__vector_size__(256), __aligned__(4)));
#endif

/* A vector operand of the intrinsics and helpers below: by value in C, as
 * HVX code passes it; by const reference in C++, which calls the same way but
 * lets the simulator's exec() view the caller's own value instead of a copy
 * made for the call (each copy is 128 or 256 bytes, on the host a good part
 * of an instruction's cost). All of them are static inline, so this is no
 * part of any library's ABI. */
#ifdef __cplusplus
#define OPRIG_DSP_IN(T) const T&
#else
#define OPRIG_DSP_IN(T) T
#endif

/* ---- The simulator's entry points ----------------------------------------
 * What the dsp backend puts in oprig_backend_context::dsp. Every function
 * acts on the simulator the backend bound to the calling thread for the
 * execute() in progress. Kernels use the functions further down, not these. */
typedef struct oprig_dsp_api_v1 {
  uint32_t struct_size;
  uint32_t version;     /* OPRIG_DSP_API_VERSION the host implements */
  uint32_t num_opcodes; /* opcodes [0, num_opcodes) the host's simulator knows */
  uint32_t reserved_u32;
  const char* simulator; /* e.g. "oprig hvx-sim 2.0, cost model 2 @ 1000 MHz" */
  /* OK when a simulator is bound to this thread (inside execute()). */
  oprig_status (*begin)(void);
  /* The simulated cycles so far; BACKEND_ERROR when a fault was recorded. */
  oprig_status (*end)(uint64_t* cycles);
  /* Makes [base, base + bytes) visible to the DSP; name appears in faults.
   * flags: 0 read-only, OPRIG_DSP_MAP_WRITABLE, and with it
   * OPRIG_DSP_MAP_VTCM (hosts of 1.1; an older host maps such memory as
   * plain writable memory, and faults on the gather, an unknown opcode). */
  void (*map)(const void* base, size_t bytes, uint32_t flags, const char* name);
  /* One instruction. Operands in the intrinsic's order: a, b, c point to
   * vector, pair or predicate values (or are the address of a memory
   * operand); r and s are the scalar operands (a 64-bit one as r = low word,
   * s = high word); the result goes to d. */
  void (*exec)(uint32_t opcode, void* d, const void* a, const void* b, const void* c, int32_t r, int32_t s);
  /* Non-zero once a fault was recorded. */
  uint32_t (*failed)(void);
  void* reserved[8];
} oprig_dsp_api_v1;

/* ---- The covered intrinsics ----------------------------------------------
 * X(name, shape, class, instruction). The opcode of an intrinsic is its
 * position here. Shape: the result, '_', the operands in order; V vector,
 * W vector pair, Q predicate, R 32-bit scalar (int), I immediate (a
 * compile-time constant on Hexagon: 0..7 for #u3, 0..1 for #u1), P 64-bit
 * scalar (long long), A address, q pointer to a predicate updated in place,
 * N no result, 0 no operand. Class: the HVX resource the instruction uses,
 * which is what it costs (cost_model.md): VA vector ALU, VA_DV both ALUs, VX
 * multiplier, VX_DV both multipliers, VS shifter, VP permute network, VP_VS
 * permute and shifter, LD load, LDU unaligned load (load and permute), ST
 * store, STU unaligned store (store and permute), GATHER_H / GATHER_W a
 * gather of 64 halfwords / 32 words from VTCM with its store, REG no
 * instruction (lo() and hi() name a register of a pair; compilers emit
 * nothing for them).
 * Instruction: the Hexagon assembly it stands for. Every line is checked against real HVX (qemu-hexagon)
 * by oprig's tests/backends_dsp/hvx_bitexact.
 * The first four are oprig's names for the loads and stores HVX code writes
 * as dereferences (see "Memory" above). */
#define OPRIG_DSP_INTRINSICS(X) \
  /* Vector loads and stores */ \
  X(oprig_vmem_load,                           V_A,    LD,     "Vd32=vmem(Rt32)") \
  X(oprig_vmemu_load,                          V_A,    LDU,    "Vd32=vmemu(Rt32)") \
  X(oprig_vmem_store,                          N_AV,   ST,     "vmem(Rt32)=Vs32") \
  X(oprig_vmemu_store,                         N_AV,   STU,    "vmemu(Rt32)=Vs32") \
  /* Predicated stores (aligned) */ \
  X(Q6_vmem_QRIV,                              N_QAV,  ST,     "if (Qv4) vmem(Rt32+#s4)=Vs32") \
  X(Q6_vmem_QRIV_nt,                           N_QAV,  ST,     "if (Qv4) vmem(Rt32+#s4):nt=Vs32") \
  X(Q6_vmem_QnRIV,                             N_QAV,  ST,     "if (!Qv4) vmem(Rt32+#s4)=Vs32") \
  X(Q6_vmem_QnRIV_nt,                          N_QAV,  ST,     "if (!Qv4) vmem(Rt32+#s4):nt=Vs32") \
  /* Register moves, splats, insert and extract */ \
  X(Q6_V_equals_V,                             V_V,    VA,     "Vd32=Vu32") \
  X(Q6_W_equals_W,                             W_W,    VA_DV,  "Vdd32=Vuu32") \
  X(Q6_V_hi_W,                                 V_W,    REG,    "Vd32=hi(Vss32)") \
  X(Q6_V_lo_W,                                 V_W,    REG,    "Vd32=lo(Vss32)") \
  X(Q6_W_vcombine_VV,                          W_VV,   VA_DV,  "Vdd32=vcombine(Vu32,Vv32)") \
  X(Q6_R_vextract_VR,                          R_VR,   LD,     "Rd32=vextract(Vu32,Rs32)") \
  X(Q6_Vw_vinsert_VwR,                         V_VR,   VX,     "Vx32.w=vinsert(Rt32)") \
  X(Q6_V_vsplat_R,                             V_R,    VX,     "Vd32=vsplat(Rt32)") \
  X(Q6_Vb_vsplat_R,                            V_R,    VX,     "Vd32.b=vsplat(Rt32)") \
  X(Q6_Vh_vsplat_R,                            V_R,    VX,     "Vd32.h=vsplat(Rt32)") \
  X(Q6_V_vzero,                                V_0,    VA,     "Vd32=#0") \
  X(Q6_W_vzero,                                W_0,    VA_DV,  "Vdd32=#0") \
  /* Add, subtract, average, absolute value, min and max */ \
  X(Q6_Vb_condacc_QVbVb,                       V_QVV,  VA,     "if (Qv4) Vx32.b+=Vu32.b") \
  X(Q6_Vh_condacc_QVhVh,                       V_QVV,  VA,     "if (Qv4) Vx32.h+=Vu32.h") \
  X(Q6_Vw_condacc_QVwVw,                       V_QVV,  VA,     "if (Qv4) Vx32.w+=Vu32.w") \
  X(Q6_Vb_condacc_QnVbVb,                      V_QVV,  VA,     "if (!Qv4) Vx32.b+=Vu32.b") \
  X(Q6_Vh_condacc_QnVhVh,                      V_QVV,  VA,     "if (!Qv4) Vx32.h+=Vu32.h") \
  X(Q6_Vw_condacc_QnVwVw,                      V_QVV,  VA,     "if (!Qv4) Vx32.w+=Vu32.w") \
  X(Q6_Vb_condnac_QVbVb,                       V_QVV,  VA,     "if (Qv4) Vx32.b-=Vu32.b") \
  X(Q6_Vh_condnac_QVhVh,                       V_QVV,  VA,     "if (Qv4) Vx32.h-=Vu32.h") \
  X(Q6_Vw_condnac_QVwVw,                       V_QVV,  VA,     "if (Qv4) Vx32.w-=Vu32.w") \
  X(Q6_Vb_condnac_QnVbVb,                      V_QVV,  VA,     "if (!Qv4) Vx32.b-=Vu32.b") \
  X(Q6_Vh_condnac_QnVhVh,                      V_QVV,  VA,     "if (!Qv4) Vx32.h-=Vu32.h") \
  X(Q6_Vw_condnac_QnVwVw,                      V_QVV,  VA,     "if (!Qv4) Vx32.w-=Vu32.w") \
  X(Q6_Vb_vabs_Vb,                             V_V,    VA,     "Vd32.b=vabs(Vu32.b)") \
  X(Q6_Vb_vabs_Vb_sat,                         V_V,    VA,     "Vd32.b=vabs(Vu32.b):sat") \
  X(Q6_Vh_vabs_Vh,                             V_V,    VA,     "Vd32.h=vabs(Vu32.h)") \
  X(Q6_Vh_vabs_Vh_sat,                         V_V,    VA,     "Vd32.h=vabs(Vu32.h):sat") \
  X(Q6_Vw_vabs_Vw,                             V_V,    VA,     "Vd32.w=vabs(Vu32.w)") \
  X(Q6_Vw_vabs_Vw_sat,                         V_V,    VA,     "Vd32.w=vabs(Vu32.w):sat") \
  X(Q6_Vuh_vabsdiff_VhVh,                      V_VV,   VX,     "Vd32.uh=vabsdiff(Vu32.h,Vv32.h)") \
  X(Q6_Vub_vabsdiff_VubVub,                    V_VV,   VX,     "Vd32.ub=vabsdiff(Vu32.ub,Vv32.ub)") \
  X(Q6_Vuh_vabsdiff_VuhVuh,                    V_VV,   VX,     "Vd32.uh=vabsdiff(Vu32.uh,Vv32.uh)") \
  X(Q6_Vuw_vabsdiff_VwVw,                      V_VV,   VX,     "Vd32.uw=vabsdiff(Vu32.w,Vv32.w)") \
  X(Q6_Vb_vadd_VbVb,                           V_VV,   VA,     "Vd32.b=vadd(Vu32.b,Vv32.b)") \
  X(Q6_Vb_vadd_VbVb_sat,                       V_VV,   VA,     "Vd32.b=vadd(Vu32.b,Vv32.b):sat") \
  X(Q6_Vh_vadd_VhVh,                           V_VV,   VA,     "Vd32.h=vadd(Vu32.h,Vv32.h)") \
  X(Q6_Ww_vadd_VhVh,                           W_VV,   VX_DV,  "Vdd32.w=vadd(Vu32.h,Vv32.h)") \
  X(Q6_Vh_vadd_VhVh_sat,                       V_VV,   VA,     "Vd32.h=vadd(Vu32.h,Vv32.h):sat") \
  X(Q6_Vub_vadd_VubVb_sat,                     V_VV,   VA,     "Vd32.ub=vadd(Vu32.ub,Vv32.b):sat") \
  X(Q6_Wh_vadd_VubVub,                         W_VV,   VX_DV,  "Vdd32.h=vadd(Vu32.ub,Vv32.ub)") \
  X(Q6_Vub_vadd_VubVub_sat,                    V_VV,   VA,     "Vd32.ub=vadd(Vu32.ub,Vv32.ub):sat") \
  X(Q6_Ww_vadd_VuhVuh,                         W_VV,   VX_DV,  "Vdd32.w=vadd(Vu32.uh,Vv32.uh)") \
  X(Q6_Vuh_vadd_VuhVuh_sat,                    V_VV,   VA,     "Vd32.uh=vadd(Vu32.uh,Vv32.uh):sat") \
  X(Q6_Vuw_vadd_VuwVuw_sat,                    V_VV,   VA,     "Vd32.uw=vadd(Vu32.uw,Vv32.uw):sat") \
  X(Q6_Vw_vadd_VwVw,                           V_VV,   VA,     "Vd32.w=vadd(Vu32.w,Vv32.w)") \
  X(Q6_Vw_vadd_VwVwQ_carry,                    V_VVq,  VA,     "Vd32.w=vadd(Vu32.w,Vv32.w,Qx4):carry") \
  X(Q6_Vw_vadd_VwVwQ_carry_sat,                V_VVQ,  VA,     "Vd32.w=vadd(Vu32.w,Vv32.w,Qs4):carry:sat") \
  X(Q6_Vw_vadd_VwVw_sat,                       V_VV,   VA,     "Vd32.w=vadd(Vu32.w,Vv32.w):sat") \
  X(Q6_Wb_vadd_WbWb,                           W_WW,   VA_DV,  "Vdd32.b=vadd(Vuu32.b,Vvv32.b)") \
  X(Q6_Wb_vadd_WbWb_sat,                       W_WW,   VA_DV,  "Vdd32.b=vadd(Vuu32.b,Vvv32.b):sat") \
  X(Q6_Wh_vadd_WhWh,                           W_WW,   VA_DV,  "Vdd32.h=vadd(Vuu32.h,Vvv32.h)") \
  X(Q6_Wh_vadd_WhWh_sat,                       W_WW,   VA_DV,  "Vdd32.h=vadd(Vuu32.h,Vvv32.h):sat") \
  X(Q6_Wub_vadd_WubWub_sat,                    W_WW,   VA_DV,  "Vdd32.ub=vadd(Vuu32.ub,Vvv32.ub):sat") \
  X(Q6_Wuh_vadd_WuhWuh_sat,                    W_WW,   VA_DV,  "Vdd32.uh=vadd(Vuu32.uh,Vvv32.uh):sat") \
  X(Q6_Wuw_vadd_WuwWuw_sat,                    W_WW,   VA_DV,  "Vdd32.uw=vadd(Vuu32.uw,Vvv32.uw):sat") \
  X(Q6_Ww_vadd_WwWw,                           W_WW,   VA_DV,  "Vdd32.w=vadd(Vuu32.w,Vvv32.w)") \
  X(Q6_Ww_vadd_WwWw_sat,                       W_WW,   VA_DV,  "Vdd32.w=vadd(Vuu32.w,Vvv32.w):sat") \
  X(Q6_Wh_vaddacc_WhVubVub,                    W_WVV,  VX_DV,  "Vxx32.h+=vadd(Vu32.ub,Vv32.ub)") \
  X(Q6_Ww_vaddacc_WwVhVh,                      W_WVV,  VX_DV,  "Vxx32.w+=vadd(Vu32.h,Vv32.h)") \
  X(Q6_Ww_vaddacc_WwVuhVuh,                    W_WVV,  VX_DV,  "Vxx32.w+=vadd(Vu32.uh,Vv32.uh)") \
  X(Q6_Vb_vavg_VbVb,                           V_VV,   VA,     "Vd32.b=vavg(Vu32.b,Vv32.b)") \
  X(Q6_Vb_vavg_VbVb_rnd,                       V_VV,   VA,     "Vd32.b=vavg(Vu32.b,Vv32.b):rnd") \
  X(Q6_Vh_vavg_VhVh,                           V_VV,   VA,     "Vd32.h=vavg(Vu32.h,Vv32.h)") \
  X(Q6_Vh_vavg_VhVh_rnd,                       V_VV,   VA,     "Vd32.h=vavg(Vu32.h,Vv32.h):rnd") \
  X(Q6_Vub_vavg_VubVub,                        V_VV,   VA,     "Vd32.ub=vavg(Vu32.ub,Vv32.ub)") \
  X(Q6_Vub_vavg_VubVub_rnd,                    V_VV,   VA,     "Vd32.ub=vavg(Vu32.ub,Vv32.ub):rnd") \
  X(Q6_Vuh_vavg_VuhVuh,                        V_VV,   VA,     "Vd32.uh=vavg(Vu32.uh,Vv32.uh)") \
  X(Q6_Vuh_vavg_VuhVuh_rnd,                    V_VV,   VA,     "Vd32.uh=vavg(Vu32.uh,Vv32.uh):rnd") \
  X(Q6_Vuw_vavg_VuwVuw,                        V_VV,   VA,     "Vd32.uw=vavg(Vu32.uw,Vv32.uw)") \
  X(Q6_Vuw_vavg_VuwVuw_rnd,                    V_VV,   VA,     "Vd32.uw=vavg(Vu32.uw,Vv32.uw):rnd") \
  X(Q6_Vw_vavg_VwVw,                           V_VV,   VA,     "Vd32.w=vavg(Vu32.w,Vv32.w)") \
  X(Q6_Vw_vavg_VwVw_rnd,                       V_VV,   VA,     "Vd32.w=vavg(Vu32.w,Vv32.w):rnd") \
  X(Q6_Vb_vmax_VbVb,                           V_VV,   VA,     "Vd32.b=vmax(Vu32.b,Vv32.b)") \
  X(Q6_Vh_vmax_VhVh,                           V_VV,   VA,     "Vd32.h=vmax(Vu32.h,Vv32.h)") \
  X(Q6_Vub_vmax_VubVub,                        V_VV,   VA,     "Vd32.ub=vmax(Vu32.ub,Vv32.ub)") \
  X(Q6_Vuh_vmax_VuhVuh,                        V_VV,   VA,     "Vd32.uh=vmax(Vu32.uh,Vv32.uh)") \
  X(Q6_Vw_vmax_VwVw,                           V_VV,   VA,     "Vd32.w=vmax(Vu32.w,Vv32.w)") \
  X(Q6_Vb_vmin_VbVb,                           V_VV,   VA,     "Vd32.b=vmin(Vu32.b,Vv32.b)") \
  X(Q6_Vh_vmin_VhVh,                           V_VV,   VA,     "Vd32.h=vmin(Vu32.h,Vv32.h)") \
  X(Q6_Vub_vmin_VubVub,                        V_VV,   VA,     "Vd32.ub=vmin(Vu32.ub,Vv32.ub)") \
  X(Q6_Vuh_vmin_VuhVuh,                        V_VV,   VA,     "Vd32.uh=vmin(Vu32.uh,Vv32.uh)") \
  X(Q6_Vw_vmin_VwVw,                           V_VV,   VA,     "Vd32.w=vmin(Vu32.w,Vv32.w)") \
  X(Q6_Vb_vnavg_VbVb,                          V_VV,   VA,     "Vd32.b=vnavg(Vu32.b,Vv32.b)") \
  X(Q6_Vh_vnavg_VhVh,                          V_VV,   VA,     "Vd32.h=vnavg(Vu32.h,Vv32.h)") \
  X(Q6_Vb_vnavg_VubVub,                        V_VV,   VA,     "Vd32.b=vnavg(Vu32.ub,Vv32.ub)") \
  X(Q6_Vw_vnavg_VwVw,                          V_VV,   VA,     "Vd32.w=vnavg(Vu32.w,Vv32.w)") \
  X(Q6_Vw_vsatdw_VwVw,                         V_VV,   VA,     "Vd32.w=vsatdw(Vu32.w,Vv32.w)") \
  X(Q6_Vb_vsub_VbVb,                           V_VV,   VA,     "Vd32.b=vsub(Vu32.b,Vv32.b)") \
  X(Q6_Vb_vsub_VbVb_sat,                       V_VV,   VA,     "Vd32.b=vsub(Vu32.b,Vv32.b):sat") \
  X(Q6_Vh_vsub_VhVh,                           V_VV,   VA,     "Vd32.h=vsub(Vu32.h,Vv32.h)") \
  X(Q6_Ww_vsub_VhVh,                           W_VV,   VX_DV,  "Vdd32.w=vsub(Vu32.h,Vv32.h)") \
  X(Q6_Vh_vsub_VhVh_sat,                       V_VV,   VA,     "Vd32.h=vsub(Vu32.h,Vv32.h):sat") \
  X(Q6_Vub_vsub_VubVb_sat,                     V_VV,   VA,     "Vd32.ub=vsub(Vu32.ub,Vv32.b):sat") \
  X(Q6_Wh_vsub_VubVub,                         W_VV,   VX_DV,  "Vdd32.h=vsub(Vu32.ub,Vv32.ub)") \
  X(Q6_Vub_vsub_VubVub_sat,                    V_VV,   VA,     "Vd32.ub=vsub(Vu32.ub,Vv32.ub):sat") \
  X(Q6_Ww_vsub_VuhVuh,                         W_VV,   VX_DV,  "Vdd32.w=vsub(Vu32.uh,Vv32.uh)") \
  X(Q6_Vuh_vsub_VuhVuh_sat,                    V_VV,   VA,     "Vd32.uh=vsub(Vu32.uh,Vv32.uh):sat") \
  X(Q6_Vuw_vsub_VuwVuw_sat,                    V_VV,   VA,     "Vd32.uw=vsub(Vu32.uw,Vv32.uw):sat") \
  X(Q6_Vw_vsub_VwVw,                           V_VV,   VA,     "Vd32.w=vsub(Vu32.w,Vv32.w)") \
  X(Q6_Vw_vsub_VwVwQ_carry,                    V_VVq,  VA,     "Vd32.w=vsub(Vu32.w,Vv32.w,Qx4):carry") \
  X(Q6_Vw_vsub_VwVw_sat,                       V_VV,   VA,     "Vd32.w=vsub(Vu32.w,Vv32.w):sat") \
  X(Q6_Wb_vsub_WbWb,                           W_WW,   VA_DV,  "Vdd32.b=vsub(Vuu32.b,Vvv32.b)") \
  X(Q6_Wb_vsub_WbWb_sat,                       W_WW,   VA_DV,  "Vdd32.b=vsub(Vuu32.b,Vvv32.b):sat") \
  X(Q6_Wh_vsub_WhWh,                           W_WW,   VA_DV,  "Vdd32.h=vsub(Vuu32.h,Vvv32.h)") \
  X(Q6_Wh_vsub_WhWh_sat,                       W_WW,   VA_DV,  "Vdd32.h=vsub(Vuu32.h,Vvv32.h):sat") \
  X(Q6_Wub_vsub_WubWub_sat,                    W_WW,   VA_DV,  "Vdd32.ub=vsub(Vuu32.ub,Vvv32.ub):sat") \
  X(Q6_Wuh_vsub_WuhWuh_sat,                    W_WW,   VA_DV,  "Vdd32.uh=vsub(Vuu32.uh,Vvv32.uh):sat") \
  X(Q6_Wuw_vsub_WuwWuw_sat,                    W_WW,   VA_DV,  "Vdd32.uw=vsub(Vuu32.uw,Vvv32.uw):sat") \
  X(Q6_Ww_vsub_WwWw,                           W_WW,   VA_DV,  "Vdd32.w=vsub(Vuu32.w,Vvv32.w)") \
  X(Q6_Ww_vsub_WwWw_sat,                       W_WW,   VA_DV,  "Vdd32.w=vsub(Vuu32.w,Vvv32.w):sat") \
  /* Bitwise logic, predicates, compares and selects */ \
  X(Q6_Q_and_QQ,                               Q_QQ,   VA_DV,  "Qd4=and(Qs4,Qt4)") \
  X(Q6_Q_and_QQn,                              Q_QQ,   VA_DV,  "Qd4=and(Qs4,!Qt4)") \
  X(Q6_Q_not_Q,                                Q_Q,    VA,     "Qd4=not(Qs4)") \
  X(Q6_Q_or_QQ,                                Q_QQ,   VA_DV,  "Qd4=or(Qs4,Qt4)") \
  X(Q6_Q_or_QQn,                               Q_QQ,   VA_DV,  "Qd4=or(Qs4,!Qt4)") \
  X(Q6_Vb_prefixsum_Q,                         V_Q,    VS,     "Vd32.b=prefixsum(Qv4)") \
  X(Q6_Vh_prefixsum_Q,                         V_Q,    VS,     "Vd32.h=prefixsum(Qv4)") \
  X(Q6_Vw_prefixsum_Q,                         V_Q,    VS,     "Vd32.w=prefixsum(Qv4)") \
  X(Q6_V_vand_QR,                              V_QR,   VX,     "Vd32=vand(Qu4,Rt32)") \
  X(Q6_V_vand_QV,                              V_QV,   VA,     "Vd32=vand(Qv4,Vu32)") \
  X(Q6_V_vand_QnR,                             V_QR,   VX,     "Vd32=vand(!Qu4,Rt32)") \
  X(Q6_V_vand_QnV,                             V_QV,   VA,     "Vd32=vand(!Qv4,Vu32)") \
  X(Q6_Q_vand_VR,                              Q_VR,   VX,     "Qd4=vand(Vu32,Rt32)") \
  X(Q6_V_vand_VV,                              V_VV,   VA,     "Vd32=vand(Vu32,Vv32)") \
  X(Q6_Q_vandor_QVR,                           Q_QVR,  VX,     "Qx4|=vand(Vu32,Rt32)") \
  X(Q6_V_vandor_VQR,                           V_VQR,  VX,     "Vx32|=vand(Qu4,Rt32)") \
  X(Q6_V_vandor_VQnR,                          V_VQR,  VX,     "Vx32|=vand(!Qu4,Rt32)") \
  X(Q6_Q_vcmp_eq_VbVb,                         Q_VV,   VA,     "Qd4=vcmp.eq(Vu32.b,Vv32.b)") \
  X(Q6_Q_vcmp_eq_VhVh,                         Q_VV,   VA,     "Qd4=vcmp.eq(Vu32.h,Vv32.h)") \
  X(Q6_Q_vcmp_eq_VwVw,                         Q_VV,   VA,     "Qd4=vcmp.eq(Vu32.w,Vv32.w)") \
  X(Q6_Q_vcmp_eqand_QVbVb,                     Q_QVV,  VA,     "Qx4&=vcmp.eq(Vu32.b,Vv32.b)") \
  X(Q6_Q_vcmp_eqand_QVhVh,                     Q_QVV,  VA,     "Qx4&=vcmp.eq(Vu32.h,Vv32.h)") \
  X(Q6_Q_vcmp_eqand_QVwVw,                     Q_QVV,  VA,     "Qx4&=vcmp.eq(Vu32.w,Vv32.w)") \
  X(Q6_Q_vcmp_eqor_QVbVb,                      Q_QVV,  VA,     "Qx4|=vcmp.eq(Vu32.b,Vv32.b)") \
  X(Q6_Q_vcmp_eqor_QVhVh,                      Q_QVV,  VA,     "Qx4|=vcmp.eq(Vu32.h,Vv32.h)") \
  X(Q6_Q_vcmp_eqor_QVwVw,                      Q_QVV,  VA,     "Qx4|=vcmp.eq(Vu32.w,Vv32.w)") \
  X(Q6_Q_vcmp_eqxacc_QVbVb,                    Q_QVV,  VA,     "Qx4^=vcmp.eq(Vu32.b,Vv32.b)") \
  X(Q6_Q_vcmp_eqxacc_QVhVh,                    Q_QVV,  VA,     "Qx4^=vcmp.eq(Vu32.h,Vv32.h)") \
  X(Q6_Q_vcmp_eqxacc_QVwVw,                    Q_QVV,  VA,     "Qx4^=vcmp.eq(Vu32.w,Vv32.w)") \
  X(Q6_Q_vcmp_gt_VbVb,                         Q_VV,   VA,     "Qd4=vcmp.gt(Vu32.b,Vv32.b)") \
  X(Q6_Q_vcmp_gt_VhVh,                         Q_VV,   VA,     "Qd4=vcmp.gt(Vu32.h,Vv32.h)") \
  X(Q6_Q_vcmp_gt_VubVub,                       Q_VV,   VA,     "Qd4=vcmp.gt(Vu32.ub,Vv32.ub)") \
  X(Q6_Q_vcmp_gt_VuhVuh,                       Q_VV,   VA,     "Qd4=vcmp.gt(Vu32.uh,Vv32.uh)") \
  X(Q6_Q_vcmp_gt_VuwVuw,                       Q_VV,   VA,     "Qd4=vcmp.gt(Vu32.uw,Vv32.uw)") \
  X(Q6_Q_vcmp_gt_VwVw,                         Q_VV,   VA,     "Qd4=vcmp.gt(Vu32.w,Vv32.w)") \
  X(Q6_Q_vcmp_gtand_QVbVb,                     Q_QVV,  VA,     "Qx4&=vcmp.gt(Vu32.b,Vv32.b)") \
  X(Q6_Q_vcmp_gtand_QVhVh,                     Q_QVV,  VA,     "Qx4&=vcmp.gt(Vu32.h,Vv32.h)") \
  X(Q6_Q_vcmp_gtand_QVubVub,                   Q_QVV,  VA,     "Qx4&=vcmp.gt(Vu32.ub,Vv32.ub)") \
  X(Q6_Q_vcmp_gtand_QVuhVuh,                   Q_QVV,  VA,     "Qx4&=vcmp.gt(Vu32.uh,Vv32.uh)") \
  X(Q6_Q_vcmp_gtand_QVuwVuw,                   Q_QVV,  VA,     "Qx4&=vcmp.gt(Vu32.uw,Vv32.uw)") \
  X(Q6_Q_vcmp_gtand_QVwVw,                     Q_QVV,  VA,     "Qx4&=vcmp.gt(Vu32.w,Vv32.w)") \
  X(Q6_Q_vcmp_gtor_QVbVb,                      Q_QVV,  VA,     "Qx4|=vcmp.gt(Vu32.b,Vv32.b)") \
  X(Q6_Q_vcmp_gtor_QVhVh,                      Q_QVV,  VA,     "Qx4|=vcmp.gt(Vu32.h,Vv32.h)") \
  X(Q6_Q_vcmp_gtor_QVubVub,                    Q_QVV,  VA,     "Qx4|=vcmp.gt(Vu32.ub,Vv32.ub)") \
  X(Q6_Q_vcmp_gtor_QVuhVuh,                    Q_QVV,  VA,     "Qx4|=vcmp.gt(Vu32.uh,Vv32.uh)") \
  X(Q6_Q_vcmp_gtor_QVuwVuw,                    Q_QVV,  VA,     "Qx4|=vcmp.gt(Vu32.uw,Vv32.uw)") \
  X(Q6_Q_vcmp_gtor_QVwVw,                      Q_QVV,  VA,     "Qx4|=vcmp.gt(Vu32.w,Vv32.w)") \
  X(Q6_Q_vcmp_gtxacc_QVbVb,                    Q_QVV,  VA,     "Qx4^=vcmp.gt(Vu32.b,Vv32.b)") \
  X(Q6_Q_vcmp_gtxacc_QVhVh,                    Q_QVV,  VA,     "Qx4^=vcmp.gt(Vu32.h,Vv32.h)") \
  X(Q6_Q_vcmp_gtxacc_QVubVub,                  Q_QVV,  VA,     "Qx4^=vcmp.gt(Vu32.ub,Vv32.ub)") \
  X(Q6_Q_vcmp_gtxacc_QVuhVuh,                  Q_QVV,  VA,     "Qx4^=vcmp.gt(Vu32.uh,Vv32.uh)") \
  X(Q6_Q_vcmp_gtxacc_QVuwVuw,                  Q_QVV,  VA,     "Qx4^=vcmp.gt(Vu32.uw,Vv32.uw)") \
  X(Q6_Q_vcmp_gtxacc_QVwVw,                    Q_QVV,  VA,     "Qx4^=vcmp.gt(Vu32.w,Vv32.w)") \
  X(Q6_V_vmux_QVV,                             V_QVV,  VA,     "Vd32=vmux(Qt4,Vu32,Vv32)") \
  X(Q6_V_vnot_V,                               V_V,    VA,     "Vd32=vnot(Vu32)") \
  X(Q6_V_vor_VV,                               V_VV,   VA,     "Vd32=vor(Vu32,Vv32)") \
  X(Q6_Q_vsetq2_R,                             Q_R,    VP,     "Qd4=vsetq2(Rt32)") \
  X(Q6_Q_vsetq_R,                              Q_R,    VP,     "Qd4=vsetq(Rt32)") \
  X(Q6_Qb_vshuffe_QhQh,                        Q_QQ,   VA_DV,  "Qd4.b=vshuffe(Qs4.h,Qt4.h)") \
  X(Q6_Qh_vshuffe_QwQw,                        Q_QQ,   VA_DV,  "Qd4.h=vshuffe(Qs4.w,Qt4.w)") \
  X(Q6_W_vswap_QVV,                            W_QVV,  VA_DV,  "Vdd32=vswap(Qt4,Vu32,Vv32)") \
  X(Q6_V_vxor_VV,                              V_VV,   VA,     "Vd32=vxor(Vu32,Vv32)") \
  X(Q6_Q_xor_QQ,                               Q_QQ,   VA_DV,  "Qd4=xor(Qs4,Qt4)") \
  /* Multiplies, dot products and reductions */ \
  X(Q6_Vw_vdmpy_VhRb,                          V_VR,   VX,     "Vd32.w=vdmpy(Vu32.h,Rt32.b)") \
  X(Q6_Vw_vdmpy_VhRh_sat,                      V_VR,   VX,     "Vd32.w=vdmpy(Vu32.h,Rt32.h):sat") \
  X(Q6_Vw_vdmpy_VhRuh_sat,                     V_VR,   VX,     "Vd32.w=vdmpy(Vu32.h,Rt32.uh):sat") \
  X(Q6_Vw_vdmpy_VhVh_sat,                      V_VV,   VX,     "Vd32.w=vdmpy(Vu32.h,Vv32.h):sat") \
  X(Q6_Vh_vdmpy_VubRb,                         V_VR,   VX,     "Vd32.h=vdmpy(Vu32.ub,Rt32.b)") \
  X(Q6_Ww_vdmpy_WhRb,                          W_WR,   VX_DV,  "Vdd32.w=vdmpy(Vuu32.h,Rt32.b)") \
  X(Q6_Vw_vdmpy_WhRh_sat,                      V_WR,   VX_DV,  "Vd32.w=vdmpy(Vuu32.h,Rt32.h):sat") \
  X(Q6_Vw_vdmpy_WhRuh_sat,                     V_WR,   VX_DV,  "Vd32.w=vdmpy(Vuu32.h,Rt32.uh,#1):sat") \
  X(Q6_Wh_vdmpy_WubRb,                         W_WR,   VX_DV,  "Vdd32.h=vdmpy(Vuu32.ub,Rt32.b)") \
  X(Q6_Vh_vdmpyacc_VhVubRb,                    V_VVR,  VX,     "Vx32.h+=vdmpy(Vu32.ub,Rt32.b)") \
  X(Q6_Vw_vdmpyacc_VwVhRb,                     V_VVR,  VX,     "Vx32.w+=vdmpy(Vu32.h,Rt32.b)") \
  X(Q6_Vw_vdmpyacc_VwVhRh_sat,                 V_VVR,  VX,     "Vx32.w+=vdmpy(Vu32.h,Rt32.h):sat") \
  X(Q6_Vw_vdmpyacc_VwVhRuh_sat,                V_VVR,  VX,     "Vx32.w+=vdmpy(Vu32.h,Rt32.uh):sat") \
  X(Q6_Vw_vdmpyacc_VwVhVh_sat,                 V_VVV,  VX_DV,  "Vx32.w+=vdmpy(Vu32.h,Vv32.h):sat") \
  X(Q6_Vw_vdmpyacc_VwWhRh_sat,                 V_VWR,  VX_DV,  "Vx32.w+=vdmpy(Vuu32.h,Rt32.h):sat") \
  X(Q6_Vw_vdmpyacc_VwWhRuh_sat,                V_VWR,  VX_DV,  "Vx32.w+=vdmpy(Vuu32.h,Rt32.uh,#1):sat") \
  X(Q6_Wh_vdmpyacc_WhWubRb,                    W_WWR,  VX_DV,  "Vxx32.h+=vdmpy(Vuu32.ub,Rt32.b)") \
  X(Q6_Ww_vdmpyacc_WwWhRb,                     W_WWR,  VX_DV,  "Vxx32.w+=vdmpy(Vuu32.h,Rt32.b)") \
  X(Q6_Wuw_vdsad_WuhRuh,                       W_WR,   VX_DV,  "Vdd32.uw=vdsad(Vuu32.uh,Rt32.uh)") \
  X(Q6_Wuw_vdsadacc_WuwWuhRuh,                 W_WWR,  VX_DV,  "Vxx32.uw+=vdsad(Vuu32.uh,Rt32.uh)") \
  X(Q6_Vh_vlut4_VuhPh,                         V_VP,   VX_DV,  "Vd32.h=vlut4(Vu32.uh,Rtt32.h)") \
  X(Q6_Vh_vmpa_VhVhVhPh_sat,                   V_VVP,  VX_DV,  "Vx32.h=vmpa(Vx32.h,Vu32.h,Rtt32.h):sat") \
  X(Q6_Vh_vmpa_VhVhVuhPuh_sat,                 V_VVP,  VX_DV,  "Vx32.h=vmpa(Vx32.h,Vu32.uh,Rtt32.uh):sat") \
  X(Q6_Ww_vmpa_WhRb,                           W_WR,   VX_DV,  "Vdd32.w=vmpa(Vuu32.h,Rt32.b)") \
  X(Q6_Wh_vmpa_WubRb,                          W_WR,   VX_DV,  "Vdd32.h=vmpa(Vuu32.ub,Rt32.b)") \
  X(Q6_Wh_vmpa_WubRub,                         W_WR,   VX_DV,  "Vdd32.h=vmpa(Vuu32.ub,Rt32.ub)") \
  X(Q6_Wh_vmpa_WubWb,                          W_WW,   VX_DV,  "Vdd32.h=vmpa(Vuu32.ub,Vvv32.b)") \
  X(Q6_Wh_vmpa_WubWub,                         W_WW,   VX_DV,  "Vdd32.h=vmpa(Vuu32.ub,Vvv32.ub)") \
  X(Q6_Ww_vmpa_WuhRb,                          W_WR,   VX_DV,  "Vdd32.w=vmpa(Vuu32.uh,Rt32.b)") \
  X(Q6_Wh_vmpaacc_WhWubRb,                     W_WWR,  VX_DV,  "Vxx32.h+=vmpa(Vuu32.ub,Rt32.b)") \
  X(Q6_Wh_vmpaacc_WhWubRub,                    W_WWR,  VX_DV,  "Vxx32.h+=vmpa(Vuu32.ub,Rt32.ub)") \
  X(Q6_Ww_vmpaacc_WwWhRb,                      W_WWR,  VX_DV,  "Vxx32.w+=vmpa(Vuu32.h,Rt32.b)") \
  X(Q6_Ww_vmpaacc_WwWuhRb,                     W_WWR,  VX_DV,  "Vxx32.w+=vmpa(Vuu32.uh,Rt32.b)") \
  X(Q6_Vh_vmps_VhVhVuhPuh_sat,                 V_VVP,  VX_DV,  "Vx32.h=vmps(Vx32.h,Vu32.uh,Rtt32.uh):sat") \
  X(Q6_Wh_vmpy_VbVb,                           W_VV,   VX_DV,  "Vdd32.h=vmpy(Vu32.b,Vv32.b)") \
  X(Q6_Ww_vmpy_VhRh,                           W_VR,   VX_DV,  "Vdd32.w=vmpy(Vu32.h,Rt32.h)") \
  X(Q6_Vh_vmpy_VhRh_s1_rnd_sat,                V_VR,   VX,     "Vd32.h=vmpy(Vu32.h,Rt32.h):<<1:rnd:sat") \
  X(Q6_Vh_vmpy_VhRh_s1_sat,                    V_VR,   VX,     "Vd32.h=vmpy(Vu32.h,Rt32.h):<<1:sat") \
  X(Q6_Ww_vmpy_VhVh,                           W_VV,   VX_DV,  "Vdd32.w=vmpy(Vu32.h,Vv32.h)") \
  X(Q6_Vh_vmpy_VhVh_s1_rnd_sat,                V_VV,   VX,     "Vd32.h=vmpy(Vu32.h,Vv32.h):<<1:rnd:sat") \
  X(Q6_Ww_vmpy_VhVuh,                          W_VV,   VX_DV,  "Vdd32.w=vmpy(Vu32.h,Vv32.uh)") \
  X(Q6_Wh_vmpy_VubRb,                          W_VR,   VX_DV,  "Vdd32.h=vmpy(Vu32.ub,Rt32.b)") \
  X(Q6_Wuh_vmpy_VubRub,                        W_VR,   VX_DV,  "Vdd32.uh=vmpy(Vu32.ub,Rt32.ub)") \
  X(Q6_Wh_vmpy_VubVb,                          W_VV,   VX_DV,  "Vdd32.h=vmpy(Vu32.ub,Vv32.b)") \
  X(Q6_Wuh_vmpy_VubVub,                        W_VV,   VX_DV,  "Vdd32.uh=vmpy(Vu32.ub,Vv32.ub)") \
  X(Q6_Wuw_vmpy_VuhRuh,                        W_VR,   VX_DV,  "Vdd32.uw=vmpy(Vu32.uh,Rt32.uh)") \
  X(Q6_Wuw_vmpy_VuhVuh,                        W_VV,   VX_DV,  "Vdd32.uw=vmpy(Vu32.uh,Vv32.uh)") \
  X(Q6_Wh_vmpyacc_WhVbVb,                      W_WVV,  VX_DV,  "Vxx32.h+=vmpy(Vu32.b,Vv32.b)") \
  X(Q6_Wh_vmpyacc_WhVubRb,                     W_WVR,  VX_DV,  "Vxx32.h+=vmpy(Vu32.ub,Rt32.b)") \
  X(Q6_Wh_vmpyacc_WhVubVb,                     W_WVV,  VX_DV,  "Vxx32.h+=vmpy(Vu32.ub,Vv32.b)") \
  X(Q6_Wuh_vmpyacc_WuhVubRub,                  W_WVR,  VX_DV,  "Vxx32.uh+=vmpy(Vu32.ub,Rt32.ub)") \
  X(Q6_Wuh_vmpyacc_WuhVubVub,                  W_WVV,  VX_DV,  "Vxx32.uh+=vmpy(Vu32.ub,Vv32.ub)") \
  X(Q6_Wuw_vmpyacc_WuwVuhRuh,                  W_WVR,  VX_DV,  "Vxx32.uw+=vmpy(Vu32.uh,Rt32.uh)") \
  X(Q6_Wuw_vmpyacc_WuwVuhVuh,                  W_WVV,  VX_DV,  "Vxx32.uw+=vmpy(Vu32.uh,Vv32.uh)") \
  X(Q6_Ww_vmpyacc_WwVhRh,                      W_WVR,  VX_DV,  "Vxx32.w+=vmpy(Vu32.h,Rt32.h)") \
  X(Q6_Ww_vmpyacc_WwVhRh_sat,                  W_WVR,  VX_DV,  "Vxx32.w+=vmpy(Vu32.h,Rt32.h):sat") \
  X(Q6_Ww_vmpyacc_WwVhVh,                      W_WVV,  VX_DV,  "Vxx32.w+=vmpy(Vu32.h,Vv32.h)") \
  X(Q6_Ww_vmpyacc_WwVhVuh,                     W_WVV,  VX_DV,  "Vxx32.w+=vmpy(Vu32.h,Vv32.uh)") \
  X(Q6_Vuw_vmpye_VuhRuh,                       V_VR,   VX,     "Vd32.uw=vmpye(Vu32.uh,Rt32.uh)") \
  X(Q6_Vw_vmpye_VwVuh,                         V_VV,   VX_DV,  "Vd32.w=vmpye(Vu32.w,Vv32.uh)") \
  X(Q6_W_vmpye_VwVuh,                          W_VV,   VX_DV,  "Vdd32=vmpye(Vu32.w,Vv32.uh)") \
  X(Q6_Vuw_vmpyeacc_VuwVuhRuh,                 V_VVR,  VX,     "Vx32.uw+=vmpye(Vu32.uh,Rt32.uh)") \
  X(Q6_Vh_vmpyi_VhRb,                          V_VR,   VX,     "Vd32.h=vmpyi(Vu32.h,Rt32.b)") \
  X(Q6_Vh_vmpyi_VhVh,                          V_VV,   VX_DV,  "Vd32.h=vmpyi(Vu32.h,Vv32.h)") \
  X(Q6_Vw_vmpyi_VwRb,                          V_VR,   VX,     "Vd32.w=vmpyi(Vu32.w,Rt32.b)") \
  X(Q6_Vw_vmpyi_VwRh,                          V_VR,   VX_DV,  "Vd32.w=vmpyi(Vu32.w,Rt32.h)") \
  X(Q6_Vw_vmpyi_VwRub,                         V_VR,   VX,     "Vd32.w=vmpyi(Vu32.w,Rt32.ub)") \
  X(Q6_Vh_vmpyiacc_VhVhRb,                     V_VVR,  VX,     "Vx32.h+=vmpyi(Vu32.h,Rt32.b)") \
  X(Q6_Vh_vmpyiacc_VhVhVh,                     V_VVV,  VX_DV,  "Vx32.h+=vmpyi(Vu32.h,Vv32.h)") \
  X(Q6_Vw_vmpyiacc_VwVwRb,                     V_VVR,  VX,     "Vx32.w+=vmpyi(Vu32.w,Rt32.b)") \
  X(Q6_Vw_vmpyiacc_VwVwRh,                     V_VVR,  VX_DV,  "Vx32.w+=vmpyi(Vu32.w,Rt32.h)") \
  X(Q6_Vw_vmpyiacc_VwVwRub,                    V_VVR,  VX,     "Vx32.w+=vmpyi(Vu32.w,Rt32.ub)") \
  X(Q6_Vw_vmpyie_VwVuh,                        V_VV,   VX_DV,  "Vd32.w=vmpyie(Vu32.w,Vv32.uh)") \
  X(Q6_Vw_vmpyieacc_VwVwVh,                    V_VVV,  VX_DV,  "Vx32.w+=vmpyie(Vu32.w,Vv32.h)") \
  X(Q6_Vw_vmpyieacc_VwVwVuh,                   V_VVV,  VX_DV,  "Vx32.w+=vmpyie(Vu32.w,Vv32.uh)") \
  X(Q6_Vw_vmpyieo_VhVh,                        V_VV,   VX,     "Vd32.w=vmpyieo(Vu32.h,Vv32.h)") \
  X(Q6_Vw_vmpyio_VwVh,                         V_VV,   VX_DV,  "Vd32.w=vmpyio(Vu32.w,Vv32.h)") \
  X(Q6_Vw_vmpyo_VwVh_s1_rnd_sat,               V_VV,   VX_DV,  "Vd32.w=vmpyo(Vu32.w,Vv32.h):<<1:rnd:sat") \
  X(Q6_Vw_vmpyo_VwVh_s1_sat,                   V_VV,   VX_DV,  "Vd32.w=vmpyo(Vu32.w,Vv32.h):<<1:sat") \
  X(Q6_Vw_vmpyoacc_VwVwVh_s1_rnd_sat_shift,    V_VVV,  VX_DV,  "Vx32.w+=vmpyo(Vu32.w,Vv32.h):<<1:rnd:sat:shift") \
  X(Q6_Vw_vmpyoacc_VwVwVh_s1_sat_shift,        V_VVV,  VX_DV,  "Vx32.w+=vmpyo(Vu32.w,Vv32.h):<<1:sat:shift") \
  X(Q6_W_vmpyoacc_WVwVh,                       W_WVV,  VX_DV,  "Vxx32+=vmpyo(Vu32.w,Vv32.h)") \
  X(Q6_Vw_vrmpy_VbVb,                          V_VV,   VX,     "Vd32.w=vrmpy(Vu32.b,Vv32.b)") \
  X(Q6_Vw_vrmpy_VubRb,                         V_VR,   VX,     "Vd32.w=vrmpy(Vu32.ub,Rt32.b)") \
  X(Q6_Vuw_vrmpy_VubRub,                       V_VR,   VX,     "Vd32.uw=vrmpy(Vu32.ub,Rt32.ub)") \
  X(Q6_Vw_vrmpy_VubVb,                         V_VV,   VX,     "Vd32.w=vrmpy(Vu32.ub,Vv32.b)") \
  X(Q6_Vuw_vrmpy_VubVub,                       V_VV,   VX,     "Vd32.uw=vrmpy(Vu32.ub,Vv32.ub)") \
  X(Q6_Ww_vrmpy_WubRbI,                        W_WRI,  VX_DV,  "Vdd32.w=vrmpy(Vuu32.ub,Rt32.b,#u1)") \
  X(Q6_Wuw_vrmpy_WubRubI,                      W_WRI,  VX_DV,  "Vdd32.uw=vrmpy(Vuu32.ub,Rt32.ub,#u1)") \
  X(Q6_Vuw_vrmpyacc_VuwVubRub,                 V_VVR,  VX,     "Vx32.uw+=vrmpy(Vu32.ub,Rt32.ub)") \
  X(Q6_Vuw_vrmpyacc_VuwVubVub,                 V_VVV,  VX,     "Vx32.uw+=vrmpy(Vu32.ub,Vv32.ub)") \
  X(Q6_Vw_vrmpyacc_VwVbVb,                     V_VVV,  VX,     "Vx32.w+=vrmpy(Vu32.b,Vv32.b)") \
  X(Q6_Vw_vrmpyacc_VwVubRb,                    V_VVR,  VX,     "Vx32.w+=vrmpy(Vu32.ub,Rt32.b)") \
  X(Q6_Vw_vrmpyacc_VwVubVb,                    V_VVV,  VX,     "Vx32.w+=vrmpy(Vu32.ub,Vv32.b)") \
  X(Q6_Wuw_vrmpyacc_WuwWubRubI,                W_WWRI, VX_DV,  "Vxx32.uw+=vrmpy(Vuu32.ub,Rt32.ub,#u1)") \
  X(Q6_Ww_vrmpyacc_WwWubRbI,                   W_WWRI, VX_DV,  "Vxx32.w+=vrmpy(Vuu32.ub,Rt32.b,#u1)") \
  X(Q6_Wuw_vrsad_WubRubI,                      W_WRI,  VX_DV,  "Vdd32.uw=vrsad(Vuu32.ub,Rt32.ub,#u1)") \
  X(Q6_Wuw_vrsadacc_WuwWubRubI,                W_WWRI, VX_DV,  "Vxx32.uw+=vrsad(Vuu32.ub,Rt32.ub,#u1)") \
  X(Q6_Wh_vtmpy_WbRb,                          W_WR,   VX_DV,  "Vdd32.h=vtmpy(Vuu32.b,Rt32.b)") \
  X(Q6_Ww_vtmpy_WhRb,                          W_WR,   VX_DV,  "Vdd32.w=vtmpy(Vuu32.h,Rt32.b)") \
  X(Q6_Wh_vtmpy_WubRb,                         W_WR,   VX_DV,  "Vdd32.h=vtmpy(Vuu32.ub,Rt32.b)") \
  X(Q6_Wh_vtmpyacc_WhWbRb,                     W_WWR,  VX_DV,  "Vxx32.h+=vtmpy(Vuu32.b,Rt32.b)") \
  X(Q6_Wh_vtmpyacc_WhWubRb,                    W_WWR,  VX_DV,  "Vxx32.h+=vtmpy(Vuu32.ub,Rt32.b)") \
  X(Q6_Ww_vtmpyacc_WwWhRb,                     W_WWR,  VX_DV,  "Vxx32.w+=vtmpy(Vuu32.h,Rt32.b)") \
  /* Shifts, rounding, saturation and narrowing */ \
  X(Q6_Vh_vadd_vclb_VhVh,                      V_VV,   VS,     "Vd32.h=vadd(vclb(Vu32.h),Vv32.h)") \
  X(Q6_Vw_vadd_vclb_VwVw,                      V_VV,   VS,     "Vd32.w=vadd(vclb(Vu32.w),Vv32.w)") \
  X(Q6_Vh_vasl_VhR,                            V_VR,   VS,     "Vd32.h=vasl(Vu32.h,Rt32)") \
  X(Q6_Vh_vasl_VhVh,                           V_VV,   VS,     "Vd32.h=vasl(Vu32.h,Vv32.h)") \
  X(Q6_Vw_vasl_VwR,                            V_VR,   VS,     "Vd32.w=vasl(Vu32.w,Rt32)") \
  X(Q6_Vw_vasl_VwVw,                           V_VV,   VS,     "Vd32.w=vasl(Vu32.w,Vv32.w)") \
  X(Q6_Vh_vaslacc_VhVhR,                       V_VVR,  VS,     "Vx32.h+=vasl(Vu32.h,Rt32)") \
  X(Q6_Vw_vaslacc_VwVwR,                       V_VVR,  VS,     "Vx32.w+=vasl(Vu32.w,Rt32)") \
  X(Q6_Vh_vasr_VhR,                            V_VR,   VS,     "Vd32.h=vasr(Vu32.h,Rt32)") \
  X(Q6_Vh_vasr_VhVh,                           V_VV,   VS,     "Vd32.h=vasr(Vu32.h,Vv32.h)") \
  X(Q6_Vb_vasr_VhVhR_rnd_sat,                  V_VVR,  VS,     "Vd32.b=vasr(Vu32.h,Vv32.h,Rt8):rnd:sat") \
  X(Q6_Vub_vasr_VhVhR_rnd_sat,                 V_VVR,  VS,     "Vd32.ub=vasr(Vu32.h,Vv32.h,Rt8):rnd:sat") \
  X(Q6_Vb_vasr_VhVhR_sat,                      V_VVR,  VS,     "Vd32.b=vasr(Vu32.h,Vv32.h,Rt8):sat") \
  X(Q6_Vub_vasr_VhVhR_sat,                     V_VVR,  VS,     "Vd32.ub=vasr(Vu32.h,Vv32.h,Rt8):sat") \
  X(Q6_Vub_vasr_VuhVuhR_rnd_sat,               V_VVR,  VS,     "Vd32.ub=vasr(Vu32.uh,Vv32.uh,Rt8):rnd:sat") \
  X(Q6_Vub_vasr_VuhVuhR_sat,                   V_VVR,  VS,     "Vd32.ub=vasr(Vu32.uh,Vv32.uh,Rt8):sat") \
  X(Q6_Vuh_vasr_VuwVuwR_rnd_sat,               V_VVR,  VS,     "Vd32.uh=vasr(Vu32.uw,Vv32.uw,Rt8):rnd:sat") \
  X(Q6_Vuh_vasr_VuwVuwR_sat,                   V_VVR,  VS,     "Vd32.uh=vasr(Vu32.uw,Vv32.uw,Rt8):sat") \
  X(Q6_Vw_vasr_VwR,                            V_VR,   VS,     "Vd32.w=vasr(Vu32.w,Rt32)") \
  X(Q6_Vw_vasr_VwVw,                           V_VV,   VS,     "Vd32.w=vasr(Vu32.w,Vv32.w)") \
  X(Q6_Vh_vasr_VwVwR,                          V_VVR,  VS,     "Vd32.h=vasr(Vu32.w,Vv32.w,Rt8)") \
  X(Q6_Vh_vasr_VwVwR_rnd_sat,                  V_VVR,  VS,     "Vd32.h=vasr(Vu32.w,Vv32.w,Rt8):rnd:sat") \
  X(Q6_Vuh_vasr_VwVwR_rnd_sat,                 V_VVR,  VS,     "Vd32.uh=vasr(Vu32.w,Vv32.w,Rt8):rnd:sat") \
  X(Q6_Vh_vasr_VwVwR_sat,                      V_VVR,  VS,     "Vd32.h=vasr(Vu32.w,Vv32.w,Rt8):sat") \
  X(Q6_Vuh_vasr_VwVwR_sat,                     V_VVR,  VS,     "Vd32.uh=vasr(Vu32.w,Vv32.w,Rt8):sat") \
  X(Q6_Vh_vasracc_VhVhR,                       V_VVR,  VS,     "Vx32.h+=vasr(Vu32.h,Rt32)") \
  X(Q6_Vw_vasracc_VwVwR,                       V_VVR,  VS,     "Vx32.w+=vasr(Vu32.w,Rt32)") \
  X(Q6_Ww_vasrinto_WwVwVw,                     W_WVV,  VP_VS,  "Vxx32.w=vasrinto(Vu32.w,Vv32.w)") \
  X(Q6_Vuh_vcl0_Vuh,                           V_V,    VS,     "Vd32.uh=vcl0(Vu32.uh)") \
  X(Q6_Vuw_vcl0_Vuw,                           V_V,    VS,     "Vd32.uw=vcl0(Vu32.uw)") \
  X(Q6_Vh_vlsr_VhVh,                           V_VV,   VS,     "Vd32.h=vlsr(Vu32.h,Vv32.h)") \
  X(Q6_Vub_vlsr_VubR,                          V_VR,   VS,     "Vd32.ub=vlsr(Vu32.ub,Rt32)") \
  X(Q6_Vuh_vlsr_VuhR,                          V_VR,   VS,     "Vd32.uh=vlsr(Vu32.uh,Rt32)") \
  X(Q6_Vuw_vlsr_VuwR,                          V_VR,   VS,     "Vd32.uw=vlsr(Vu32.uw,Rt32)") \
  X(Q6_Vw_vlsr_VwVw,                           V_VV,   VS,     "Vd32.w=vlsr(Vu32.w,Vv32.w)") \
  X(Q6_Vh_vnormamt_Vh,                         V_V,    VS,     "Vd32.h=vnormamt(Vu32.h)") \
  X(Q6_Vw_vnormamt_Vw,                         V_V,    VS,     "Vd32.w=vnormamt(Vu32.w)") \
  X(Q6_Vb_vpack_VhVh_sat,                      V_VV,   VP,     "Vd32.b=vpack(Vu32.h,Vv32.h):sat") \
  X(Q6_Vub_vpack_VhVh_sat,                     V_VV,   VP,     "Vd32.ub=vpack(Vu32.h,Vv32.h):sat") \
  X(Q6_Vh_vpack_VwVw_sat,                      V_VV,   VP,     "Vd32.h=vpack(Vu32.w,Vv32.w):sat") \
  X(Q6_Vuh_vpack_VwVw_sat,                     V_VV,   VP,     "Vd32.uh=vpack(Vu32.w,Vv32.w):sat") \
  X(Q6_Vb_vpacke_VhVh,                         V_VV,   VP,     "Vd32.b=vpacke(Vu32.h,Vv32.h)") \
  X(Q6_Vh_vpacke_VwVw,                         V_VV,   VP,     "Vd32.h=vpacke(Vu32.w,Vv32.w)") \
  X(Q6_Vb_vpacko_VhVh,                         V_VV,   VP,     "Vd32.b=vpacko(Vu32.h,Vv32.h)") \
  X(Q6_Vh_vpacko_VwVw,                         V_VV,   VP,     "Vd32.h=vpacko(Vu32.w,Vv32.w)") \
  X(Q6_Vh_vpopcount_Vh,                        V_V,    VS,     "Vd32.h=vpopcount(Vu32.h)") \
  X(Q6_Vuw_vrotr_VuwVuw,                       V_VV,   VS,     "Vd32.uw=vrotr(Vu32.uw,Vv32.uw)") \
  X(Q6_Vb_vround_VhVh_sat,                     V_VV,   VS,     "Vd32.b=vround(Vu32.h,Vv32.h):sat") \
  X(Q6_Vub_vround_VhVh_sat,                    V_VV,   VS,     "Vd32.ub=vround(Vu32.h,Vv32.h):sat") \
  X(Q6_Vub_vround_VuhVuh_sat,                  V_VV,   VS,     "Vd32.ub=vround(Vu32.uh,Vv32.uh):sat") \
  X(Q6_Vuh_vround_VuwVuw_sat,                  V_VV,   VS,     "Vd32.uh=vround(Vu32.uw,Vv32.uw):sat") \
  X(Q6_Vh_vround_VwVw_sat,                     V_VV,   VS,     "Vd32.h=vround(Vu32.w,Vv32.w):sat") \
  X(Q6_Vuh_vround_VwVw_sat,                    V_VV,   VS,     "Vd32.uh=vround(Vu32.w,Vv32.w):sat") \
  X(Q6_Vub_vsat_VhVh,                          V_VV,   VA,     "Vd32.ub=vsat(Vu32.h,Vv32.h)") \
  X(Q6_Vuh_vsat_VuwVuw,                        V_VV,   VA,     "Vd32.uh=vsat(Vu32.uw,Vv32.uw)") \
  X(Q6_Vh_vsat_VwVw,                           V_VV,   VA,     "Vd32.h=vsat(Vu32.w,Vv32.w)") \
  /* Permutes, alignment, shuffles, deals, sign and zero extension */ \
  X(Q6_V_valign_VVI,                           V_VVI,  VP,     "Vd32=valign(Vu32,Vv32,#u3)") \
  X(Q6_V_valign_VVR,                           V_VVR,  VP,     "Vd32=valign(Vu32,Vv32,Rt8)") \
  X(Q6_W_vdeal_VVR,                            W_VVR,  VP_VS,  "Vdd32=vdeal(Vu32,Vv32,Rt8)") \
  X(Q6_Vb_vdeal_Vb,                            V_V,    VP,     "Vd32.b=vdeal(Vu32.b)") \
  X(Q6_Vh_vdeal_Vh,                            V_V,    VP,     "Vd32.h=vdeal(Vu32.h)") \
  X(Q6_Vb_vdeale_VbVb,                         V_VV,   VP,     "Vd32.b=vdeale(Vu32.b,Vv32.b)") \
  X(Q6_V_vdelta_VV,                            V_VV,   VP,     "Vd32=vdelta(Vu32,Vv32)") \
  X(Q6_V_vlalign_VVI,                          V_VVI,  VP,     "Vd32=vlalign(Vu32,Vv32,#u3)") \
  X(Q6_V_vlalign_VVR,                          V_VVR,  VP,     "Vd32=vlalign(Vu32,Vv32,Rt8)") \
  X(Q6_V_vrdelta_VV,                           V_VV,   VP,     "Vd32=vrdelta(Vu32,Vv32)") \
  X(Q6_V_vror_VR,                              V_VR,   VP,     "Vd32=vror(Vu32,Rt32)") \
  X(Q6_W_vshuff_VVR,                           W_VVR,  VP_VS,  "Vdd32=vshuff(Vu32,Vv32,Rt8)") \
  X(Q6_Vb_vshuff_Vb,                           V_V,    VP,     "Vd32.b=vshuff(Vu32.b)") \
  X(Q6_Vh_vshuff_Vh,                           V_V,    VP,     "Vd32.h=vshuff(Vu32.h)") \
  X(Q6_Vb_vshuffe_VbVb,                        V_VV,   VA,     "Vd32.b=vshuffe(Vu32.b,Vv32.b)") \
  X(Q6_Vh_vshuffe_VhVh,                        V_VV,   VA,     "Vd32.h=vshuffe(Vu32.h,Vv32.h)") \
  X(Q6_Vb_vshuffo_VbVb,                        V_VV,   VA,     "Vd32.b=vshuffo(Vu32.b,Vv32.b)") \
  X(Q6_Vh_vshuffo_VhVh,                        V_VV,   VA,     "Vd32.h=vshuffo(Vu32.h,Vv32.h)") \
  X(Q6_Wb_vshuffoe_VbVb,                       W_VV,   VA_DV,  "Vdd32.b=vshuffoe(Vu32.b,Vv32.b)") \
  X(Q6_Wh_vshuffoe_VhVh,                       W_VV,   VA_DV,  "Vdd32.h=vshuffoe(Vu32.h,Vv32.h)") \
  X(Q6_Wh_vsxt_Vb,                             W_V,    VA_DV,  "Vdd32.h=vsxt(Vu32.b)") \
  X(Q6_Ww_vsxt_Vh,                             W_V,    VA_DV,  "Vdd32.w=vsxt(Vu32.h)") \
  X(Q6_Wh_vunpack_Vb,                          W_V,    VP_VS,  "Vdd32.h=vunpack(Vu32.b)") \
  X(Q6_Ww_vunpack_Vh,                          W_V,    VP_VS,  "Vdd32.w=vunpack(Vu32.h)") \
  X(Q6_Wuh_vunpack_Vub,                        W_V,    VP_VS,  "Vdd32.uh=vunpack(Vu32.ub)") \
  X(Q6_Wuw_vunpack_Vuh,                        W_V,    VP_VS,  "Vdd32.uw=vunpack(Vu32.uh)") \
  X(Q6_Wh_vunpackoor_WhVb,                     W_WV,   VP_VS,  "Vxx32.h|=vunpacko(Vu32.b)") \
  X(Q6_Ww_vunpackoor_WwVh,                     W_WV,   VP_VS,  "Vxx32.w|=vunpacko(Vu32.h)") \
  X(Q6_Wuh_vzxt_Vub,                           W_V,    VA_DV,  "Vdd32.uh=vzxt(Vu32.ub)") \
  X(Q6_Wuw_vzxt_Vuh,                           W_V,    VA_DV,  "Vdd32.uw=vzxt(Vu32.uh)") \
  /* Table lookups */ \
  X(Q6_Wh_vlut16_VbVhI,                        W_VVI,  VP_VS,  "Vdd32.h=vlut16(Vu32.b,Vv32.h,#u3)") \
  X(Q6_Wh_vlut16_VbVhR,                        W_VVR,  VP_VS,  "Vdd32.h=vlut16(Vu32.b,Vv32.h,Rt8)") \
  X(Q6_Wh_vlut16_VbVhR_nomatch,                W_VVR,  VP_VS,  "Vdd32.h=vlut16(Vu32.b,Vv32.h,Rt8):nomatch") \
  X(Q6_Wh_vlut16or_WhVbVhI,                    W_WVVI, VP_VS,  "Vxx32.h|=vlut16(Vu32.b,Vv32.h,#u3)") \
  X(Q6_Wh_vlut16or_WhVbVhR,                    W_WVVR, VP_VS,  "Vxx32.h|=vlut16(Vu32.b,Vv32.h,Rt8)") \
  X(Q6_Vb_vlut32_VbVbI,                        V_VVI,  VP,     "Vd32.b=vlut32(Vu32.b,Vv32.b,#u3)") \
  X(Q6_Vb_vlut32_VbVbR,                        V_VVR,  VP,     "Vd32.b=vlut32(Vu32.b,Vv32.b,Rt8)") \
  X(Q6_Vb_vlut32_VbVbR_nomatch,                V_VVR,  VP,     "Vd32.b=vlut32(Vu32.b,Vv32.b,Rt8):nomatch") \
  X(Q6_Vb_vlut32or_VbVbVbI,                    V_VVVI, VP_VS,  "Vx32.b|=vlut32(Vu32.b,Vv32.b,#u3)") \
  X(Q6_Vb_vlut32or_VbVbVbR,                    V_VVVR, VP_VS,  "Vx32.b|=vlut32(Vu32.b,Vv32.b,Rt8)") \
  /* Gathers from VTCM (V65 and later), each with the aligned store of its vtmp */ \
  X(Q6_vgather_ARMVh,                          N_ARRV, GATHER_H, "vtmp.h=vgather(Rt32,Mu2,Vv32.h).h; vmem(Rs32+#0)=vtmp.new") \
  X(Q6_vgather_ARMVw,                          N_ARRV, GATHER_W, "vtmp.w=vgather(Rt32,Mu2,Vv32.w).w; vmem(Rs32+#0)=vtmp.new") \
  X(Q6_vgather_ARMWw,                          N_ARRW, GATHER_H, "vtmp.h=vgather(Rt32,Mu2,Vvv32.w).h; vmem(Rs32+#0)=vtmp.new")

typedef enum oprig_dsp_opcode {
#define OPRIG_DSP_OPCODE(name, shape, cls, instruction) OPRIG_DSP_OP_##name,
  OPRIG_DSP_INTRINSICS(OPRIG_DSP_OPCODE)
#undef OPRIG_DSP_OPCODE
  OPRIG_DSP_NUM_OPCODES
} oprig_dsp_opcode;

#if !defined(__hexagon__)

/* ---- The intrinsics on the simulator ---------------------------------------
 * One inline function per line of OPRIG_DSP_INTRINSICS, each a call of
 * exec(). The entry points reach the intrinsics through one pointer per
 * shared library, set by oprig_dsp_begin() (hidden and weak, so every file of
 * a package shares it and no two packages do). */
__attribute__((weak, visibility("hidden"))) const oprig_dsp_api_v1* oprig_dsp_entry_points = 0;

/* d_bytes: the result's size, zeroed when oprig_dsp_begin() was never called. */
static inline void oprig_dsp_exec(uint32_t opcode, void* d, size_t d_bytes, const void* a, const void* b,
                                  const void* c, int32_t r, int32_t s) {
  const oprig_dsp_api_v1* api = __atomic_load_n(&oprig_dsp_entry_points, __ATOMIC_RELAXED);
  size_t i;
  if (api != 0) {
    api->exec(opcode, d, a, b, c, r, s);
    return;
  }
  for (i = 0; i < d_bytes; ++i) ((unsigned char*)d)[i] = 0;
}

#define OPRIG_DSP_LO(p) ((int32_t)(uint32_t)((unsigned long long)(p) & 0xffffffffu))
#define OPRIG_DSP_HI(p) ((int32_t)(uint32_t)((unsigned long long)(p) >> 32))
#define OPRIG_DSP_OP(n) OPRIG_DSP_OP_##n
/* One macro per shape: the intrinsic's C signature and how its operands reach exec(). */
#define OPRIG_DSP_SHAPE_V_0(n) \
  static inline HVX_Vector n(void) { HVX_Vector d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, 0, 0, 0, 0, 0); return d; }
#define OPRIG_DSP_SHAPE_W_0(n) \
  static inline HVX_VectorPair n(void) { HVX_VectorPair d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, 0, 0, 0, 0, 0); return d; }
#define OPRIG_DSP_SHAPE_1(n, R, A) \
  static inline R n(OPRIG_DSP_IN(A) u) { R d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &u, 0, 0, 0, 0); return d; }
#define OPRIG_DSP_SHAPE_2(n, R, A, B) \
  static inline R n(OPRIG_DSP_IN(A) u, OPRIG_DSP_IN(B) v) { R d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &u, &v, 0, 0, 0); return d; }
#define OPRIG_DSP_SHAPE_3(n, R, A, B, C) \
  static inline R n(OPRIG_DSP_IN(A) x, OPRIG_DSP_IN(B) u, OPRIG_DSP_IN(C) v) { R d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &x, &u, &v, 0, 0); return d; }
#define OPRIG_DSP_SHAPE_0R(n, R) \
  static inline R n(int r) { R d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, 0, 0, 0, r, 0); return d; }
#define OPRIG_DSP_SHAPE_1R(n, R, A) \
  static inline R n(OPRIG_DSP_IN(A) u, int r) { R d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &u, 0, 0, r, 0); return d; }
#define OPRIG_DSP_SHAPE_2R(n, R, A, B) \
  static inline R n(OPRIG_DSP_IN(A) x, OPRIG_DSP_IN(B) u, int r) { R d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &x, &u, 0, r, 0); return d; }
#define OPRIG_DSP_SHAPE_3R(n, R, A, B, C) \
  static inline R n(OPRIG_DSP_IN(A) x, OPRIG_DSP_IN(B) u, OPRIG_DSP_IN(C) v, int r) { R d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &x, &u, &v, r, 0); return d; }
#define OPRIG_DSP_SHAPE_1RI(n, R, A) \
  static inline R n(OPRIG_DSP_IN(A) u, int r, int i) { R d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &u, 0, 0, r, i); return d; }
#define OPRIG_DSP_SHAPE_2RI(n, R, A, B) \
  static inline R n(OPRIG_DSP_IN(A) x, OPRIG_DSP_IN(B) u, int r, int i) { R d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &x, &u, 0, r, i); return d; }
#define OPRIG_DSP_SHAPE_1P(n, R, A) \
  static inline R n(OPRIG_DSP_IN(A) u, long long p) { \
    R d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &u, 0, 0, OPRIG_DSP_LO(p), OPRIG_DSP_HI(p)); return d; }
#define OPRIG_DSP_SHAPE_2P(n, R, A, B) \
  static inline R n(OPRIG_DSP_IN(A) x, OPRIG_DSP_IN(B) u, long long p) { \
    R d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &x, &u, 0, OPRIG_DSP_LO(p), OPRIG_DSP_HI(p)); return d; }

#define OPRIG_DSP_SHAPE_V_V(n) OPRIG_DSP_SHAPE_1(n, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_V_W(n) OPRIG_DSP_SHAPE_1(n, HVX_Vector, HVX_VectorPair)
#define OPRIG_DSP_SHAPE_V_Q(n) OPRIG_DSP_SHAPE_1(n, HVX_Vector, HVX_VectorPred)
#define OPRIG_DSP_SHAPE_W_V(n) OPRIG_DSP_SHAPE_1(n, HVX_VectorPair, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_W(n) OPRIG_DSP_SHAPE_1(n, HVX_VectorPair, HVX_VectorPair)
#define OPRIG_DSP_SHAPE_Q_Q(n) OPRIG_DSP_SHAPE_1(n, HVX_VectorPred, HVX_VectorPred)
#define OPRIG_DSP_SHAPE_V_VV(n) OPRIG_DSP_SHAPE_2(n, HVX_Vector, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_VV(n) OPRIG_DSP_SHAPE_2(n, HVX_VectorPair, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_Q_VV(n) OPRIG_DSP_SHAPE_2(n, HVX_VectorPred, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_WW(n) OPRIG_DSP_SHAPE_2(n, HVX_VectorPair, HVX_VectorPair, HVX_VectorPair)
#define OPRIG_DSP_SHAPE_W_WV(n) OPRIG_DSP_SHAPE_2(n, HVX_VectorPair, HVX_VectorPair, HVX_Vector)
#define OPRIG_DSP_SHAPE_V_QV(n) OPRIG_DSP_SHAPE_2(n, HVX_Vector, HVX_VectorPred, HVX_Vector)
#define OPRIG_DSP_SHAPE_Q_QQ(n) OPRIG_DSP_SHAPE_2(n, HVX_VectorPred, HVX_VectorPred, HVX_VectorPred)
#define OPRIG_DSP_SHAPE_V_VVV(n) OPRIG_DSP_SHAPE_3(n, HVX_Vector, HVX_Vector, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_V_QVV(n) OPRIG_DSP_SHAPE_3(n, HVX_Vector, HVX_VectorPred, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_Q_QVV(n) OPRIG_DSP_SHAPE_3(n, HVX_VectorPred, HVX_VectorPred, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_QVV(n) OPRIG_DSP_SHAPE_3(n, HVX_VectorPair, HVX_VectorPred, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_WVV(n) OPRIG_DSP_SHAPE_3(n, HVX_VectorPair, HVX_VectorPair, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_V_VVQ(n) OPRIG_DSP_SHAPE_3(n, HVX_Vector, HVX_Vector, HVX_Vector, HVX_VectorPred)
#define OPRIG_DSP_SHAPE_V_R(n) OPRIG_DSP_SHAPE_0R(n, HVX_Vector)
#define OPRIG_DSP_SHAPE_Q_R(n) OPRIG_DSP_SHAPE_0R(n, HVX_VectorPred)
#define OPRIG_DSP_SHAPE_V_VR(n) OPRIG_DSP_SHAPE_1R(n, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_VR(n) OPRIG_DSP_SHAPE_1R(n, HVX_VectorPair, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_WR(n) OPRIG_DSP_SHAPE_1R(n, HVX_VectorPair, HVX_VectorPair)
#define OPRIG_DSP_SHAPE_V_WR(n) OPRIG_DSP_SHAPE_1R(n, HVX_Vector, HVX_VectorPair)
#define OPRIG_DSP_SHAPE_Q_VR(n) OPRIG_DSP_SHAPE_1R(n, HVX_VectorPred, HVX_Vector)
#define OPRIG_DSP_SHAPE_V_QR(n) OPRIG_DSP_SHAPE_1R(n, HVX_Vector, HVX_VectorPred)
#define OPRIG_DSP_SHAPE_V_VVR(n) OPRIG_DSP_SHAPE_2R(n, HVX_Vector, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_V_VVI(n) OPRIG_DSP_SHAPE_2R(n, HVX_Vector, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_VVR(n) OPRIG_DSP_SHAPE_2R(n, HVX_VectorPair, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_VVI(n) OPRIG_DSP_SHAPE_2R(n, HVX_VectorPair, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_WVR(n) OPRIG_DSP_SHAPE_2R(n, HVX_VectorPair, HVX_VectorPair, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_WWR(n) OPRIG_DSP_SHAPE_2R(n, HVX_VectorPair, HVX_VectorPair, HVX_VectorPair)
#define OPRIG_DSP_SHAPE_V_VWR(n) OPRIG_DSP_SHAPE_2R(n, HVX_Vector, HVX_Vector, HVX_VectorPair)
#define OPRIG_DSP_SHAPE_V_VQR(n) OPRIG_DSP_SHAPE_2R(n, HVX_Vector, HVX_Vector, HVX_VectorPred)
#define OPRIG_DSP_SHAPE_Q_QVR(n) OPRIG_DSP_SHAPE_2R(n, HVX_VectorPred, HVX_VectorPred, HVX_Vector)
#define OPRIG_DSP_SHAPE_V_VVVR(n) OPRIG_DSP_SHAPE_3R(n, HVX_Vector, HVX_Vector, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_V_VVVI(n) OPRIG_DSP_SHAPE_3R(n, HVX_Vector, HVX_Vector, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_WVVR(n) OPRIG_DSP_SHAPE_3R(n, HVX_VectorPair, HVX_VectorPair, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_WVVI(n) OPRIG_DSP_SHAPE_3R(n, HVX_VectorPair, HVX_VectorPair, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_W_WRI(n) OPRIG_DSP_SHAPE_1RI(n, HVX_VectorPair, HVX_VectorPair)
#define OPRIG_DSP_SHAPE_W_WWRI(n) OPRIG_DSP_SHAPE_2RI(n, HVX_VectorPair, HVX_VectorPair, HVX_VectorPair)
#define OPRIG_DSP_SHAPE_V_VP(n) OPRIG_DSP_SHAPE_1P(n, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_V_VVP(n) OPRIG_DSP_SHAPE_2P(n, HVX_Vector, HVX_Vector, HVX_Vector)
#define OPRIG_DSP_SHAPE_R_VR(n) \
  static inline int n(OPRIG_DSP_IN(HVX_Vector) u, int r) { int32_t d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &u, 0, 0, r, 0); return d; }
#define OPRIG_DSP_SHAPE_V_VVq(n) \
  static inline HVX_Vector n(OPRIG_DSP_IN(HVX_Vector) u, OPRIG_DSP_IN(HVX_Vector) v, HVX_VectorPred* q) { \
    HVX_Vector d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, &u, &v, q, 0, 0); return d; }
#define OPRIG_DSP_SHAPE_V_A(n) \
  static inline HVX_Vector n(const void* address) { \
    HVX_Vector d; oprig_dsp_exec(OPRIG_DSP_OP(n), &d, sizeof d, address, 0, 0, 0, 0); return d; }
#define OPRIG_DSP_SHAPE_N_AV(n) \
  static inline void n(void* address, OPRIG_DSP_IN(HVX_Vector) v) { oprig_dsp_exec(OPRIG_DSP_OP(n), 0, 0, address, &v, 0, 0, 0); }
#define OPRIG_DSP_SHAPE_N_QAV(n) \
  static inline void n(OPRIG_DSP_IN(HVX_VectorPred) q, HVX_Vector* address, OPRIG_DSP_IN(HVX_Vector) v) { \
    oprig_dsp_exec(OPRIG_DSP_OP(n), 0, 0, &q, address, &v, 0, 0); }

/* A gather: Rs the VTCM line it stores to, Rt the region's base (a 32-bit
 * address, as on Hexagon: the simulator finds the VTCM region whose address
 * ends in those bits), Mu the region's length - 1, Vv the byte offsets. */
#define OPRIG_DSP_SHAPE_N_ARRV(n) \
  static inline void n(HVX_Vector* Rs, int Rt, int Mu, OPRIG_DSP_IN(HVX_Vector) Vv) { \
    oprig_dsp_exec(OPRIG_DSP_OP(n), 0, 0, Rs, &Vv, 0, Rt, Mu); }

/* The same with word offsets for halfword elements: lo(Vvv) holds the even
 * elements' offsets, hi(Vvv) the odd ones'. */
#define OPRIG_DSP_SHAPE_N_ARRW(n) \
  static inline void n(HVX_Vector* Rs, int Rt, int Mu, OPRIG_DSP_IN(HVX_VectorPair) Vvv) { \
    oprig_dsp_exec(OPRIG_DSP_OP(n), 0, 0, Rs, &Vvv, 0, Rt, Mu); }

#define OPRIG_DSP_DEFINE(name, shape, cls, instruction) OPRIG_DSP_SHAPE_##shape(name)
OPRIG_DSP_INTRINSICS(OPRIG_DSP_DEFINE)
#undef OPRIG_DSP_DEFINE

/* ---- The kernel's side ---------------------------------------------------- */

/* Non-zero when ctx comes from a backend with the simulator (answer
 * UNSUPPORTED from create() otherwise). */
static inline int oprig_dsp_available(const oprig_backend_context* ctx) {
  return ctx != 0 && ctx->struct_size >= offsetof(oprig_backend_context, dsp) + sizeof ctx->dsp &&
         ctx->dsp != 0 && ctx->dsp->struct_size >= sizeof(oprig_dsp_api_v1) &&
         ctx->dsp->version >= OPRIG_DSP_API_VERSION;
}

/* First call of execute(): connects this library's intrinsics to the
 * simulator. OK, or UNSUPPORTED without a simulator, or BACKEND_ERROR when
 * none is bound to this thread (called outside execute()). */
static inline oprig_status oprig_dsp_begin(const oprig_backend_context* ctx) {
  if (!oprig_dsp_available(ctx)) return OPRIG_STATUS_UNSUPPORTED;
  __atomic_store_n(&oprig_dsp_entry_points, ctx->dsp, __ATOMIC_RELAXED);
  return ctx->dsp->begin();
}

/* Last call of execute(): writes the simulated cycles to info->dsp_cycles and
 * returns OK, or BACKEND_ERROR after a fault. */
static inline oprig_status oprig_dsp_end(oprig_execute_info* info) {
  const oprig_dsp_api_v1* api = __atomic_load_n(&oprig_dsp_entry_points, __ATOMIC_RELAXED);
  uint64_t cycles = 0;
  if (api == 0) return OPRIG_STATUS_INTERNAL; /* oprig_dsp_begin() was never called */
  oprig_status status = api->end(&cycles);
  if (info != 0) info->dsp_cycles = cycles;
  return status;
}

/* Makes memory the kernel owns visible to the DSP: read-only, or writable. */
static inline void oprig_dsp_map(const void* base, size_t bytes, const char* name) {
  const oprig_dsp_api_v1* api = __atomic_load_n(&oprig_dsp_entry_points, __ATOMIC_RELAXED);
  if (api != 0) api->map(base, bytes, 0, name);
}
static inline void oprig_dsp_map_writable(void* base, size_t bytes, const char* name) {
  const oprig_dsp_api_v1* api = __atomic_load_n(&oprig_dsp_entry_points, __ATOMIC_RELAXED);
  if (api != 0) api->map(base, bytes, 1, name);
}

/* Declares kernel-owned memory as VTCM for this execute (writable, up to
 * OPRIG_DSP_VTCM_BYTES in all): what the gathers read from and store to. On
 * Hexagon the kernel would get such memory from the VTCM allocator; here it
 * is the kernel's own buffer, so whatever the kernel puts there at execute
 * must be written there with vector stores at execute to be counted (see
 * "VTCM" at the top). */
static inline void oprig_dsp_map_vtcm(void* base, size_t bytes, const char* name) {
  const oprig_dsp_api_v1* api = __atomic_load_n(&oprig_dsp_entry_points, __ATOMIC_RELAXED);
  if (api != 0) api->map(base, bytes, OPRIG_DSP_MAP_WRITABLE | OPRIG_DSP_MAP_VTCM, name);
}

/* Non-zero after a fault: a long loop may stop early (it need not). */
static inline int oprig_dsp_failed(void) {
  const oprig_dsp_api_v1* api = __atomic_load_n(&oprig_dsp_entry_points, __ATOMIC_RELAXED);
  return api != 0 && api->failed() != 0;
}

#else /* __hexagon__: the compiler's intrinsics; memory is memory */

static inline HVX_Vector oprig_vmem_load(const void* address) {
  return *(const HVX_Vector*)((uintptr_t)address & ~(uintptr_t)(OPRIG_DSP_VECTOR_BYTES - 1));
}
static inline HVX_Vector oprig_vmemu_load(const void* address) { return *(const HVX_UVector*)address; }
static inline void oprig_vmem_store(void* address, HVX_Vector v) {
  *(HVX_Vector*)((uintptr_t)address & ~(uintptr_t)(OPRIG_DSP_VECTOR_BYTES - 1)) = v;
}
static inline void oprig_vmemu_store(void* address, HVX_Vector v) { *(HVX_UVector*)address = v; }
static inline int oprig_dsp_available(const oprig_backend_context* ctx) { return ctx != 0; }
static inline oprig_status oprig_dsp_begin(const oprig_backend_context* ctx) {
  (void)ctx;
  return OPRIG_STATUS_OK;
}
static inline oprig_status oprig_dsp_end(oprig_execute_info* info) {
  if (info != 0) info->dsp_cycles = 0;
  return OPRIG_STATUS_OK;
}
static inline void oprig_dsp_map(const void* base, size_t bytes, const char* name) { (void)base, (void)bytes, (void)name; }
static inline void oprig_dsp_map_writable(void* base, size_t bytes, const char* name) { (void)base, (void)bytes, (void)name; }
static inline void oprig_dsp_map_vtcm(void* base, size_t bytes, const char* name) { (void)base, (void)bytes, (void)name; }
static inline int oprig_dsp_failed(void) { return 0; }

#endif /* __hexagon__ */

/* ---- Helpers written with the intrinsics (the same bits on Hexagon) ---------- */

/* The vector of bytes [p, p + min(n, 128)) of a buffer that ends at p + n;
 * bytes past the buffer are unspecified. An aligned p takes an aligned load.
 * Never touches a line holding none of the buffer (which can fault on
 * hardware): a vector that would run into such a line is read from its
 * aligned line and rotated into place. */
static inline HVX_Vector oprig_dsp_load_bytes(const void* p, size_t n) {
  const uintptr_t a = (uintptr_t)p, line = ~(uintptr_t)(OPRIG_DSP_VECTOR_BYTES - 1);
  if (n == 0) return Q6_V_vzero();
  if ((a & ~line) == 0) return oprig_vmem_load(p);
  if (((a + OPRIG_DSP_VECTOR_BYTES - 1) & line) <= ((a + n - 1) & line)) return oprig_vmemu_load(p);
  return Q6_V_vror_VR(oprig_vmem_load(p), (int)(a & ~line));
}

/* Stores the first min(n, 128) bytes of v at p, any alignment, writing no
 * other byte. A whole vector takes one (aligned or unaligned) store; fewer
 * bytes take predicated aligned stores, HVX having no unaligned predicated
 * store: the vector is rotated to p's offset (vlalign) and written with one
 * or two of them. */
static inline void oprig_dsp_store_bytes(void* p, size_t n, OPRIG_DSP_IN(HVX_Vector) v) {
  const uintptr_t a = (uintptr_t)p;
  const int offset = (int)(a & (OPRIG_DSP_VECTOR_BYTES - 1));
  const int end = offset + (int)n;
  HVX_Vector rotated;
  HVX_VectorPred before;
  if (n >= OPRIG_DSP_VECTOR_BYTES) {
    if (offset == 0)
      oprig_vmem_store(p, v);
    else
      oprig_vmemu_store(p, v);
    return;
  }
  if (n == 0) return;
  if (offset == 0) {
    Q6_vmem_QRIV(Q6_Q_vsetq_R((int)n), (HVX_Vector*)p, v);
    return;
  }
  rotated = Q6_V_vlalign_VVR(v, v, offset);
  before = Q6_Q_vsetq_R(offset); /* bytes [0, offset) of the first line */
  if (end <= OPRIG_DSP_VECTOR_BYTES) {
    Q6_vmem_QnRIV(Q6_Q_or_QQn(before, Q6_Q_vsetq2_R(end)), (HVX_Vector*)p, rotated);
  } else {
    Q6_vmem_QnRIV(before, (HVX_Vector*)p, rotated);
    Q6_vmem_QRIV(Q6_Q_vsetq_R(end - OPRIG_DSP_VECTOR_BYTES), (HVX_Vector*)((unsigned char*)p + OPRIG_DSP_VECTOR_BYTES),
                 rotated);
  }
}

/* ---- 256-entry byte tables (vlut32) ---------------------------------------
 * vlut32's lookup m (its control word, 0..7) serves indices 32m..32m+31 and
 * reads byte (m >> 1) & 1 of halfword index % 64 of its table vector: one
 * vector holds the entries of lookups 0..3, a second those of 4..7. */

/* Where entry e (0..255) of a byte table goes in the 256 bytes of the two
 * table vectors (low = bytes 0..127, high = 128..255). */
static inline size_t oprig_dsp_lut256_position(size_t e) {
  const size_t m = (e / 32) & 7, j = e % 32;
  return 128 * (m / 4) + 2 * (32 * (m & 1) + j) + ((m >> 1) & 1);
}

/* table[x] for 128 indices: one vlut32 and seven vlut32or (8 permutes). */
static inline HVX_Vector oprig_dsp_lut256(OPRIG_DSP_IN(HVX_Vector) x, OPRIG_DSP_IN(HVX_Vector) low,
                                          OPRIG_DSP_IN(HVX_Vector) high) {
  HVX_Vector y = Q6_Vb_vlut32_VbVbR(x, low, 0);
  y = Q6_Vb_vlut32or_VbVbVbR(y, x, low, 1);
  y = Q6_Vb_vlut32or_VbVbVbR(y, x, low, 2);
  y = Q6_Vb_vlut32or_VbVbVbR(y, x, low, 3);
  y = Q6_Vb_vlut32or_VbVbVbR(y, x, high, 4);
  y = Q6_Vb_vlut32or_VbVbVbR(y, x, high, 5);
  y = Q6_Vb_vlut32or_VbVbVbR(y, x, high, 6);
  return Q6_Vb_vlut32or_VbVbVbR(y, x, high, 7);
}

/* ---- Widening and narrowing, in element order ------------------------------
 * HVX's widening multiplies and vzxt/vsxt split even and odd lanes between a
 * pair's vectors; vunpack and vpack keep the order, which is what a kernel
 * streaming tensors wants. */

/* The 128 bytes of v (unsigned, or signed for _b) as words: w[k] holds
 * elements 32k..32k+31. */
static inline void oprig_dsp_widen_ub_w(OPRIG_DSP_IN(HVX_Vector) v, HVX_Vector w[4]) {
  const HVX_VectorPair h = Q6_Wuh_vunpack_Vub(v);
  const HVX_VectorPair lo = Q6_Wuw_vunpack_Vuh(Q6_V_lo_W(h)), hi = Q6_Wuw_vunpack_Vuh(Q6_V_hi_W(h));
  w[0] = Q6_V_lo_W(lo);
  w[1] = Q6_V_hi_W(lo);
  w[2] = Q6_V_lo_W(hi);
  w[3] = Q6_V_hi_W(hi);
}
static inline void oprig_dsp_widen_b_w(OPRIG_DSP_IN(HVX_Vector) v, HVX_Vector w[4]) {
  const HVX_VectorPair h = Q6_Wh_vunpack_Vb(v);
  const HVX_VectorPair lo = Q6_Ww_vunpack_Vh(Q6_V_lo_W(h)), hi = Q6_Ww_vunpack_Vh(Q6_V_hi_W(h));
  w[0] = Q6_V_lo_W(lo);
  w[1] = Q6_V_hi_W(lo);
  w[2] = Q6_V_lo_W(hi);
  w[3] = Q6_V_hi_W(hi);
}
/* Four vectors of words, in element order, saturated to 128 unsigned (or
 * signed, _b) bytes. */
static inline HVX_Vector oprig_dsp_narrow_w_ub_sat(const HVX_Vector w[4]) {
  return Q6_Vub_vpack_VhVh_sat(Q6_Vh_vpack_VwVw_sat(w[3], w[2]), Q6_Vh_vpack_VwVw_sat(w[1], w[0]));
}
static inline HVX_Vector oprig_dsp_narrow_w_b_sat(const HVX_Vector w[4]) {
  return Q6_Vb_vpack_VhVh_sat(Q6_Vh_vpack_VwVw_sat(w[3], w[2]), Q6_Vh_vpack_VwVw_sat(w[1], w[0]));
}

/* ---- Fixed-point arithmetic of quantised kernels (gemmlowp / TFLite) ------- */

/* The low 32 bits of a * b per word (what an INT_32 multiply keeps): the
 * cross term vmpyieo, then vmpyie accumulating the low half. */
static inline HVX_Vector oprig_dsp_mul_lo_w(OPRIG_DSP_IN(HVX_Vector) a, OPRIG_DSP_IN(HVX_Vector) b) {
  return Q6_Vw_vmpyieacc_VwVwVuh(Q6_Vw_vmpyieo_VhVh(a, b), a, b);
}

/* gemmlowp's SaturatingRoundingDoublingHighMul per word: round(x * m / 2^31)
 * with ties up, INT32_MIN * INT32_MIN saturating to INT32_MAX. vmpye then
 * vmpyo:<<1:rnd:sat:shift, exactly (the rounding of the two halves composes). */
static inline HVX_Vector oprig_dsp_srdhm_w(OPRIG_DSP_IN(HVX_Vector) x, OPRIG_DSP_IN(HVX_Vector) m) {
  return Q6_Vw_vmpyoacc_VwVwVh_s1_rnd_sat_shift(Q6_Vw_vmpye_VwVuh(x, m), x, m);
}

/* gemmlowp's RoundingDivideByPOT per word: x / 2^exponent rounded to nearest,
 * ties away from zero; exponent 0..31. In four instructions, exactly: a
 * negative x first steps down by one (saturating, so INT32_MIN stays), then
 * an arithmetic shift by exponent - 1 and vavg:rnd with 0 halve it rounding
 * up, in wider precision (no overflow at INT32_MAX). `zero` is a zero
 * vector (made once, outside the loop). */
static inline HVX_Vector oprig_dsp_rdbpot_w(OPRIG_DSP_IN(HVX_Vector) x, int exponent, OPRIG_DSP_IN(HVX_Vector) zero) {
  HVX_Vector down;
  if ((exponent & 31) == 0) return x;
  down = Q6_Vw_vsub_VwVw_sat(x, Q6_Vuw_vlsr_VuwR(x, 31)); /* x - 1 where x < 0 */
  return Q6_Vw_vavg_VwVw_rnd(Q6_Vw_vasr_VwR(down, (exponent & 31) - 1), zero);
}

/* TFLite's quantised multiplier (multiplier Q31 in [2^30, 2^31), shift in
 * -31..30), made into vectors once, outside the loop: a splat is an
 * instruction, and Hexagon compilers hoist them, so a kernel does too. */
typedef struct oprig_dsp_quantized_multiplier {
  HVX_Vector multiplier; /* splatted */
  HVX_Vector zero;
  int left;  /* max(shift, 0): a left shift before the high multiply */
  int right; /* max(-shift, 0): a rounding right shift after it */
} oprig_dsp_quantized_multiplier;

static inline oprig_dsp_quantized_multiplier oprig_dsp_make_quantized_multiplier(int32_t multiplier, int shift) {
  oprig_dsp_quantized_multiplier m;
  m.multiplier = Q6_V_vsplat_R(multiplier);
  m.zero = Q6_V_vzero();
  m.left = shift > 0 ? shift : 0;
  m.right = shift > 0 ? 0 : -shift;
  return m;
}

/* TFLite's MultiplyByQuantizedMultiplier per word: x * multiplier * 2^shift
 * / 2^31 as gemmlowp computes it (a left shift, SaturatingRoundingDoubling
 * HighMul, RoundingDivideByPOT): 2 to 7 instructions. */
static inline HVX_Vector oprig_dsp_apply_quantized_multiplier_w(OPRIG_DSP_IN(HVX_Vector) x,
                                                                const oprig_dsp_quantized_multiplier* m) {
  const HVX_Vector shifted = m->left > 0 ? Q6_Vw_vasl_VwR(x, m->left) : x;
  return oprig_dsp_rdbpot_w(oprig_dsp_srdhm_w(shifted, m->multiplier), m->right, m->zero);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* OPRIG_DSP_H_ */
