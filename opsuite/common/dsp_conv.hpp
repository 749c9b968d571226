// The quantised convolution on the dsp backend, shared by Conv2D
// (opsuite/conv2d/dsp.cpp) and DepthwiseConv2D (opsuite/depthwise_conv2d/
// dsp.cpp, the grouped case with one input channel per group): HVX code on
// the simulator through oprig_dsp.h computing quant_conv.hpp's integer rule
// bit for bit. Compiled into the dsp library only.
//
// The multiply-accumulate is vrmpy (Vw += vrmpy(Vub, Vb)): a word lane holds
// one output channel and sums 4 products, so one instruction is 32 output
// channels x 4 taps = 128 MACs. Per output pixel and group:
//  - gather: the window's input bytes of the group (kh * kw runs of group_in
//    bytes, vector loads and unaligned stores) into an aligned staging row of
//    the workspace, padding taps as the zero point's code; INT_8 activations
//    are moved to UINT_8 on the way (xor 0x80, the zero point + 128), which
//    vrmpy's unsigned operand needs and which leaves (x - z_in) unchanged;
//  - sum: for every 4 staged bytes, broadcast them as a word to all 32 lanes
//    (vextract + vsplat, or vror + vdelta: splat_word), then vrmpy against
//    the packed weight vector of those 4 taps for 32 output channels;
//    kPixels pixels share each weight load, two channel blocks each splat;
//  - the accumulator starts at bias - z_in' * sum(w) (the staged domain's
//    zero point times the channel's weight sum), so sum (x - z_in) w needs no
//    per-tap correction; asymmetric weights (z_w != 0, ONNX's QLinearConv)
//    add - z_w sum(x - z_in') per pixel (window_sum: vrmpy with the scalar
//    -z_w over the staged row, reduced over the lanes);
//  - requantise: TFLite's multiplier (oprig_dsp_apply_quantized_multiplier_w:
//    shift, srdhm, rdbpot), + z_out, vmax/vmin to the type's range, narrow,
//    a predicated store of the channels.
// The weights and bias are static tensors whose data the ABI hands over at
// execute: the kernel lays them out on the host there (a vendor kernel does
// it once at graph finalisation); no output element is computed on the host.
// Cycles: backends/dsp/cost_model.md, "Conv2D UINT_8".
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "common/quant_conv.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite::dsp_conv {

inline constexpr int64_t kLanes = 32;   // output channels per accumulator vector
inline constexpr int64_t kPixels = 4;   // output pixels that share a weight vector load
inline constexpr size_t kVector = OPRIG_DSP_VECTOR_BYTES;

struct FreeBytes {
  void operator()(uint8_t* p) const { std::free(p); }
};
using Bytes = std::unique_ptr<uint8_t[], FreeBytes>;

inline size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

inline Bytes aligned_bytes(size_t n) {
  return Bytes(static_cast<uint8_t*>(std::aligned_alloc(kVector, round_up(std::max<size_t>(n, 1), kVector))));
}

// The requantise-and-narrow tail of both ops' dsp kernels: int32
// accumulators to output codes by quant_conv.hpp's rule. make() splats the
// constants (instructions: once per execute, outside the loops).
struct Requantizer {
  oprig_dsp_quantized_multiplier multiplier{};
  HVX_Vector out_zero{}, lo{}, hi{};
  bool is_signed = false;

  void make(const quant::ConvRule& r) {
    multiplier = oprig_dsp_make_quantized_multiplier(r.multiplier.m, r.multiplier.left - r.multiplier.right);
    out_zero = Q6_V_vsplat_R(r.out_zero);
    lo = Q6_V_vsplat_R(r.range.lo);
    hi = Q6_V_vsplat_R(r.range.hi);
    is_signed = r.is_signed;
  }
  // scale_by(acc, M) + z_out, clamped to the type (vmax/vmin).
  HVX_Vector words(HVX_Vector acc) const {
    const HVX_Vector v = Q6_Vw_vadd_VwVw(oprig_dsp_apply_quantized_multiplier_w(acc, &multiplier), out_zero);
    return Q6_Vw_vmin_VwVw(Q6_Vw_vmax_VwVw(v, lo), hi);
  }
  // Four accumulator vectors (words in element order) to 128 codes.
  HVX_Vector bytes(const HVX_Vector acc[4]) const {
    const HVX_Vector w[4] = {words(acc[0]), words(acc[1]), words(acc[2]), words(acc[3])};
    return is_signed ? oprig_dsp_narrow_w_b_sat(w) : oprig_dsp_narrow_w_ub_sat(w);
  }
};

class QuantConv {
 public:
  oprig_status prepare(const quant::ConvShape& s, const quant::ConvRule& r) {
    shape_ = s;
    rule_ = r;
    depth_ = s.depth();
    quads_ = (depth_ + 3) / 4;
    blocks_ = (s.group_out + kLanes - 1) / kLanes;
    staged_zero_ = r.in_zero + (r.is_signed ? 128 : 0);
    row_bytes_ = round_up(static_cast<size_t>(quads_) * 4, kVector) + kVector;  // + the last run's spill
    weights_ = aligned_bytes(static_cast<size_t>(s.group * blocks_ * quads_) * kVector);
    starts_ = aligned_bytes(static_cast<size_t>(s.group * blocks_) * kVector);
    rows_ = aligned_bytes(static_cast<size_t>(kPixels) * row_bytes_);
    if (!weights_ || !starts_ || !rows_) return OPRIG_STATUS_OUT_OF_MEMORY;
    std::fill_n(rows_.get(), static_cast<size_t>(kPixels) * row_bytes_, uint8_t{0});  // read before the first gather fills it
    for (size_t k = 0; k < kVector; ++k) broadcast_control_[k] = static_cast<uint8_t>(k & 0x7C);
    return OPRIG_STATUS_OK;
  }

  oprig_status execute(const oprig_backend_context* ctx, const oprig_tensor* inputs, const oprig_tensor& out,
                       oprig_execute_info* info) {
    pack(static_cast<const int8_t*>(inputs[1].data),
         rule_.has_bias ? static_cast<const int32_t*>(inputs[2].data) : nullptr);
    if (const oprig_status st = oprig_dsp_begin(ctx); st != OPRIG_STATUS_OK) return st;
    const auto in_bytes = static_cast<uint64_t>(shape_.batch * shape_.height * shape_.width * shape_.c_in);
    if (shape_.pixels() > 0 && shape_.c_out > 0)
      run(static_cast<const uint8_t*>(inputs[0].data), in_bytes, static_cast<uint8_t*>(out.data));
    return oprig_dsp_end(info);
  }

 private:
  uint8_t* weight_vector(int64_t g, int64_t b, int64_t q) const {
    return weights_.get() + static_cast<size_t>((g * blocks_ + b) * quads_ + q) * kVector;
  }

  // Host layout of the static operands: per group, block of 32 channels and
  // quad of taps, lane j's 4 bytes are w[4q .. 4q + 3][channel j] (0 past the
  // depth or the group's channels); the start vectors bias - z' sum(w).
  void pack(const int8_t* w, const int32_t* bias) {
    const quant::ConvShape& s = shape_;
    std::fill_n(weights_.get(), static_cast<size_t>(s.group * blocks_ * quads_) * kVector, uint8_t{0});
    auto* starts = reinterpret_cast<int32_t*>(starts_.get());
    std::fill_n(starts, static_cast<size_t>(s.group * blocks_ * kLanes), 0);
    for (int64_t g = 0; g < s.group; ++g)
      for (int64_t c = 0; c < s.group_out; ++c) {
        const int64_t co = g * s.group_out + c, b = c / kLanes, lane = c % kLanes;
        uint32_t sum = 0;
        for (int64_t k = 0; k < depth_; ++k) {
          const int8_t v = w[static_cast<size_t>(k * s.c_out + co)];
          weight_vector(g, b, k / 4)[lane * 4 + k % 4] = static_cast<uint8_t>(v);
          sum += static_cast<uint32_t>(static_cast<int32_t>(v));
        }
        // Asymmetric weights: - z_w sum(x) comes per pixel (window_sum), over
        // every staged byte of the row, the R - K past the depth being z'.
        const auto staged = static_cast<uint32_t>(round_up(static_cast<size_t>(quads_) * 4, kVector));
        const uint32_t start = (bias != nullptr ? static_cast<uint32_t>(bias[co]) : 0u) -
                               static_cast<uint32_t>(staged_zero_) * sum +
                               static_cast<uint32_t>(rule_.weight_zero) * static_cast<uint32_t>(staged_zero_) * staged;
        starts[(g * blocks_ + b) * kLanes + lane] = static_cast<int32_t>(start);
      }
  }

  // The staging row of one output pixel and group: kh * kw runs of group_in
  // bytes, padding as the staged zero point. Each run is written in whole
  // unaligned vectors; what a vector writes past its run the next run
  // overwrites, and past the depth it meets zero weights.
  void gather(const uint8_t* in, uint64_t in_bytes, int64_t pixel, int64_t g, uint8_t* row) const {
    const quant::ConvShape& s = shape_;
    const int64_t ox = pixel % s.out_w, oy = pixel / s.out_w % s.out_h, n = pixel / (s.out_w * s.out_h);
    const auto run = static_cast<size_t>(s.group_in);
    for (int64_t ky = 0; ky < s.kh; ++ky) {
      const int64_t iy = oy * s.stride[0] - s.pad_top + ky * s.dilation[0];
      for (int64_t kx = 0; kx < s.kw; ++kx) {
        const int64_t ix = ox * s.stride[1] - s.pad_left + kx * s.dilation[1];
        uint8_t* dst = row + static_cast<size_t>(ky * s.kw + kx) * run;
        if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) {
          for (size_t off = 0; off < run; off += kVector) oprig_vmemu_store(dst + off, pad_);
          continue;
        }
        const auto at = static_cast<size_t>(((n * s.height + iy) * s.width + ix) * s.c_in + g * s.group_in);
        for (size_t off = 0; off < run; off += kVector) {
          HVX_Vector v = oprig_dsp_load_bytes(in + at + off, static_cast<size_t>(in_bytes) - at - off);
          if (rule_.is_signed) v = Q6_V_vxor_VV(v, flip_);
          oprig_vmemu_store(dst + off, v);
        }
      }
    }
  }

  void run(const uint8_t* in, uint64_t in_bytes, uint8_t* out) {
    const quant::ConvShape& s = shape_;
    const quant::ConvRule& r = rule_;
    oprig_dsp_map(weights_.get(), static_cast<size_t>(s.group * blocks_ * quads_) * kVector, "packed weights");
    oprig_dsp_map(starts_.get(), static_cast<size_t>(s.group * blocks_) * kVector, "accumulator starts");
    oprig_dsp_map_writable(rows_.get(), static_cast<size_t>(kPixels) * row_bytes_, "staging rows");
    // Constants, made once outside the loops as a Hexagon compiler hoists them.
    requantizer_.make(r);
    oprig_dsp_map(broadcast_control_, sizeof broadcast_control_, "broadcast control");
    broadcast_ = oprig_vmem_load(broadcast_control_);
    pad_ = Q6_Vb_vsplat_R(staged_zero_);
    flip_ = Q6_Vb_vsplat_R(0x80);
    const int64_t pixels = s.pixels();
    for (int64_t g = 0; g < s.group; ++g)
      for (int64_t p0 = 0; p0 < pixels; p0 += kPixels) {
        const int64_t count = std::min(kPixels, pixels - p0);
        for (int64_t p = 0; p < count; ++p) {
          uint8_t* row = rows_.get() + static_cast<size_t>(p) * row_bytes_;
          gather(in, in_bytes, p0 + p, g, row);
          if (r.weight_zero != 0) window_sums_[p] = window_sum(row);
        }
        for (int64_t b = 0; b < blocks_; b += 2) sum_and_store(out, g, b, p0, count);
      }
  }

  // Word `word` of v in every lane. Two ways that use different units, mixed
  // so that neither binds alone: vextract (load unit) + vsplat (multiply
  // unit, which vrmpy needs), or vror + vdelta (two permutes), the vdelta's
  // control sending byte k & 3 of word 0 to byte k. 18 of 32 words go by
  // permutes: per pixel and quad of taps multiply 1.22, permute 1.13, load
  // 0.94 cycles (with 4 pixels a weight load) instead of 1.5 by vsplat alone.
  HVX_Vector splat_word(HVX_Vector v, int word) const {
    if (word % 16 >= 7) return Q6_V_vdelta_VV(Q6_V_vror_VR(v, word * 4), broadcast_);
    return Q6_V_vsplat_R(Q6_R_vextract_VR(v, word * 4));
  }

  // - z_w times the sum of a staged row in every lane: the bytes past the
  // depth set to z' (two stores at most), vrmpy with the scalar bytes -z_w
  // (-128 as 127 + 1), then a rotate-and-add reduction over the 32 lanes.
  HVX_Vector window_sum(uint8_t* row) const {
    const size_t staged = round_up(static_cast<size_t>(quads_) * 4, kVector);
    const auto depth = static_cast<size_t>(depth_);
    oprig_vmemu_store(row + depth, pad_);
    if (depth + kVector < staged) oprig_vmemu_store(row + depth + kVector, pad_);
    const int32_t negated = -rule_.weight_zero;
    const int32_t first = std::min(negated, 127), second = negated - first;  // second: 1 when z_w = -128
    const auto bytes = [](int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint8_t>(b)) * 0x01010101u); };
    HVX_Vector sum = Q6_V_vzero();
    for (size_t off = 0; off < staged; off += kVector) {
      const HVX_Vector v = oprig_vmem_load(row + off);
      sum = Q6_Vw_vrmpyacc_VwVubRb(sum, v, bytes(first));
      if (second != 0) sum = Q6_Vw_vrmpyacc_VwVubRb(sum, v, bytes(second));
    }
    for (int shift = 64; shift >= 4; shift /= 2) sum = Q6_Vw_vadd_VwVw(sum, Q6_V_vror_VR(sum, shift));
    return sum;
  }

  // Channel blocks b and b + 1 (when there is one) of `count` pixels.
  void sum_and_store(uint8_t* out, int64_t g, int64_t b, int64_t p0, int64_t count) const {
    const quant::ConvShape& s = shape_;
    const bool pair = b + 1 < blocks_;
    HVX_Vector acc[kPixels][2];
    const HVX_Vector start0 = oprig_vmem_load(starts_.get() + static_cast<size_t>(g * blocks_ + b) * kVector);
    const HVX_Vector start1 = pair ? oprig_vmem_load(starts_.get() + static_cast<size_t>(g * blocks_ + b + 1) * kVector)
                                   : start0;
    for (int64_t p = 0; p < count; ++p) {
      acc[p][0] = start0, acc[p][1] = start1;
      if (rule_.weight_zero != 0)
        acc[p][0] = Q6_Vw_vadd_VwVw(start0, window_sums_[p]), acc[p][1] = Q6_Vw_vadd_VwVw(start1, window_sums_[p]);
    }
    HVX_Vector staged[kPixels];
    for (int64_t q = 0; q < quads_; ++q) {
      const int64_t word = q % kLanes;
      if (word == 0)
        for (int64_t p = 0; p < count; ++p)
          staged[p] = oprig_vmem_load(rows_.get() + static_cast<size_t>(p) * row_bytes_ + static_cast<size_t>(q) * 4);
      const HVX_Vector w0 = oprig_vmem_load(weight_vector(g, b, q));
      const HVX_Vector w1 = pair ? oprig_vmem_load(weight_vector(g, b + 1, q)) : w0;
      for (int64_t p = 0; p < count; ++p) {
        const HVX_Vector x = splat_word(staged[p], static_cast<int>(word));
        acc[p][0] = Q6_Vw_vrmpyacc_VwVubVb(acc[p][0], x, w0);
        if (pair) acc[p][1] = Q6_Vw_vrmpyacc_VwVubVb(acc[p][1], x, w1);
      }
    }
    const int64_t first = b * kLanes;
    const auto channels = static_cast<size_t>(std::min(s.group_out - first, (pair ? 2 : 1) * kLanes));
    for (int64_t p = 0; p < count; ++p) {
      const HVX_Vector lo = requantizer_.words(acc[p][0]);
      const HVX_Vector hi = pair ? requantizer_.words(acc[p][1]) : lo;
      const HVX_Vector words[4] = {lo, hi, hi, hi};
      const HVX_Vector bytes = rule_.is_signed ? oprig_dsp_narrow_w_b_sat(words) : oprig_dsp_narrow_w_ub_sat(words);
      uint8_t* dst = out + static_cast<size_t>((p0 + p) * s.c_out + g * s.group_out + first);
      oprig_dsp_store_bytes(dst, channels, bytes);
    }
  }

  quant::ConvShape shape_;
  quant::ConvRule rule_;
  int64_t depth_ = 0, quads_ = 0, blocks_ = 0;
  int32_t staged_zero_ = 0;
  size_t row_bytes_ = 0;
  Bytes weights_, starts_, rows_;
  Requantizer requantizer_;
  HVX_Vector pad_{}, flip_{}, broadcast_{};
  HVX_Vector window_sums_[kPixels];  // - z_w sum(x) of each pixel's window (asymmetric weights)
  alignas(kVector) uint8_t broadcast_control_[kVector] = {};  // byte k: k & 0x7C (prepare)
};

}  // namespace oprig::opsuite::dsp_conv
