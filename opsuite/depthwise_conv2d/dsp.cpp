// DepthwiseConv2D on the dsp backend: UINT_8 or INT_8 activations, INT_8
// weights, INT_32 bias, NHWC, every stride, dilation, padding and multiplier,
// by quant_conv.hpp's integer rule. Two HVX programs:
//  - RowDepthwise, multiplier 1 (MobileNet's layers): an output row is one
//    run of out_w * C bytes, and tap (ky, kx) reads the padded input row
//    oy * stride + ky * dilation shifted by kx * dilation * C bytes (with a
//    horizontal stride s, in the column phase kx * dilation % s of the
//    padded image, whose columns are split by j % s), so 128 consecutive
//    output bytes (pixels and channels together) take one vector per tap
//    (Lines: aligned loads shared by the taps of a row, valign between). Four taps' vectors are
//    interleaved (vshuff by bytes, then halfwords) so that a word lane holds
//    one output byte's 4 taps, and vrmpy against weights laid out the same
//    way sums them: 4 vrmpy per 4 taps per 128 outputs. The input is first
//    copied into a padded image in the workspace (the zero point's code
//    around it), so no tap needs a bounds test.
//  - multipliers above 1: the grouped convolution with one input channel per group,
//    common/dsp_conv.hpp's (32 output channels x 4 taps per vrmpy): correct
//    for every multiplier and stride, slow where the group has few channels.
// Cycles: backends/dsp/cost_model.md, "DepthwiseConv2D UINT_8".
#include <algorithm>
#include <numeric>
#include <new>

#include "common/dsp_conv.hpp"
#include "common/dsp_kernel.hpp"
#include "common/kernel.hpp"
#include "depthwise_conv2d/depthwise_geometry.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::opsuite {

extern const KernelOps oprig_depthwise_conv2d__dsp;

namespace {

using dsp_conv::Bytes;
using dsp_conv::kVector;

// The vectors at any addresses of one chunk's taps, from aligned loads: each
// 128-byte line once (taps of a row share lines: a 3x3 kernel over 32
// channels needs 2 or 3 lines a row, not 3 loads with their unaligned
// penalties), a vector between two lines by valign (one permute).
class Lines {
 public:
  HVX_Vector at(const uint8_t* address) {
    const auto a = reinterpret_cast<uintptr_t>(address);
    const auto* base = reinterpret_cast<const uint8_t*>(a & ~static_cast<uintptr_t>(kVector - 1));
    const auto offset = static_cast<int>(a & (kVector - 1));
    if (offset == 0) return line(base);
    return Q6_V_valign_VVR(line(base + kVector), line(base), offset);
  }

 private:
  static constexpr int kMax = 24;
  HVX_Vector line(const uint8_t* p) {
    for (int i = 0; i < count_; ++i)
      if (where_[i] == p) return vectors_[i];
    const HVX_Vector v = oprig_vmem_load(p);
    if (count_ < kMax) {
      where_[count_] = p;
      vectors_[count_++] = v;
    }
    return v;
  }
  const uint8_t* where_[kMax] = {};
  HVX_Vector vectors_[kMax];
  int count_ = 0;
};

class RowDepthwise {
 public:
  static constexpr int64_t kResidentQuads = 4;

  static bool applies(const depthwise::Geometry& g) { return g.multiplier() == 1; }

  oprig_status prepare(const quant::ConvShape& s, const quant::ConvRule& r) {
    shape_ = s;
    rule_ = r;
    const int64_t c = s.c_in;
    taps_ = s.kh * s.kw;
    quads_ = (taps_ + 3) / 4;
    phases_ = c / std::gcd<int64_t>(c, static_cast<int64_t>(kVector));  // chunks of 128 bytes before the channels repeat
    staged_zero_ = r.in_zero + (r.is_signed ? 128 : 0);
    const int64_t padded_w = (s.out_w - 1) * s.stride[1] + (s.kw - 1) * s.dilation[1] + 1;
    const int64_t padded_h = (s.out_h - 1) * s.stride[0] + (s.kh - 1) * s.dilation[0] + 1;
    padded_w_ = std::max(padded_w, s.pad_left + s.width);
    padded_h_ = std::max(padded_h, s.pad_top + s.height);
    // Horizontal stride s: column j of the padded image goes to column
    // j / s of column phase j % s, so each tap reads a contiguous run again.
    row_bytes_ = static_cast<size_t>((padded_w_ + s.stride[1] - 1) / s.stride[1] * c);
    phase_bytes_ = static_cast<size_t>(padded_h_) * row_bytes_;
    image_bytes_ = dsp_conv::round_up(static_cast<size_t>(s.stride[1]) * phase_bytes_, kVector) + 2 * kVector;
    out_row_bytes_ = static_cast<size_t>(s.out_w * c);
    weights_ = dsp_conv::aligned_bytes(static_cast<size_t>(phases_ * quads_ * 4) * kVector);
    starts_ = dsp_conv::aligned_bytes(static_cast<size_t>(phases_ * 4) * kVector);
    image_ = dsp_conv::aligned_bytes(image_bytes_);
    if (!weights_ || !starts_ || !image_) return OPRIG_STATUS_OUT_OF_MEMORY;
    std::fill_n(image_.get(), image_bytes_, uint8_t{0});  // the slack past the last row is read, never used
    return OPRIG_STATUS_OK;
  }

  oprig_status execute(const oprig_backend_context* ctx, const oprig_tensor* inputs, const oprig_tensor& out,
                       oprig_execute_info* info) {
    pack(static_cast<const int8_t*>(inputs[1].data),
         rule_.has_bias ? static_cast<const int32_t*>(inputs[2].data) : nullptr);
    if (const oprig_status st = oprig_dsp_begin(ctx); st != OPRIG_STATUS_OK) return st;
    if (shape_.pixels() > 0 && shape_.c_out > 0)
      run(static_cast<const uint8_t*>(inputs[0].data), static_cast<uint8_t*>(out.data));
    return oprig_dsp_end(info);
  }

 private:
  uint8_t* weight_vector(int64_t phase, int64_t q, int64_t v) const {
    return weights_.get() + static_cast<size_t>((phase * quads_ + q) * 4 + v) * kVector;
  }

  // Output byte i of a chunk (i = 32 v + j after the interleave) is channel
  // (chunk * 128 + i) % C; its 4 taps of quad q are bytes 4 j .. 4 j + 3 of
  // vector v, 0 past the last tap. Start: bias - z' * the channel's weight sum.
  void pack(const int8_t* w, const int32_t* bias) {
    const int64_t c = shape_.c_in;
    auto* starts = reinterpret_cast<int32_t*>(starts_.get());
    for (int64_t phase = 0; phase < phases_; ++phase)
      for (int64_t i = 0; i < static_cast<int64_t>(kVector); ++i) {
        const int64_t channel = (phase * static_cast<int64_t>(kVector) + i) % c, v = i / 32, j = i % 32;
        uint32_t sum = 0;
        for (int64_t q = 0; q < quads_; ++q)
          for (int64_t t = 0; t < 4; ++t) {
            const int64_t tap = 4 * q + t;
            const int8_t value = tap < taps_ ? w[static_cast<size_t>(tap * c + channel)] : int8_t{0};
            weight_vector(phase, q, v)[j * 4 + t] = static_cast<uint8_t>(value);
            sum += static_cast<uint32_t>(static_cast<int32_t>(value));
          }
        // Asymmetric weights: - z_w sum(x) comes from a vrmpy per quad with
        // the scalar -z_w, over 4 quads_ slots whose unused ones hold z'.
        const uint32_t start = (bias != nullptr ? static_cast<uint32_t>(bias[channel]) : 0u) -
                               static_cast<uint32_t>(staged_zero_) * sum +
                               static_cast<uint32_t>(rule_.weight_zero) * static_cast<uint32_t>(staged_zero_) *
                                   static_cast<uint32_t>(4 * quads_);
        starts[(phase * 4 + v) * 32 + j] = static_cast<int32_t>(start);
      }
  }

  // Copies n bytes (INT_8 moved to UINT_8 by xor 0x80).
  void copy(const uint8_t* src, uint8_t* dst, size_t n) const {
    for (size_t off = 0; off < n; off += kVector) {
      HVX_Vector v = oprig_dsp_load_bytes(src + off, n - off);
      if (rule_.is_signed) v = Q6_V_vxor_VV(v, flip_);
      oprig_dsp_store_bytes(dst + off, n - off, v);
    }
  }

  // Image n into the workspace: the zero point's code everywhere, then each
  // input row at its padded place: whole rows at stride 1, else pixel by
  // pixel into the column phases.
  void pad_image(const uint8_t* in, int64_t n) const {
    const quant::ConvShape& s = shape_;
    for (size_t off = 0; off + kVector <= image_bytes_; off += kVector) oprig_vmem_store(image_.get() + off, pad_);
    const auto pixel = static_cast<size_t>(s.c_in);
    const auto run = static_cast<size_t>(s.width) * pixel;
    for (int64_t y = 0; y < s.height; ++y) {
      const uint8_t* src = in + static_cast<size_t>(n * s.height + y) * run;
      uint8_t* row = image_.get() + static_cast<size_t>(y + s.pad_top) * row_bytes_;
      if (s.stride[1] == 1) {
        copy(src, row + static_cast<size_t>(s.pad_left) * pixel, run);
        continue;
      }
      for (int64_t x = 0; x < s.width; ++x) {
        const int64_t j = x + s.pad_left;
        copy(src + static_cast<size_t>(x) * pixel,
             row + static_cast<size_t>(j % s.stride[1]) * phase_bytes_ + static_cast<size_t>(j / s.stride[1]) * pixel, pixel);
      }
    }
  }

  void run(const uint8_t* in, uint8_t* out) {
    const quant::ConvShape& s = shape_;
    oprig_dsp_map(weights_.get(), static_cast<size_t>(phases_ * quads_ * 4) * kVector, "packed weights");
    oprig_dsp_map(starts_.get(), static_cast<size_t>(phases_ * 4) * kVector, "accumulator starts");
    oprig_dsp_map_writable(image_.get(), image_bytes_, "padded image");
    requantizer_.make(rule_);
    const int32_t negated = -rule_.weight_zero, first = std::min(negated, 127);  // -128 is 127 + 1
    const auto bytes = [](int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint8_t>(b)) * 0x01010101u); };
    zero_bytes_[0] = bytes(first);
    zero_bytes_[1] = bytes(negated - first);
    pad_ = Q6_Vb_vsplat_R(staged_zero_);
    flip_ = Q6_Vb_vsplat_R(0x80);
    const int64_t chunks = static_cast<int64_t>((out_row_bytes_ + kVector - 1) / kVector);
    // One phase and at most 4 quads (kernels up to 4x4): the weights and
    // starts stay in registers (20 of the 32) for the whole execute, as a
    // Hexagon compiler keeps loop invariants; else they are loaded per chunk.
    // Loads, not instructions, bound this kernel: the model streams 64 bytes
    // a cycle, 2 cycles per vector load.
    const bool resident = phases_ == 1 && quads_ <= kResidentQuads;
    HVX_Vector resident_w[kResidentQuads][4], resident_start[4];
    if (resident)
      for (int64_t v = 0; v < 4; ++v) {
        resident_start[v] = oprig_vmem_load(starts_.get() + static_cast<size_t>(v) * kVector);
        for (int64_t q = 0; q < quads_; ++q) resident_w[q][v] = oprig_vmem_load(weight_vector(0, q, v));
      }
    for (int64_t n = 0; n < s.batch; ++n) {
      pad_image(in, n);
      for (int64_t oy = 0; oy < s.out_h; ++oy) {
        const uint8_t* top = image_.get() + static_cast<size_t>(oy * s.stride[0]) * row_bytes_;
        uint8_t* dst = out + static_cast<size_t>(n * s.out_h + oy) * out_row_bytes_;
        for (int64_t chunk = 0; chunk < chunks; ++chunk) {
          const int64_t phase = chunk % phases_;
          const size_t first = static_cast<size_t>(chunk) * kVector;
          HVX_Vector acc[4];
          for (int64_t v = 0; v < 4; ++v)
            acc[v] = resident ? resident_start[v]
                              : oprig_vmem_load(starts_.get() + static_cast<size_t>(phase * 4 + v) * kVector);
          Lines lines;
          for (int64_t q = 0; q < quads_; ++q) {
            HVX_Vector x[4];
            for (int64_t t = 0; t < 4; ++t) {
              const int64_t tap = 4 * q + t;
              if (tap >= taps_) {
                x[t] = pad_;  // meets zero weights
                continue;
              }
              const int64_t ky = tap / s.kw, column = tap % s.kw * s.dilation[1];
              x[t] = lines.at(top + static_cast<size_t>(ky * s.dilation[0]) * row_bytes_ +
                              static_cast<size_t>(column % s.stride[1]) * phase_bytes_ +
                              static_cast<size_t>(column / s.stride[1] * s.c_in) + first);
            }
            // Bytes of taps 0..3 side by side: output bytes 0..31, 32..63, 64..95, 96..127.
            const HVX_VectorPair x01 = Q6_W_vshuff_VVR(x[1], x[0], -1), x23 = Q6_W_vshuff_VVR(x[3], x[2], -1);
            const HVX_VectorPair lo = Q6_W_vshuff_VVR(Q6_V_lo_W(x23), Q6_V_lo_W(x01), -2);
            const HVX_VectorPair hi = Q6_W_vshuff_VVR(Q6_V_hi_W(x23), Q6_V_hi_W(x01), -2);
            const HVX_Vector quads[4] = {Q6_V_lo_W(lo), Q6_V_hi_W(lo), Q6_V_lo_W(hi), Q6_V_hi_W(hi)};
            for (int64_t v = 0; v < 4; ++v) {
              acc[v] = Q6_Vw_vrmpyacc_VwVubVb(acc[v], quads[v],
                                              resident ? resident_w[q][v] : oprig_vmem_load(weight_vector(phase, q, v)));
              if (rule_.weight_zero != 0) {
                acc[v] = Q6_Vw_vrmpyacc_VwVubRb(acc[v], quads[v], zero_bytes_[0]);
                if (zero_bytes_[1] != 0) acc[v] = Q6_Vw_vrmpyacc_VwVubRb(acc[v], quads[v], zero_bytes_[1]);
              }
            }
          }
          oprig_dsp_store_bytes(dst + first, out_row_bytes_ - first, requantizer_.bytes(acc));
        }
      }
    }
  }

  quant::ConvShape shape_;
  quant::ConvRule rule_;
  int64_t taps_ = 0, quads_ = 0, phases_ = 1, padded_w_ = 0, padded_h_ = 0;
  int32_t staged_zero_ = 0;
  int32_t zero_bytes_[2] = {0, 0};  // -z_w as the 4 bytes of vrmpy's scalar (and the 1 left over at -128)
  size_t row_bytes_ = 0, phase_bytes_ = 0, image_bytes_ = 0, out_row_bytes_ = 0;
  Bytes weights_, starts_, image_;
  dsp_conv::Requantizer requantizer_;
  HVX_Vector pad_{}, flip_{};
};

struct DepthwiseDsp : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  depthwise::Params params;
  depthwise::Geometry g;
  bool by_rows = false;  // RowDepthwise, else the grouped convolution
  RowDepthwise rows;
  dsp_conv::QuantConv conv;
  bool prepared = false;
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  return create_dsp_kernel<DepthwiseDsp>(ctx, &oprig_depthwise_conv2d__dsp, out_kernel, [&](DepthwiseDsp& k) {
    return depthwise::read_params(params, num_params, &k.params) ? OPRIG_STATUS_OK : OPRIG_STATUS_INVALID_ARGUMENT;
  });
}

oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<DepthwiseDsp>(kernel);
  k->prepared = false;
  const oprig_status st =
      depthwise::plan(k->params, inputs, num_inputs, outputs, num_outputs, &k->g, true);
  if (st != OPRIG_STATUS_OK) return st;
  if (!k->g.quantized) return OPRIG_STATUS_UNSUPPORTED;  // the DSP list declares quantised types only
  k->by_rows = RowDepthwise::applies(k->g);
  const oprig_status ready = k->by_rows ? k->rows.prepare(depthwise::conv_shape(k->g), k->g.rule)
                                        : k->conv.prepare(depthwise::conv_shape(k->g), k->g.rule);
  k->prepared = ready == OPRIG_STATUS_OK;
  return ready;
}

oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<DepthwiseDsp>(kernel);
  if (info != nullptr) info->dsp_cycles = 0;
  if (!k->prepared || info == nullptr || inputs == nullptr || outputs == nullptr || num_outputs != 1 ||
      num_inputs < (k->g.has_bias ? 3u : 2u))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  return k->by_rows ? k->rows.execute(k->ctx, inputs, outputs[0], info)
                    : k->conv.execute(k->ctx, inputs, outputs[0], info);
}

void destroy(oprig_kernel* kernel) { delete from_handle<DepthwiseDsp>(kernel); }

oprig_status cost(const oprig_kernel* kernel, oprig_cost* out_cost) {
  const auto* k = from_handle<DepthwiseDsp>(kernel);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_cost = depthwise::cost_of(k->g);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_depthwise_conv2d__dsp = {"DepthwiseConv2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
