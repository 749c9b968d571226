// Resize on the dsp backend: quantised UINT_8 NHWC, NEAREST under every
// nearest_mode and BILINEAR, each under every coordinate_transformation,
// HVX code on the simulator through oprig_dsp.h. prepare() works out per
// output row and column, in fp64 as the spec writes it (resampling.hpp),
// which input rows and columns it reads and BILINEAR's weights; execute()
// streams a pixel's channels as 128-byte vectors (a last partial vector
// through oprig_dsp_load_bytes / oprig_dsp_store_bytes).
//
// - NEAREST: a gather of whole pixels (one load and one store per channel
//   vector). With the output quantised like the input the codes are copied
//   (exact); otherwise a 256-entry table built at prepare in fp64
//   requantises them (exact).
// - BILINEAR in fixed point with 10 fractional bits, as TFLite's integer
//   resize: each axis' weight w becomes round(w * 2^10) and 1 - w the rest
//   of 2^10, so the four products of codes and weights sum, exactly in 32
//   bits, to the blend of the codes in Q20 (vmpyi by a halfword scalar,
//   common/dsp_requantize.hpp's weighted_sum_w: the two input rows of an
//   output row, whole rows as full vectors into a workspace of Q10 words,
//   then the two columns of each output pixel). The same quantisation: q = (acc + 2^19) >> 20 (the
//   weights sum to 1 exactly, so the zero point passes through); another:
//   q = z_out + scale_by(acc - z_in * 2^20, s_in / (s_out * 2^20)), a
//   quant.hpp Multiplier. Then saturated to [0, 255].
// Cycles: backends/dsp/cost_model.md, "Resize UINT_8".
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
#include "resize/resampling.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_resize__dsp;

namespace {

using resize::Mode;
constexpr size_t kVector = OPRIG_DSP_VECTOR_BYTES;
constexpr int kFractionBits = 10;
constexpr int32_t kOne = 1 << kFractionBits;

// One output index along an axis: the input indices it reads and, for
// BILINEAR, the fixed-point weights of the first (rest) and the second.
struct Tap {
  int64_t first = 0, second = 0;
  int32_t rest = kOne, weight = 0;  // as halfword_weight makes them
};

struct ResizeDsp : KernelBase, resize::Resampling {
  const oprig_backend_context* ctx = nullptr;
  bool prepared = false;
  int64_t batches = 0, height = 0, width = 0, channels = 0;
  double in_scale = 0, out_scale = 0;
  int32_t in_zero = 0, out_zero = 0;
  std::vector<Tap> rows, columns;
  dsp::CodeTable requantize;  // NEAREST with another output quantisation
  quant::Multiplier blend;    // BILINEAR with another output quantisation
  // BILINEAR: one input row's vertical blend, W * C words (rounded up to
  // whole vectors), 128-byte aligned.
  // Written by execute (the kernel is otherwise read-only there).
  mutable std::vector<uint8_t> workspace;

  uint8_t* workspace_base() const {
    const auto at = reinterpret_cast<uintptr_t>(workspace.data());
    return workspace.data() + ((kVector - at % kVector) % kVector);
  }

  bool same_quantization() const { return in_scale == out_scale && in_zero == out_zero; }
  int64_t input_elements() const { return batches * height * width * channels; }
  int64_t output_elements() const { return batches * out_height * out_width * channels; }
};

std::vector<Tap> taps(const resize::Resampling& r, int64_t in, int64_t out) {
  std::vector<Tap> t(static_cast<size_t>(out));
  if (r.mode == Mode::kNearest) {
    const resize::AxisTable table = resize::axis_table(r, in, out);
    for (size_t x = 0; x < t.size(); ++x) t[x].first = t[x].second = static_cast<int64_t>(table.first[x]);
    return t;
  }
  for (int64_t x = 0; x < out; ++x) {
    const resize::LinearPosition p =
        resize::linear_position(resize::input_coordinate(r.transformation, x, in, out), in);
    const auto weight = static_cast<int32_t>(std::lround(p.weight * kOne));
    Tap& tap = t[static_cast<size_t>(x)];
    tap.first = p.first;
    tap.second = p.second;
    tap.rest = dsp::halfword_weight(kOne - weight);
    tap.weight = dsp::halfword_weight(weight);
  }
  return t;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  return create_dsp_kernel<ResizeDsp>(ctx, &oprig_resize__dsp, out_kernel, [&](ResizeDsp& k) {
    const std::optional<resize::Resampling> r = resize::read_resampling(params, num_params);
    if (!r) return OPRIG_STATUS_INVALID_ARGUMENT;
    static_cast<resize::Resampling&>(k) = *r;
    return OPRIG_STATUS_OK;
  });
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<ResizeDsp>(handle);
  k->prepared = false;
  if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  oprig_tensor& out = outputs[0];
  // No float on the simulated DSP: UINT_8 codes only.
  if (!quantised_u8(in)) return OPRIG_STATUS_UNSUPPORTED;
  if (out.dtype != in.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (!quantised_u8(out)) return OPRIG_STATUS_UNSUPPORTED;
  if (in.rank != 4 || in.dims[0] < 0 || in.dims[1] < 1 || in.dims[2] < 1 || in.dims[3] < 0)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  // Zero points are codes: z_in * 2^20 and the 32-bit lanes then never overflow.
  if (in.zero_point < 0 || in.zero_point > 255 || out.zero_point < 0 || out.zero_point > 255)
    return OPRIG_STATUS_UNSUPPORTED;
  k->batches = in.dims[0];
  k->height = in.dims[1];
  k->width = in.dims[2];
  k->channels = in.dims[3];
  k->in_scale = in.scale;
  k->in_zero = in.zero_point;
  k->out_scale = out.scale;
  k->out_zero = out.zero_point;
  k->rows = taps(*k, k->height, k->out_height);
  k->columns = taps(*k, k->width, k->out_width);
  if (k->mode == Mode::kNearest)
    k->requantize.build_requantize(k->in_scale, k->in_zero, k->out_scale, k->out_zero);
  else if (!quant::multiplier(k->in_scale / (k->out_scale * kOne * kOne), &k->blend))
    return OPRIG_STATUS_UNSUPPORTED;
  const auto row_codes = static_cast<size_t>(k->width * k->channels);
  k->workspace.assign(k->mode == Mode::kBilinear ? (row_codes + kVector - 1) / kVector * kVector * 4 + kVector : 0, 0);
  out.rank = 4;
  out.dims[0] = k->batches;
  out.dims[1] = k->out_height;
  out.dims[2] = k->out_width;
  out.dims[3] = k->channels;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

// The HVX program: output pixels in order, each a loop over channel vectors.
class Program {
 public:
  Program(const ResizeDsp& k, const uint8_t* src, uint8_t* dst) : k_(k), src_(src), dst_(dst) {}

  void run() {
    if (k_.mode == Mode::kNearest) nearest();
    else bilinear();
  }

 private:
  const uint8_t* pixel(int64_t n, int64_t h, int64_t w) const {
    return src_ + ((n * k_.height + h) * k_.width + w) * k_.channels;
  }

  void nearest() {
    std::optional<dsp::CodeLookup> lookup;
    if (!k_.same_quantization()) lookup.emplace(k_.requantize);
    uint8_t* y = dst_;
    for (int64_t n = 0; n < k_.batches; ++n)
      for (const Tap& row : k_.rows)
        for (const Tap& column : k_.columns) {
          const uint8_t* x = pixel(n, row.first, column.first);
          for (int64_t c0 = 0; c0 < k_.channels; c0 += kVector) {
            const auto count = static_cast<size_t>(k_.channels - c0);
            HVX_Vector v = oprig_dsp_load_bytes(x + c0, count);
            if (lookup) v = (*lookup)(v);
            oprig_dsp_store_bytes(y + c0, count, v);
          }
          y += k_.channels;
        }
  }

  // BILINEAR in two passes over whole rows. Per output row, the vertical
  // blend of its two input rows, a whole row of W * C codes at a time as
  // full vectors, into a workspace of Q10 words (ry * top + wy * bottom);
  // then per output pixel the horizontal blend of the two columns' words
  // (rx * left + wx * right: Q20, the exact sum of the four products), only
  // the word vectors that hold its channels, rounded and narrowed (with a
  // multiple of 32 channels, four word vectors of consecutive pixels to one
  // store).
  void bilinear() {
    const bool same = k_.same_quantization();
    const HVX_Vector zero = Q6_V_vzero();
    const HVX_Vector half = Q6_V_vsplat_R(1 << (2 * kFractionBits - 1));
    const HVX_Vector in_offset = Q6_V_vsplat_R(k_.in_zero * kOne * kOne);
    const HVX_Vector out_zero = Q6_V_vsplat_R(k_.out_zero);
    const HVX_Vector m = Q6_V_vsplat_R(k_.blend.m);
    // A Q20 blend of codes to output codes (words, saturated when narrowed).
    const auto requantize = [&](HVX_Vector acc) {
      return same ? Q6_Vw_vasr_VwR(Q6_Vw_vadd_VwVw(acc, half), 2 * kFractionBits)
                  : Q6_Vw_vadd_VwVw(dsp::scale_words(Q6_Vw_vsub_VwVw(acc, in_offset), m, k_.blend, zero), out_zero);
    };
    const auto row_codes = static_cast<size_t>(k_.width * k_.channels);
    const size_t row_words_bytes = (row_codes + kVector - 1) / kVector * kVector * 4;
    auto* blended = reinterpret_cast<uint8_t*>(k_.workspace_base());
    oprig_dsp_map_writable(blended, row_words_bytes, "the vertically blended row");
    uint8_t* y = dst_;
    for (int64_t n = 0; n < k_.batches; ++n)
      for (const Tap& row : k_.rows) {
        const uint8_t* top = pixel(n, row.first, 0);
        const uint8_t* bottom = pixel(n, row.second, 0);
        for (size_t x0 = 0; x0 < row_codes; x0 += kVector) {
          HVX_Vector a[4], c[4];
          oprig_dsp_widen_ub_w(oprig_dsp_load_bytes(top + x0, row_codes - x0), a);
          oprig_dsp_widen_ub_w(oprig_dsp_load_bytes(bottom + x0, row_codes - x0), c);
          for (int i = 0; i < 4; ++i)
            oprig_vmem_store(blended + 4 * x0 + i * kVector, dsp::weighted_sum_w(a[i], row.rest, c[i], row.weight));
        }
        if (k_.channels % 32 == 0) {
          // Whole word vectors per pixel: the output row is a stream of word
          // vectors, each from one pixel's two columns (aligned loads), four
          // narrowed into one store.
          const auto per_pixel = static_cast<size_t>(k_.channels / 32);
          const size_t total = k_.columns.size() * per_pixel, out_row_bytes = 32 * total;
          for (size_t j0 = 0; j0 < total; j0 += 4) {
            HVX_Vector q[4] = {zero, zero, zero, zero};
            for (size_t i = 0; i < 4 && j0 + i < total; ++i) {
              const Tap& column = k_.columns[(j0 + i) / per_pixel];
              const size_t block = (j0 + i) % per_pixel;
              const HVX_Vector acc = dsp::weighted_sum_w(
                  oprig_vmem_load(blended + kVector * (static_cast<size_t>(column.first) * per_pixel + block)),
                  column.rest,
                  oprig_vmem_load(blended + kVector * (static_cast<size_t>(column.second) * per_pixel + block)),
                  column.weight);  // Q20
              q[i] = requantize(acc);
            }
            oprig_dsp_store_bytes(y + 32 * j0, out_row_bytes - 32 * j0, oprig_dsp_narrow_w_ub_sat(q));
          }
          y += out_row_bytes;
          continue;
        }
        for (const Tap& column : k_.columns) {
          const uint8_t* left = blended + 4 * column.first * k_.channels;
          const uint8_t* right = blended + 4 * column.second * k_.channels;
          for (int64_t c0 = 0; c0 < k_.channels; c0 += kVector) {
            const auto count = static_cast<size_t>(k_.channels - c0);
            const size_t words = (std::min(count, kVector) + 31) / 32;  // word vectors holding channels
            HVX_Vector q[4] = {zero, zero, zero, zero};
            for (size_t i = 0; i < words; ++i) {
              const size_t at = 4 * static_cast<size_t>(c0) + i * kVector;
              const HVX_Vector acc =
                  dsp::weighted_sum_w(oprig_dsp_load_bytes(left + at, row_words_bytes - (left - blended) - at),
                                      column.rest,
                                      oprig_dsp_load_bytes(right + at, row_words_bytes - (right - blended) - at),
                                      column.weight);  // Q20
              q[i] = requantize(acc);
            }
            oprig_dsp_store_bytes(y + c0, count, oprig_dsp_narrow_w_ub_sat(q));
          }
          y += k_.channels;
        }
      }
  }

  const ResizeDsp& k_;
  const uint8_t* src_;
  uint8_t* dst_;
};

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<ResizeDsp>(handle);
  return execute_dsp_unary(k->ctx, k->prepared, static_cast<size_t>(k->input_elements()), static_cast<size_t>(k->output_elements()), inputs, num_inputs, outputs, num_outputs, info,
                           [&](const uint8_t* src, uint8_t* dst) { Program(*k, src, dst).run(); });
}

void destroy(oprig_kernel* handle) { delete from_handle<ResizeDsp>(handle); }

// Integer work only (flops 0); each output reads its neighbours, at most
// the whole input, and is written once.
oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ResizeDsp>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto outputs = static_cast<uint64_t>(k->output_elements());
  const auto inputs = static_cast<uint64_t>(k->input_elements());
  *out = {0, std::min(inputs, (k->mode == Mode::kBilinear ? 4 : 1) * outputs), outputs};
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_resize__dsp = {"Resize", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
