// Conv2D on the cpu backend: NHWC activations (the spec's CPU layout),
// weights [kernel_height, kernel_width, channel_in / group, channel_out],
// optional bias, FLOAT_32 and FLOAT_16. An indirect GEMM per group
// (conv_microkernels.hpp): output pixels in tiles of MR, output channels in
// panels of NR, the micro-kernel reading each input pixel through a pointer
// (padding through a row of zeros), so no im2col buffer is ever written. The
// weights are repacked into NR-wide panels at every execute (they are small
// next to the arithmetic, and a static tensor's data is only seen there).
// FLOAT_16 is widened to fp32 once, convolved in fp32 and rounded once.
//
// Threads: the pixel tiles are cut into one contiguous share per thread;
// each thread builds its own pointer rows, and every output element sums in
// the same order whatever the share, so thread counts agree bit for bit.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "common/aligned_floats.hpp"
#include "common/half_convert.hpp"
#include "common/kernel.hpp"
#include "conv2d/conv_geometry.hpp"
#include "conv2d/conv_microkernels.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_conv2d__cpu;

namespace {

struct Conv2DCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  conv2d::Params params;
  // From prepare().
  conv2d::Geometry g;
  oprig_cpu_isa isa = OPRIG_CPU_ISA_SCALAR;
  size_t mr = 1, nr = 1, panels = 0;   // tile of the chosen ISA; NR-panels per group
  size_t tiles = 0, slots = 1;
  AlignedFloats packed_w, packed_bias, zeros;
  mutable std::vector<const float*> rows;  // scratch: slots x taps x MR pointers, each slot its own
  AlignedFloats wide_in, wide_w, wide_bias, wide_out;  // FLOAT_16: fp32 copies
};

template <class Tile>
struct TileSizes {
  static constexpr size_t mr = Tile::kMR, nr = Tile::kNR;
};

template <class F>
auto with_tile(oprig_cpu_isa isa, F&& f) {
#if defined(__x86_64__)
  if (isa == OPRIG_CPU_ISA_AVX512) return f(TileSizes<ConvTileAvx512>{});
  if (isa == OPRIG_CPU_ISA_AVX2) return f(TileSizes<ConvTileAvx2>{});
#endif
  return f(TileSizes<ConvTileScalar>{});
}

// Below this much arithmetic a thread hand-off costs more than it saves.
constexpr double kMinFlopsPerThread = 2e6;

// ---- execution --------------------------------------------------------------------

struct Run {
  const Conv2DCpuKernel* k;
  const float* in;
  float* out;
};

// The pointer rows of one tile: for every tap, MR pointers to channel 0 of
// the input pixel each output pixel reads there (the zero row outside the image).
void build_rows(const Conv2DCpuKernel& k, const float* in, size_t tile, const float** rows) {
  const size_t pixels = static_cast<size_t>(k.g.batch * k.g.out_h * k.g.out_w);
  const size_t taps = static_cast<size_t>(k.g.kh * k.g.kw);
  for (size_t i = 0; i < k.mr; ++i) {
    const size_t p = tile * k.mr + i;
    if (p >= pixels) {  // past the last pixel: read zeros, store nothing
      for (size_t t = 0; t < taps; ++t) rows[t * k.mr + i] = k.zeros.get();
      continue;
    }
    const int64_t ox = static_cast<int64_t>(p % static_cast<size_t>(k.g.out_w));
    const int64_t oy = static_cast<int64_t>(p / static_cast<size_t>(k.g.out_w) % static_cast<size_t>(k.g.out_h));
    const int64_t n = static_cast<int64_t>(p / static_cast<size_t>(k.g.out_w * k.g.out_h));
    for (int64_t ky = 0; ky < k.g.kh; ++ky) {
      const int64_t iy = oy * k.params.stride[0] - k.g.pad_top + ky * k.params.dilation[0];
      for (int64_t kx = 0; kx < k.g.kw; ++kx) {
        const int64_t ix = ox * k.params.stride[1] - k.g.pad_left + kx * k.params.dilation[1];
        const bool inside = iy >= 0 && iy < k.g.height && ix >= 0 && ix < k.g.width;
        rows[static_cast<size_t>(ky * k.g.kw + kx) * k.mr + i] =
            inside ? in + ((n * k.g.height + iy) * k.g.width + ix) * k.g.c_in : k.zeros.get();
      }
    }
  }
}

template <class Tile>
void run_tiles(const Run& r, size_t slot) {
  const Conv2DCpuKernel& k = *r.k;
  const size_t taps = static_cast<size_t>(k.g.kh * k.g.kw), cin = static_cast<size_t>(k.g.group_in);
  const size_t pixels = static_cast<size_t>(k.g.batch * k.g.out_h * k.g.out_w);
  const float** rows = k.rows.data() + slot * taps * Tile::kMR;
  const size_t panel_floats = taps * cin * Tile::kNR;
  const size_t first = k.tiles * slot / k.slots, last = k.tiles * (slot + 1) / k.slots;
  for (size_t tile = first; tile < last; ++tile) {
    build_rows(k, r.in, tile, rows);
    const size_t mr = std::min(Tile::kMR, pixels - tile * Tile::kMR);
    float* out_tile = r.out + tile * Tile::kMR * static_cast<size_t>(k.g.c_out);
    for (int64_t g = 0; g < k.params.group; ++g) {
      if (g > 0) {  // the next group's input channels: every pointer moves on, the zero row too (it is c_in long)
        for (size_t e = 0; e < taps * Tile::kMR; ++e) rows[e] += cin;
      }
      for (size_t p = 0; p < k.panels; ++p) {
        const size_t col = p * Tile::kNR;
        const size_t nr = std::min(Tile::kNR, static_cast<size_t>(k.g.group_out) - col);
        const size_t panel = static_cast<size_t>(g) * k.panels + p;
        Tile::run(taps, cin, rows, k.packed_w.get() + panel * panel_floats, k.packed_bias.get() + panel * Tile::kNR,
                  out_tile + static_cast<size_t>(g * k.g.group_out) + col, static_cast<size_t>(k.g.c_out), mr, nr);
      }
    }
  }
}

void run_slots(void* arg, size_t begin, size_t end) {
  const Run& r = *static_cast<const Run*>(arg);
  for (size_t slot = begin; slot < end; ++slot) {
#if defined(__x86_64__)
    if (r.k->isa == OPRIG_CPU_ISA_AVX512) {
      run_tiles<ConvTileAvx512>(r, slot);
      continue;
    }
    if (r.k->isa == OPRIG_CPU_ISA_AVX2) {
      run_tiles<ConvTileAvx2>(r, slot);
      continue;
    }
#endif
    run_tiles<ConvTileScalar>(r, slot);
  }
}

// Weights [taps, group_in, c_out] into per-group panels of NR output channels,
// k-major and zero-padded; the bias (or zeros) likewise.
void pack_weights(Conv2DCpuKernel& k, const float* w, const float* bias) {
  const size_t taps_cin = static_cast<size_t>(k.g.kh * k.g.kw * k.g.group_in);
  float* dst = k.packed_w.get();
  float* b = k.packed_bias.get();
  for (int64_t g = 0; g < k.params.group; ++g)
    for (size_t p = 0; p < k.panels; ++p, b += k.nr) {
      const size_t col0 = static_cast<size_t>(g * k.g.group_out) + p * k.nr;
      const size_t valid = std::min(k.nr, static_cast<size_t>(k.g.group_out) - p * k.nr);
      for (size_t q = 0; q < taps_cin; ++q, dst += k.nr) {
        std::memcpy(dst, w + q * static_cast<size_t>(k.g.c_out) + col0, valid * sizeof(float));
        std::fill(dst + valid, dst + k.nr, 0.0f);
      }
      for (size_t j = 0; j < k.nr; ++j) b[j] = k.g.has_bias && j < valid ? bias[col0 + j] : 0.0f;
    }
}

size_t count(const oprig_tensor& t) { return element_count(t); }

// ---- the ABI ----------------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* kernel = new (std::nothrow) Conv2DCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_conv2d__cpu;
  kernel->ctx = ctx;
  if (!conv2d::read_params(params, num_params, &kernel->params)) {
    delete kernel;
    return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto& k = *from_handle<Conv2DCpuKernel>(handle);
  const oprig_status st =
      conv2d::plan(k.params, conv2d::Layout::kNHWC, inputs, num_inputs, outputs, num_outputs, &k.g, true);
  if (st != OPRIG_STATUS_OK) return st;
  if (k.g.quantized) return OPRIG_STATUS_OK;  // the integer path needs no packing
  const conv2d::Geometry& g = k.g;
  k.isa = static_cast<oprig_cpu_isa>(k.ctx->cpu_isa);
  k.mr = with_tile(k.isa, [](auto t) { return decltype(t)::mr; });
  k.nr = with_tile(k.isa, [](auto t) { return decltype(t)::nr; });
  k.panels = (static_cast<size_t>(g.group_out) + k.nr - 1) / k.nr;
  const size_t pixels = static_cast<size_t>(g.pixels());
  k.tiles = (pixels + k.mr - 1) / k.mr;
  const double flops = 2.0 * static_cast<double>(pixels) * static_cast<double>(g.c_out) * static_cast<double>(g.depth());
  k.slots = std::clamp<size_t>(static_cast<size_t>(flops / kMinFlopsPerThread), 1,
                               std::min<size_t>(std::max<uint32_t>(1, k.ctx->cpu_threads), std::max<size_t>(1, k.tiles)));
  const size_t taps = static_cast<size_t>(g.kh * g.kw);
  const size_t group_panels = static_cast<size_t>(k.params.group) * k.panels;
  k.packed_w = aligned_floats(group_panels * taps * static_cast<size_t>(g.group_in) * k.nr);
  k.packed_bias = aligned_floats(group_panels * k.nr);
  k.zeros = aligned_floats(static_cast<size_t>(g.c_in));
  if (!k.packed_w || !k.packed_bias || !k.zeros) return OPRIG_STATUS_OUT_OF_MEMORY;
  std::fill_n(k.zeros.get(), std::max<int64_t>(g.c_in, 1), 0.0f);
  k.rows.assign(k.slots * taps * k.mr, nullptr);
  k.wide_in.reset();
  k.wide_w.reset();
  k.wide_bias.reset();
  k.wide_out.reset();
  if (g.dtype == OPRIG_DTYPE_FLOAT_16) {
    k.wide_in = aligned_floats(count(inputs[0]));
    k.wide_w = aligned_floats(count(inputs[1]));
    k.wide_bias = aligned_floats(static_cast<size_t>(g.c_out));
    k.wide_out = aligned_floats(pixels * static_cast<size_t>(g.c_out));
    if (!k.wide_in || !k.wide_w || !k.wide_bias || !k.wide_out) return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs < 2 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto& k = *from_handle<Conv2DCpuKernel>(handle);
  const size_t out_count = static_cast<size_t>(k.g.batch * k.g.out_h * k.g.out_w * k.g.c_out);
  if (out_count == 0) return OPRIG_STATUS_OK;
  if (k.g.quantized) {  // quant_conv.hpp's integer rule, element by element
    quant::conv_nhwc(conv2d::conv_shape(k.g), k.g.rule, inputs[0].data, static_cast<const int8_t*>(inputs[1].data),
                     k.g.has_bias ? static_cast<const int32_t*>(inputs[2].data) : nullptr, outputs[0].data);
    return OPRIG_STATUS_OK;
  }
  const float* in = static_cast<const float*>(inputs[0].data);
  const float* w = static_cast<const float*>(inputs[1].data);
  const float* bias = k.g.has_bias ? static_cast<const float*>(inputs[2].data) : nullptr;
  float* out = static_cast<float*>(outputs[0].data);
  if (k.g.dtype == OPRIG_DTYPE_FLOAT_16) {
    const bool f16c = k.isa != OPRIG_CPU_ISA_SCALAR;
    widen_half(inputs[0].data, k.wide_in.get(), count(inputs[0]), f16c);
    widen_half(inputs[1].data, k.wide_w.get(), count(inputs[1]), f16c);
    if (k.g.has_bias) widen_half(inputs[2].data, k.wide_bias.get(), static_cast<size_t>(k.g.c_out), f16c);
    in = k.wide_in.get();
    w = k.wide_w.get();
    bias = k.wide_bias.get();
    out = k.wide_out.get();
  }
  pack_weights(k, w, bias);
  Run run{&k, in, out};
  k.ctx->cpu_parallel_for(k.ctx->cpu_pool, k.slots, 1, run_slots, &run);
  if (k.g.dtype == OPRIG_DTYPE_FLOAT_16) narrow_half(k.wide_out.get(), outputs[0].data, out_count, k.isa != OPRIG_CPU_ISA_SCALAR);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<Conv2DCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = conv2d::cost_of(from_handle<const Conv2DCpuKernel>(handle)->g);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_conv2d__cpu = {"Conv2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
