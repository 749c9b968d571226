// The instruction table: one entry per line of oprig_dsp.h's
// OPRIG_DSP_INTRINSICS, in its order, so an entry's index is its opcode.
#include "hvx_sim/instruction.hpp"

namespace oprig::hvx {
namespace {

// The shape tokens of oprig_dsp.h: result, then the operands passed by
// pointer (scalar operands travel in r and s and need no decoding).
namespace shape {
constexpr Kind N = Kind::kNone, V = Kind::kVec, W = Kind::kPair, Q = Kind::kPred, R = Kind::kWord,
               A = Kind::kAddress, q = Kind::kPredInOut;
constexpr Shape V_0{V, {}}, W_0{W, {}};
constexpr Shape V_V{V, {V}}, V_W{V, {W}}, V_Q{V, {Q}}, W_V{W, {V}}, W_W{W, {W}}, Q_Q{Q, {Q}};
constexpr Shape V_VV{V, {V, V}}, W_VV{W, {V, V}}, Q_VV{Q, {V, V}}, W_WW{W, {W, W}}, W_WV{W, {W, V}}, V_QV{V, {Q, V}},
                Q_QQ{Q, {Q, Q}};
constexpr Shape V_VVV{V, {V, V, V}}, V_QVV{V, {Q, V, V}}, Q_QVV{Q, {Q, V, V}}, W_QVV{W, {Q, V, V}},
                W_WVV{W, {W, V, V}}, V_VVQ{V, {V, V, Q}};
constexpr Shape V_R{V, {}}, Q_R{Q, {}};
constexpr Shape V_VR{V, {V}}, W_VR{W, {V}}, W_WR{W, {W}}, V_WR{V, {W}}, Q_VR{Q, {V}}, V_QR{V, {Q}}, R_VR{R, {V}};
constexpr Shape V_VVR{V, {V, V}}, V_VVI{V, {V, V}}, W_VVR{W, {V, V}}, W_VVI{W, {V, V}}, W_WVR{W, {W, V}},
                W_WWR{W, {W, W}}, V_VWR{V, {V, W}}, V_VQR{V, {V, Q}}, Q_QVR{Q, {Q, V}};
constexpr Shape V_VVVR{V, {V, V, V}}, V_VVVI{V, {V, V, V}}, W_WVVR{W, {W, V, V}}, W_WVVI{W, {W, V, V}};
constexpr Shape W_WRI{W, {W}}, W_WWRI{W, {W, W}}, V_VP{V, {V}}, V_VVP{V, {V, V}};
constexpr Shape V_VVq{V, {V, V, q}}, V_A{V, {A}}, N_AV{N, {A, V}}, N_QAV{N, {Q, A, V}};
constexpr Shape N_ARRV{N, {A, V}}, N_ARRW{N, {A, W}};
}  // namespace shape

}  // namespace

constinit const Instruction kInstructions[kNumInstructions] = {
#define OPRIG_HVX_ENTRY(name, shp, cls, assembly) \
  {#name, shape::shp, Class::cls, assembly, &op_##name},
    OPRIG_DSP_INTRINSICS(OPRIG_HVX_ENTRY)
#undef OPRIG_HVX_ENTRY
};

constinit const Semantics kSemantics[kNumInstructions] = {
#define OPRIG_HVX_SEMANTICS(name, shp, cls, assembly) &op_##name,
    OPRIG_DSP_INTRINSICS(OPRIG_HVX_SEMANTICS)
#undef OPRIG_HVX_SEMANTICS
};

}  // namespace oprig::hvx
