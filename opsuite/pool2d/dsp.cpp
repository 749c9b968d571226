// Pool2D on the dsp backend: quantised UINT_8 NHWC, MAX and AVG with every
// kernel, stride, padding and count_include_pad, HVX code on the simulator
// through oprig_dsp.h. NHWC puts a pixel's channels side by side and a row's
// pixels one after another, so rows and pixels are streams of 128-byte
// vectors (a last partial vector loaded and stored with oprig_dsp_load_bytes
// / oprig_dsp_store_bytes).
//
// - MAX: vmax per window cell, or separably, the window's rows over whole
//   input rows as full vectors, then its columns (max_by_rows), whichever
//   moves fewer vectors (prepare counts them). The largest code is the code
//   of the largest value: with the output quantised like the input it is
//   stored as it is (exact), otherwise requantised by a 256-entry table
//   built at prepare in fp64 (exact).
// - AVG, output pixel by output pixel (a window's divisor is the pixel's
//   own), window cells in the padding skipped: codes summed two cells at a
//   time in halfwords (vaddacc, at most 256 cells before the sums are
//   folded into words, so no halfword overflows), then per window, as TFLite's integer kernels requantise:
//   q = z_out + scale_by(sum - cells * z_in, M_d), M_d = s_in / (s_out * d)
//   with d the window's divisor (its cells, or the whole window with
//   count_include_pad), a quant.hpp Multiplier per divisor made at prepare
//   (gemmlowp's SaturatingRoundingDoublingHighMul then RoundingDivideByPOT),
//   clamped to [0, 255]. Within 1 code of the exact mean (plan.json says why).
// Cycles: backends/dsp/cost_model.md, "Pool2D UINT_8".
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>
#include <optional>
#include <vector>

#include "common/dsp_requantize.hpp"
#include "common/dsp_kernel.hpp"
#include "common/kernel.hpp"
#include "common/quant.hpp"
#include "oprig/oprig_dsp.h"
#include "pool2d/pooling.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_pool2d__dsp;

namespace {

using pool2d::Kind;
constexpr size_t kVector = OPRIG_DSP_VECTOR_BYTES;
// Halfword sums of at most this many codes fit 16 bits unsigned (256 * 255).
constexpr int64_t kHalfwordCells = 256;
// Divisors are tabulated up to the window's area; a larger window than this
// has no use on a DSP and would make the table needlessly large.
constexpr int64_t kMaxWindowCells = int64_t{1} << 20;

struct Pool2DDsp : KernelBase, pool2d::Pooling, pool2d::Geometry {
  const oprig_backend_context* ctx = nullptr;
  bool prepared = false;
  dsp::CodeTable requantize;           // MAX when the output's quantisation differs
  std::vector<quant::Multiplier> by;   // AVG: by[d - 1] = s_in / (s_out * d)
  // MAX: one padded row of window maxima, pad_left + width + pad_right
  // pixels, its input pixels from a 128-byte aligned offset, and a vector of
  // slack; written by execute (the kernel is otherwise read-only there).
  mutable std::vector<uint8_t> workspace;
  // MAX: whether the separable pass over rows moves fewer vectors than the
  // pixel by pixel one (vectors_by_rows / vectors_by_pixels).
  bool max_by_rows = false;

  size_t interior_offset() const {
    const auto left = static_cast<size_t>(pad_left * channels);
    return (left + kVector - 1) / kVector * kVector;
  }
  size_t workspace_bytes() const {
    const auto right = static_cast<size_t>((width + pad_right) * channels);
    return (interior_offset() + right + kVector - 1) / kVector * kVector + kVector;
  }
  uint8_t* workspace_base() const {
    const auto at = reinterpret_cast<uintptr_t>(workspace.data());
    return workspace.data() + ((kVector - at % kVector) % kVector);
  }
};

size_t vectors_of(int64_t bytes) { return static_cast<size_t>((bytes + kVector - 1) / kVector); }

// The vectors each MAX path loads and stores per output row (the cost
// model's traffic, which binds both), counting every window cell.
size_t vectors_by_pixels(const Pool2DDsp& k) {
  return static_cast<size_t>(k.out_width) * vectors_of(k.channels) * static_cast<size_t>(k.kernel_h * k.kernel_w + 1);
}
size_t vectors_by_rows(const Pool2DDsp& k) {
  const size_t vertical = vectors_of(k.width * k.channels) * static_cast<size_t>(k.kernel_h + 1);
  const size_t horizontal = k.stride_w == 1 ? vectors_of(k.out_width * k.channels) * static_cast<size_t>(k.kernel_w + 1)
                                            : static_cast<size_t>(k.out_width) * vectors_of(k.channels) *
                                                  static_cast<size_t>(k.kernel_w + 1);
  return vertical + horizontal;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  return create_dsp_kernel<Pool2DDsp>(ctx, &oprig_pool2d__dsp, out_kernel, [&](Pool2DDsp& k) {
    const std::optional<pool2d::Pooling> pooling = pool2d::read_pooling(params, num_params);
    if (!pooling) return OPRIG_STATUS_INVALID_ARGUMENT;
    static_cast<pool2d::Pooling&>(k) = *pooling;
    return OPRIG_STATUS_OK;
  });
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<Pool2DDsp>(handle);
  k->prepared = false;
  if (const oprig_status s = pool2d::plan_geometry(*k, inputs, num_inputs, outputs, num_outputs, k);
      s != OPRIG_STATUS_OK)
    return s;
  // No float on the simulated DSP: UINT_8 codes only.
  if (k->dtype != OPRIG_DTYPE_UINT_8 || !std::isfinite(k->in_scale) || !std::isfinite(k->out_scale))
    return OPRIG_STATUS_UNSUPPORTED;
  // Zero points are codes: the 32-bit lanes then never overflow.
  if (k->in_zero < 0 || k->in_zero > 255 || k->out_zero < 0 || k->out_zero > 255) return OPRIG_STATUS_UNSUPPORTED;
  for (int d = 0; d < 4; ++d)
    if (inputs[0].dims[d] < 0) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->kind == Kind::kMax) {
    k->requantize.build_requantize(k->in_scale, k->in_zero, k->out_scale, k->out_zero);
    k->max_by_rows = vectors_by_rows(*k) < vectors_by_pixels(*k);
    k->workspace.assign(k->max_by_rows ? k->workspace_bytes() + kVector : 0, 0);
  } else {
    const int64_t area = k->kernel_h * k->kernel_w;
    if (area > kMaxWindowCells) return OPRIG_STATUS_UNSUPPORTED;
    k->by.assign(static_cast<size_t>(area), {});
    for (int64_t d = 1; d <= area; ++d)
      if (!quant::multiplier(k->in_scale / (k->out_scale * static_cast<double>(d)), &k->by[static_cast<size_t>(d - 1)]))
        return OPRIG_STATUS_UNSUPPORTED;
  }
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

struct Window {
  int64_t h_begin, h_end, w_begin, w_end, cells;
};

// The HVX program: output pixels in order, each a loop over channel vectors.
class Program {
 public:
  Program(const Pool2DDsp& k, const uint8_t* src, uint8_t* dst) : k_(k), src_(src), dst_(dst) {}

  void run() {
    if (k_.kind == Kind::kAvg) pool_by_pixels();
    else if (k_.max_by_rows) max_by_rows();
    else pool_by_pixels();
  }

 private:
  // MAX is separable: per output row, the largest code of its window's input
  // rows over whole rows (full vectors, each input vector loaded once per
  // output row) into a workspace row with zero codes in the padding (0 never
  // wins: every code is >= 0 and every window holds an input cell); then the
  // largest over the window's columns of that row: with stride 1 the output
  // row's vectors come straight from the workspace shifted by a pixel per
  // column, otherwise pixel by pixel.
  void max_by_rows() {
    std::optional<dsp::CodeLookup> lookup;
    if (!k_.same_quantization()) lookup.emplace(k_.requantize);
    const HVX_Vector zero = Q6_V_vzero();
    const auto channels = static_cast<size_t>(k_.channels);
    const size_t row_bytes = static_cast<size_t>(k_.width) * channels;
    const size_t out_row_bytes = static_cast<size_t>(k_.out_width) * channels;
    uint8_t* const ws = k_.workspace_base();
    const size_t ws_bytes = k_.workspace_bytes();
    oprig_dsp_map_writable(ws, ws_bytes, "the row of window maxima");
    for (size_t at = 0; at < ws_bytes; at += kVector) oprig_vmem_store(ws + at, zero);
    uint8_t* const interior = ws + k_.interior_offset();
    const uint8_t* const padded = interior - static_cast<size_t>(k_.pad_left) * channels;
    const uint8_t* const ws_end = ws + ws_bytes;
    const auto from_workspace = [&](const uint8_t* p) { return oprig_dsp_load_bytes(p, static_cast<size_t>(ws_end - p)); };
    uint8_t* y = dst_;
    for (int64_t n = 0; n < k_.batches; ++n)
      for (int64_t oh = 0; oh < k_.out_height; ++oh) {
        const int64_t h0 = oh * k_.stride_h - k_.pad_top;
        const int64_t h_begin = std::max<int64_t>(h0, 0), h_end = std::min(h0 + k_.kernel_h, k_.height);
        for (size_t x0 = 0; x0 < row_bytes; x0 += kVector) {
          HVX_Vector largest = zero;
          for (int64_t h = h_begin; h < h_end; ++h)
            largest = Q6_Vub_vmax_VubVub(largest, oprig_dsp_load_bytes(src_ + ((n * k_.height + h) * k_.width) *
                                                                                   k_.channels + x0,
                                                                          row_bytes - x0));
          oprig_dsp_store_bytes(interior + x0, row_bytes - x0, largest);
        }
        if (k_.stride_w == 1) {
          for (size_t x0 = 0; x0 < out_row_bytes; x0 += kVector) {
            HVX_Vector largest = zero;
            for (int64_t dx = 0; dx < k_.kernel_w; ++dx)
              largest = Q6_Vub_vmax_VubVub(largest, from_workspace(padded + x0 + static_cast<size_t>(dx) * channels));
            oprig_dsp_store_bytes(y + x0, out_row_bytes - x0, lookup ? (*lookup)(largest) : largest);
          }
        } else {
          for (int64_t ow = 0; ow < k_.out_width; ++ow) {
            const uint8_t* window = padded + static_cast<size_t>(ow * k_.stride_w) * channels;
            for (size_t c0 = 0; c0 < channels; c0 += kVector) {
              HVX_Vector largest = zero;
              for (int64_t dx = 0; dx < k_.kernel_w; ++dx)
                largest = Q6_Vub_vmax_VubVub(largest, from_workspace(window + static_cast<size_t>(dx) * channels + c0));
              oprig_dsp_store_bytes(y + static_cast<size_t>(ow) * channels + c0, channels - c0,
                                    lookup ? (*lookup)(largest) : largest);
            }
          }
        }
        y += out_row_bytes;
      }
  }

  // Output pixel by output pixel, each a loop over its window's cells inside
  // the input.
  void pool_by_pixels() {
    std::optional<dsp::CodeLookup> lookup;
    if (k_.kind == Kind::kMax && !k_.same_quantization()) lookup.emplace(k_.requantize);
    const HVX_Vector zero = Q6_V_vzero();
    const HVX_Vector out_zero = Q6_V_vsplat_R(k_.out_zero);
    uint8_t* y = dst_;
    for (int64_t n = 0; n < k_.batches; ++n)
      for (int64_t oh = 0; oh < k_.out_height; ++oh)
        for (int64_t ow = 0; ow < k_.out_width; ++ow, y += k_.channels) {
          const int64_t h0 = oh * k_.stride_h - k_.pad_top, w0 = ow * k_.stride_w - k_.pad_left;
          Window win{std::max<int64_t>(h0, 0), std::min(h0 + k_.kernel_h, k_.height), std::max<int64_t>(w0, 0),
                     std::min(w0 + k_.kernel_w, k_.width), 0};
          win.cells = (win.h_end - win.h_begin) * (win.w_end - win.w_begin);
          const uint8_t* image = src_ + n * k_.height * k_.width * k_.channels;
          if (k_.kind == Kind::kMax) {
            for (int64_t c0 = 0; c0 < k_.channels; c0 += kVector) {
              const auto count = static_cast<size_t>(k_.channels - c0);
              HVX_Vector largest = max_of(image + c0, win, count, zero);
              if (lookup) largest = (*lookup)(largest);
              oprig_dsp_store_bytes(y + c0, count, largest);
            }
            continue;
          }
          // One divisor, multiplier and zero-point offset per window.
          const int64_t divisor = k_.count_include_pad ? k_.kernel_h * k_.kernel_w : win.cells;
          const quant::Multiplier& by = k_.by[static_cast<size_t>(divisor - 1)];
          const HVX_Vector m = Q6_V_vsplat_R(by.m);
          const HVX_Vector offset = Q6_V_vsplat_R(static_cast<int32_t>(win.cells * k_.in_zero));
          for (int64_t c0 = 0; c0 < k_.channels; c0 += kVector) {
            const auto count = static_cast<size_t>(k_.channels - c0);
            dsp::SplitWords words = sum_of(image + c0, win, count, zero);
            for (HVX_Vector& w : words.w)
              w = Q6_Vw_vadd_VwVw(dsp::scale_words(Q6_Vw_vsub_VwVw(w, offset), m, by, zero), out_zero);
            oprig_dsp_store_bytes(y + c0, count, dsp::narrow_split_w_ub_sat(words));
          }
        }
  }

  const uint8_t* cell(const uint8_t* image_c0, int64_t h, int64_t w) const {
    return image_c0 + (h * k_.width + w) * k_.channels;
  }

  // The largest code of each of `count` channels over the window (codes are
  // never below 0, and every window holds an input cell).
  HVX_Vector max_of(const uint8_t* image_c0, const Window& win, size_t count, HVX_Vector zero) const {
    HVX_Vector largest = zero;
    for (int64_t h = win.h_begin; h < win.h_end; ++h)
      for (int64_t w = win.w_begin; w < win.w_end; ++w)
        largest = Q6_Vub_vmax_VubVub(largest, oprig_dsp_load_bytes(cell(image_c0, h, w), count));
    return largest;
  }

  // The sum of each channel's codes over the window, in words.
  dsp::SplitWords sum_of(const uint8_t* image_c0, const Window& win, size_t count, HVX_Vector zero) const {
    dsp::SplitWords words{{zero, zero, zero, zero}};
    HVX_VectorPair sums = Q6_W_vcombine_VV(zero, zero);
    int64_t in_sums = 0;
    bool pending = false;  // a cell waiting for its partner
    HVX_Vector held = zero;
    for (int64_t h = win.h_begin; h < win.h_end; ++h)
      for (int64_t w = win.w_begin; w < win.w_end; ++w) {
        const HVX_Vector v = oprig_dsp_load_bytes(cell(image_c0, h, w), count);
        if (!pending) {
          held = v;
          pending = true;
          continue;
        }
        if (in_sums + 2 > kHalfwordCells) {
          dsp::fold_halfword_sums(sums, &words);
          sums = Q6_W_vcombine_VV(zero, zero);
          in_sums = 0;
        }
        sums = Q6_Wh_vaddacc_WhVubVub(sums, held, v);
        in_sums += 2;
        pending = false;
      }
    if (pending) {
      if (in_sums + 1 > kHalfwordCells) {
        dsp::fold_halfword_sums(sums, &words);
        sums = Q6_W_vcombine_VV(zero, zero);
      }
      sums = Q6_Wh_vaddacc_WhVubVub(sums, held, zero);
    }
    dsp::fold_halfword_sums(sums, &words);
    return words;
  }

  const Pool2DDsp& k_;
  const uint8_t* src_;
  uint8_t* dst_;
};

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<Pool2DDsp>(handle);
  return execute_dsp_unary(k->ctx, k->prepared, static_cast<size_t>(k->input_elements()), static_cast<size_t>(k->output_elements()), inputs, num_inputs, outputs, num_outputs, info,
                           [&](const uint8_t* src, uint8_t* dst) { Program(*k, src, dst).run(); });
}

void destroy(oprig_kernel* handle) { delete from_handle<Pool2DDsp>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const Pool2DDsp>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out = pool2d::pooling_cost(*k, *k);
  out->flops = 0;  // integer work only
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_pool2d__dsp = {"Pool2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
