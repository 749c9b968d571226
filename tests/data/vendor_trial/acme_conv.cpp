// Conv2D of the trial package. The kernel is a direct convolution as a
// vendor's first cpu port is written; the bugs planted in it ($ACME_BUG) are
// the ones such ports ship with: a stride or a pad read from the wrong
// element, dilation or the group's channel offset forgotten, the bias left
// out, an output-channel loop blocked by 8 without its tail, an fp16 running
// sum, edge pixels repeated instead of zeros, a threaded path that drops the
// remainder, RELU6 clamped like RELU, the filter flipped (convolution instead
// of cross-correlation), the output size rounded up. Correct variants
// ($ACME_VARIANT): reverse (the taps summed in the opposite order),
// nan_payload (a NaN result written with another payload and sign).
#include "acme_conv.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "acme_support.hpp"

namespace acme {
namespace {

const oprig_param* param_with(const oprig_param* params, size_t n, const char* name) {
  for (size_t i = 0; i < n; ++i)
    if (params[i].name != nullptr && std::strcmp(params[i].name, name) == 0 && params[i].data != nullptr)
      return &params[i];
  return nullptr;
}

// A UINT_32 (or INT_32) tensor parameter of `count` elements; the spec's
// Default when absent. false: another count or a negative element.
bool uint_elements(const oprig_param* params, size_t n, const char* name, size_t count, int64_t* into) {
  const oprig_param* p = param_with(params, n, name);
  if (p == nullptr) return true;
  if (p->count != count) return false;
  for (size_t i = 0; i < count; ++i) {
    if (p->dtype == OPRIG_DTYPE_UINT_32) {
      uint32_t v;
      std::memcpy(&v, static_cast<const char*>(p->data) + i * sizeof v, sizeof v);
      into[i] = v;
    } else if (p->dtype == OPRIG_DTYPE_INT_32) {
      int32_t v;
      std::memcpy(&v, static_cast<const char*>(p->data) + i * sizeof v, sizeof v);
      if (v < 0) return false;
      into[i] = v;
    } else {
      return false;
    }
  }
  return true;
}

int64_t output_size(int64_t size, int64_t pads, int64_t filter, int64_t dilation, int64_t stride, bool round_up) {
  const int64_t span = size + pads - ((filter - 1) * dilation + 1);
  if (span < 0) return 0;
  return (round_up ? (span + stride - 1) / stride : span / stride) + 1;
}

double activate(double v, uint32_t activation, bool as_kernel) {
  if (activation == 0 || std::isnan(v)) return v;
  v = std::max(v, 0.0);
  if (activation == 2 && !(as_kernel && bug("relu6_as_relu"))) v = std::min(v, 6.0);
  return v;
}

}  // namespace

bool conv_params(const oprig_param* params, size_t num_params, ConvGeometry& g) {
  int64_t pads[4] = {0, 0, 0, 0};
  int64_t group = 1, activation = 0;
  if (!uint_elements(params, num_params, "stride", 2, g.stride) ||
      !uint_elements(params, num_params, "dilation", 2, g.dilation) ||
      !uint_elements(params, num_params, "pad_amount", 4, pads) ||
      !uint_elements(params, num_params, "group", 1, &group) ||
      !uint_elements(params, num_params, "activation", 1, &activation))
    return false;
  g.pad_top = pads[0];
  g.pad_bottom = pads[1];
  g.pad_left = pads[2];
  g.pad_right = pads[3];
  g.group = group;
  g.activation = static_cast<uint32_t>(activation);
  return g.stride[0] >= 1 && g.stride[1] >= 1 && g.dilation[0] >= 1 && g.dilation[1] >= 1 && g.group >= 1 &&
         activation <= 2;
}

oprig_status conv_shapes(ConvGeometry& g, const oprig_tensor* in, size_t ni, oprig_tensor* out, size_t no,
                         bool as_kernel) {
  if (ni < 2 || ni > 3 || no != 1 || in[0].rank != 4 || in[1].rank != 4) return OPRIG_STATUS_INVALID_ARGUMENT;
  g.has_bias = ni == 3 && in[2].dtype != OPRIG_DTYPE_INVALID;
  g.batch = in[0].dims[0];
  g.height = in[0].dims[1];
  g.width = in[0].dims[2];
  g.channel_in = in[0].dims[3];
  g.filter_height = in[1].dims[0];
  g.filter_width = in[1].dims[1];
  g.channel_out = in[1].dims[3];
  if (g.filter_height < 1 || g.filter_width < 1 || g.channel_out < 1 || g.channel_in < 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (g.channel_in % g.group != 0 || g.channel_out % g.group != 0 || in[1].dims[2] * g.group != g.channel_in)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (g.has_bias && (in[2].rank != 1 || in[2].dims[0] != g.channel_out)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const bool ceil = as_kernel && bug("output_size_ceil");
  g.out_height = output_size(g.height, g.pad_top + g.pad_bottom, g.filter_height, g.dilation[0], g.stride[0], ceil);
  g.out_width = output_size(g.width, g.pad_left + g.pad_right, g.filter_width, g.dilation[1], g.stride[1], ceil);
  if (g.out_height < 1 || g.out_width < 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  out[0].rank = 4;
  out[0].dims[0] = g.batch;
  out[0].dims[1] = g.out_height;
  out[0].dims[2] = g.out_width;
  out[0].dims[3] = g.channel_out;
  return OPRIG_STATUS_OK;
}

void conv_reference(const ConvGeometry& g, const double* in, const double* w, const double* bias, double* out) {
  const int64_t group_in = g.channel_in / g.group, group_out = g.channel_out / g.group;
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t y = 0; y < g.out_height; ++y)
      for (int64_t x = 0; x < g.out_width; ++x)
        for (int64_t co = 0; co < g.channel_out; ++co) {
          const int64_t first_in = co / group_out * group_in;
          double sum = g.has_bias ? bias[co] : 0.0;
          for (int64_t ky = 0; ky < g.filter_height; ++ky) {
            const int64_t iy = y * g.stride[0] - g.pad_top + ky * g.dilation[0];
            if (iy < 0 || iy >= g.height) continue;
            for (int64_t kx = 0; kx < g.filter_width; ++kx) {
              const int64_t ix = x * g.stride[1] - g.pad_left + kx * g.dilation[1];
              if (ix < 0 || ix >= g.width) continue;
              for (int64_t ci = 0; ci < group_in; ++ci)
                sum += in[((n * g.height + iy) * g.width + ix) * g.channel_in + first_in + ci] *
                       w[((ky * g.filter_width + kx) * group_in + ci) * g.channel_out + co];
            }
          }
          out[((n * g.out_height + y) * g.out_width + x) * g.channel_out + co] = activate(sum, g.activation, false);
        }
}

void conv_kernel(const ConvGeometry& g, const oprig_tensor* inputs, const oprig_tensor& out) {
  const oprig_tensor &in = inputs[0], &w = inputs[1];
  const int64_t group_in = g.channel_in / g.group, group_out = g.channel_out / g.group;
  const int64_t stride_x = bug("stride_h_for_w") ? g.stride[0] : g.stride[1];
  const int64_t dil_y = bug("dilation_ignored") ? 1 : g.dilation[0];
  const int64_t dil_x = bug("dilation_ignored") ? 1 : g.dilation[1];
  const int64_t pad_top = bug("pad_bottom_as_top") ? g.pad_bottom : g.pad_top;
  // Output channels in blocks of 8, as a vectorised loop does; the buggy one has no tail.
  const int64_t channels = bug("channel_tail_dropped") ? g.channel_out / 8 * 8 : g.channel_out;
  // A "threaded" path above 2^18 outputs whose split drops the last image's last row.
  int64_t rows_of_last = g.out_height;
  if (bug("conv_threaded_remainder") && g.batch * g.out_height * g.out_width * g.channel_out >= (int64_t{1} << 18))
    rows_of_last -= 1;
  const float nan = variant("nan_payload") ? -std::numeric_limits<float>::quiet_NaN()
                                           : std::numeric_limits<float>::quiet_NaN();
  const size_t total = static_cast<size_t>(g.batch * g.out_height * g.out_width * g.channel_out);
  for (size_t i = 0; i < total; ++i) store(out, i, 0.0f);
  std::vector<float> terms;
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t y = 0; y < (n + 1 == g.batch ? rows_of_last : g.out_height); ++y)
      for (int64_t x = 0; x < g.out_width; ++x)
        for (int64_t co = 0; co < channels; ++co) {
          const int64_t first_in = bug("group_offset_missing") ? 0 : co / group_out * group_in;
          terms.clear();
          for (int64_t ky = 0; ky < g.filter_height; ++ky) {
            int64_t iy = y * g.stride[0] - pad_top + ky * dil_y;
            if (bug("pad_replicate")) iy = std::clamp<int64_t>(iy, 0, g.height - 1);
            if (iy < 0 || iy >= g.height) continue;
            for (int64_t kx = 0; kx < g.filter_width; ++kx) {
              int64_t ix = x * stride_x - g.pad_left + kx * dil_x;
              if (bug("pad_replicate")) ix = std::clamp<int64_t>(ix, 0, g.width - 1);
              if (ix < 0 || ix >= g.width) continue;
              const int64_t wy = bug("kernel_flipped") ? g.filter_height - 1 - ky : ky;
              const int64_t wx = bug("kernel_flipped") ? g.filter_width - 1 - kx : kx;
              for (int64_t ci = 0; ci < group_in; ++ci)
                terms.push_back(
                    load(in, static_cast<size_t>(((n * g.height + iy) * g.width + ix) * g.channel_in + first_in + ci)) *
                    load(w, static_cast<size_t>(((wy * g.filter_width + wx) * group_in + ci) * g.channel_out + co)));
            }
          }
          float sum = g.has_bias && !bug("bias_ignored") ? load(inputs[2], static_cast<size_t>(co)) : 0.0f;
          if (variant("reverse")) {
            for (size_t t = terms.size(); t-- > 0;) sum += terms[t];
          } else if (bug("conv_fp16_accumulator")) {
            for (float t : terms) sum = round_half(sum + t);
          } else {
            for (float t : terms) sum += t;
          }
          const double v = activate(sum, g.activation, true);
          store(out, static_cast<size_t>(((n * g.out_height + y) * g.out_width + x) * g.channel_out + co),
                std::isnan(v) ? nan : static_cast<float>(v));
        }
}

}  // namespace acme
