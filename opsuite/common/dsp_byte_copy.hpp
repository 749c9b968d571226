// The dsp kernels of the ops that only move bytes (Concat, Split, Crop; their
// dsp.cpp are each one OPRIG_DSP_COPY_KERNEL line): HVX code on the simulator
// through oprig_dsp.h that runs the CopyPlan of the op's byte_plan.hpp
// (common/strided_copy.hpp), the geometry every other backend copies by.
//
// Every destination of these ops is dense and its blocks' rows tile it, so
// the copy is written from the destination's side: it is built one aligned
// 128-byte vector at a time and stored once (vmem; the first and last lines
// of the tensor through predicated vmem). Each row piece that falls into a
// destination vector is read from the aligned source lines that hold it and
// moved into place with one permute (vror inside one line, valign across
// two), then merged behind the bytes already there by a vmux whose
// predicate compares a byte-index vector with the piece's start (vsplat,
// vcmp: the multiply and ALU units, leaving the permute unit the rotation). A
// source tensor keeps its last two lines in registers and the destinations
// take rows in turn, so a row that starts in the line where the previous one
// ended (Concat's and Split's narrow chunks, Crop's rows) loads that line
// once. A long row costs per vector one load, at most one permute and one
// store: the simulated machine's load/store bandwidth (cost_model.md,
// "Concat, Split, Crop UINT_8").
//
// The specs declare UINT_8 (Concat also INT_8) on DSP for the three ops and
// every input and output shares one quantisation (byte_plan.hpp refuses
// others): the copy is exact, no requantisation; 8-bit codes of either sign
// are bytes to it. Compiled in the dsp library only.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "common/dsp_kernel.hpp"
#include "common/kernel.hpp"
#include "common/strided_copy.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

inline constexpr uintptr_t kDspLineMask = OPRIG_DSP_VECTOR_BYTES - 1;

// The aligned lines of one source the copy read last (two, the most recent
// kept when a third is loaded), so consecutive pieces of a stream load each
// line once. Loads touch only lines holding bytes of a piece, never one
// beyond the tensor.
class DspSourceLines {
 public:
  // The vector whose bytes [at, at + n) are src[0, n) (0 < n, at + n <= 128);
  // its other bytes are unspecified.
  HVX_Vector place(const std::byte* src, size_t n, size_t at) {
    const auto a = reinterpret_cast<uintptr_t>(src);
    const uintptr_t first = a & ~kDspLineMask, last = (a + n - 1) & ~kDspLineMask;
    const HVX_Vector low = line(first);
    if (first == last) {
      const auto rotate = static_cast<int>((a - first - at) & kDspLineMask);
      return rotate == 0 ? low : Q6_V_vror_VR(low, rotate);
    }
    // The piece crosses into the next line: a - first > at (it ends past the
    // line while at + n <= 128), so the shift is 1..127.
    const HVX_Vector high = line(last);
    return Q6_V_valign_VVR(high, low, static_cast<int>(a - first - at));
  }

 private:
  HVX_Vector line(uintptr_t address) {
    for (int slot = 0; slot < 2; ++slot)
      if (address_[slot] == address) {
        recent_ = slot;
        return vector_[slot];
      }
    recent_ = 1 - recent_;
    address_[recent_] = address;
    vector_[recent_] = oprig_vmem_load(reinterpret_cast<const void*>(address));
    return vector_[recent_];
  }

  uintptr_t address_[2] = {1, 1};  // never a line's (aligned) address
  HVX_Vector vector_[2] = {};
  int recent_ = 0;
};

// Byte i is i: compared with a splatted piece start, the predicate of the
// bytes before it (vsetq would take the permute unit every piece needs).
alignas(OPRIG_DSP_VECTOR_BYTES) inline constexpr auto kDspByteIndex = [] {
  std::array<uint8_t, OPRIG_DSP_VECTOR_BYTES> index{};
  for (size_t i = 0; i < index.size(); ++i) index[i] = static_cast<uint8_t>(i);
  return index;
}();

// A dense destination of `bytes` bytes written front to back, one aligned
// vector at a time: append() the pieces in order, then finish(). `index` is
// kDspByteIndex, loaded once.
class DspDenseWriter {
 public:
  DspDenseWriter(std::byte* dst, size_t bytes, HVX_Vector index)
      : begin_(reinterpret_cast<uintptr_t>(dst)), end_(begin_ + bytes), next_(begin_), index_(index) {}

  // The next n bytes of the destination are src[0, n), read through `lines`.
  void append(DspSourceLines& lines, const std::byte* src, size_t n) {
    while (n > 0) {
      const size_t at = next_ & kDspLineMask;
      const size_t take = std::min(n, OPRIG_DSP_VECTOR_BYTES - at);
      const HVX_Vector piece = lines.place(src, take, at);
      if (at == 0) {
        vector_ = piece;
      } else {
        const HVX_VectorPred before = Q6_Q_vcmp_gt_VubVub(Q6_Vb_vsplat_R(static_cast<int>(at)), index_);
        vector_ = Q6_V_vmux_QVV(before, vector_, piece);
      }
      next_ += take;
      src += take;
      n -= take;
      if ((next_ & kDspLineMask) == 0) store(next_ - OPRIG_DSP_VECTOR_BYTES);
    }
  }
  void finish() {
    if ((next_ & kDspLineMask) != 0) store(next_ & ~kDspLineMask);
  }
  size_t written() const { return next_ - begin_; }

 private:
  // The bytes of the line at `line` that lie in [begin_, end_).
  void store(uintptr_t line) {
    const auto first = static_cast<int>(std::max(begin_, line) - line);
    const auto end = static_cast<int>(std::min(end_, line + OPRIG_DSP_VECTOR_BYTES) - line);
    auto* address = reinterpret_cast<HVX_Vector*>(line);
    if (first == 0 && end == OPRIG_DSP_VECTOR_BYTES)
      oprig_vmem_store(address, vector_);
    else if (first == 0)
      Q6_vmem_QRIV(Q6_Q_vsetq2_R(end), address, vector_);
    else
      Q6_vmem_QnRIV(Q6_Q_or_QQn(Q6_Q_vsetq_R(first), Q6_Q_vsetq2_R(end)), address, vector_);
  }

  uintptr_t begin_, end_, next_;
  HVX_Vector index_;
  HVX_Vector vector_ = {};
};

// One destination of a plan: its blocks (indices into CopyPlan::blocks) and
// the bytes their rows tile from the destination's first byte.
struct DspCopyTarget {
  size_t dst = 0, bytes = 0;
  std::vector<size_t> blocks;
};

// The plan's destinations; false when the blocks of one do not tile
// [0, bytes) of it (no op of this kind plans that).
inline bool dsp_copy_targets(const CopyPlan& plan, std::vector<DspCopyTarget>* targets) {
  targets->clear();
  for (size_t b = 0; b < plan.blocks.size(); ++b) {
    const CopyBlock& block = plan.blocks[b];
    auto it = std::find_if(targets->begin(), targets->end(), [&](const DspCopyTarget& t) { return t.dst == block.dst; });
    if (it == targets->end()) it = targets->insert(targets->end(), DspCopyTarget{block.dst, 0, {}});
    it->blocks.push_back(b);
    it->bytes += block.total();
  }
  for (const DspCopyTarget& t : *targets) {
    size_t last = 0;  // the furthest byte a row reaches, which is `bytes` for a tiling
    for (size_t b : t.blocks) {
      const CopyBlock& k = plan.blocks[b];
      const size_t outer = k.rows / k.inner;
      last = std::max(last, k.dst_offset + (outer - 1) * k.dst_outer + (k.inner - 1) * k.dst_inner + k.bytes);
    }
    if (last != t.bytes) return false;
  }
  return true;
}

// One destination being written: its blocks' rows in the order of their
// destination offsets (the next row is the block row that starts where the
// writer is).
class DspTargetWalk {
 public:
  DspTargetWalk(const CopyPlan& plan, const DspCopyTarget& target, std::byte* dst, HVX_Vector index)
      : writer_(dst, target.bytes, index) {
    bytes_ = target.bytes;
    for (size_t b : target.blocks) cursors_.push_back({&plan.blocks[b]});
  }
  bool done() const { return writer_.written() == bytes_; }
  // Appends the next row, read through lines[its source] (the last row
  // also stores the last vector). False when no row starts where the
  // writer is (the blocks do not tile the destination).
  bool step(const std::byte* const* sources, DspSourceLines* lines) {
    size_t c = 0;
    while (c < cursors_.size() && (cursors_[c].row == cursors_[c].block->rows ||
                                   cursors_[c].dst_at() != writer_.written()))
      ++c;
    if (c == cursors_.size()) return false;
    Cursor& cursor = cursors_[c];
    writer_.append(lines[cursor.block->src], sources[cursor.block->src] + cursor.src_at(), cursor.block->bytes);
    cursor.step();
    if (done()) writer_.finish();
    return true;
  }

 private:
  struct Cursor {
    const CopyBlock* block;
    size_t row = 0, o = 0, i = 0;
    size_t dst_at() const { return block->dst_offset + o * block->dst_outer + i * block->dst_inner; }
    size_t src_at() const { return block->src_offset + o * block->src_outer + i * block->src_inner; }
    void step() {
      ++row;
      if (++i == block->inner) i = 0, ++o;
    }
  };
  DspDenseWriter writer_;
  size_t bytes_ = 0;
  std::vector<Cursor> cursors_;
};

// Runs a plan: the destinations take a row each in turn, so Split's outputs
// read one input row after another and its lines once, as Concat's output
// does from each input. False when a destination's blocks do not tile it.
inline bool dsp_copy_plan(const CopyPlan& plan, const std::vector<DspCopyTarget>& targets,
                          const std::byte* const* sources, size_t num_sources, std::byte* const* destinations) {
  if (targets.empty()) return true;
  oprig_dsp_map(kDspByteIndex.data(), kDspByteIndex.size(), "the byte index");
  const HVX_Vector index = oprig_vmem_load(kDspByteIndex.data());
  std::vector<DspSourceLines> lines(num_sources);
  std::vector<DspTargetWalk> walks;
  walks.reserve(targets.size());
  for (const DspCopyTarget& t : targets) walks.emplace_back(plan, t, destinations[t.dst], index);
  for (bool busy = true; busy;) {
    busy = false;
    for (DspTargetWalk& walk : walks) {
      if (walk.done()) continue;
      if (!walk.step(sources, lines.data())) return false;
      busy = true;
    }
  }
  return true;
}

// The kernel instance of a copy op on dsp.
struct DspCopyKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  std::unique_ptr<CopyLayout> layout;
  bool prepared = false;
  size_t num_inputs = 0, num_outputs = 0;
  CopyPlan plan;
  std::vector<DspCopyTarget> targets;
  std::vector<const std::byte*> sources;
  std::vector<std::byte*> destinations;
};

// The KernelOps functions of one op: kOps its KernelOps, kLayout its
// byte_plan.hpp's make_layout.
template <const KernelOps* kOps, CopyLayoutFactory kLayout>
struct DspCopyOp {
  static oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                             oprig_kernel** out_kernel) {
    return create_dsp_kernel<DspCopyKernel>(ctx, kOps, out_kernel, [&](DspCopyKernel& k) {
      return kLayout(params, num_params, &k.layout);
    });
  }

  // 8-bit codes only, what the specs declare for DSP; the op's checks and shapes.
  static oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                              oprig_tensor* outputs, size_t num_outputs) {
    auto* k = from_handle<DspCopyKernel>(kernel);
    k->prepared = false;
    if (inputs == nullptr || outputs == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
    for (size_t i = 0; i < num_inputs; ++i)
      if (inputs[i].dtype != OPRIG_DTYPE_UINT_8 && inputs[i].dtype != OPRIG_DTYPE_INT_8) return OPRIG_STATUS_UNSUPPORTED;
    if (const oprig_status st = k->layout->plan(inputs, num_inputs, outputs, num_outputs, &k->plan);
        st != OPRIG_STATUS_OK)
      return st;
    if (!dsp_copy_targets(k->plan, &k->targets)) return OPRIG_STATUS_INTERNAL;
    k->num_inputs = num_inputs;
    k->num_outputs = num_outputs;
    k->sources.assign(num_inputs, nullptr);
    k->destinations.assign(num_outputs, nullptr);
    k->prepared = true;
    return OPRIG_STATUS_OK;
  }

  static oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                              const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info) {
    auto* k = from_handle<DspCopyKernel>(kernel);
    if (info != nullptr) info->dsp_cycles = 0;
    if (!k->prepared || inputs == nullptr || outputs == nullptr || num_inputs != k->num_inputs ||
        num_outputs != k->num_outputs)
      return OPRIG_STATUS_INVALID_ARGUMENT;
    for (size_t i = 0; i < num_inputs; ++i) k->sources[i] = static_cast<const std::byte*>(inputs[i].data);
    for (size_t i = 0; i < num_outputs; ++i) k->destinations[i] = static_cast<std::byte*>(outputs[i].data);
    for (const CopyBlock& b : k->plan.blocks)
      if (k->sources[b.src] == nullptr || k->destinations[b.dst] == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
    if (const oprig_status st = oprig_dsp_begin(k->ctx); st != OPRIG_STATUS_OK) return st;
    const bool tiled = dsp_copy_plan(k->plan, k->targets, k->sources.data(), k->sources.size(), k->destinations.data());
    const oprig_status st = oprig_dsp_end(info);
    return tiled ? st : OPRIG_STATUS_INTERNAL;
  }

  static void destroy(oprig_kernel* kernel) { delete from_handle<DspCopyKernel>(kernel); }

  static oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
    const auto* k = from_handle<const DspCopyKernel>(handle);
    if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
    *out = {0, k->plan.bytes, k->plan.bytes};
    return OPRIG_STATUS_OK;
  }
};

}  // namespace oprig::opsuite

// Defines oprig_<op>__dsp, the KernelOps of op `name` whose folder <op> has
// byte_plan.hpp's make_layout.
#define OPRIG_DSP_COPY_KERNEL(op, name)                                                                     \
  namespace oprig::opsuite {                                                                                \
  extern const KernelOps oprig_##op##__dsp;                                                                 \
  using op##_on_dsp = DspCopyOp<&oprig_##op##__dsp, op::make_layout>;                                       \
  const KernelOps oprig_##op##__dsp = {name,                 op##_on_dsp::create,  op##_on_dsp::prepare,    \
                                       op##_on_dsp::execute, op##_on_dsp::destroy, op##_on_dsp::cost};      \
  }
