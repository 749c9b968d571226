// DepthwiseConv2D on the cpu backend: NHWC activations, weights
// [kernel_height, kernel_width, 1, channels * multiplier], optional bias,
// FLOAT_32 and FLOAT_16. Output rows are cut into tiles of PX pixels, and
// each tile (depthwise_tiles.hpp) runs along all output channels in vectors,
// reading the input, weights and bias where they are stored (no packing: all
// three are channel-contiguous). FLOAT_16 is widened to fp32 once, convolved
// in fp32 and rounded once.
//
// Threads: the output rows (batch x height) are cut into one contiguous share
// per thread; every output element sums in the same order whatever the share,
// so thread counts agree bit for bit.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "common/aligned_floats.hpp"
#include "common/half_convert.hpp"
#include "common/kernel.hpp"
#include "depthwise_conv2d/depthwise_geometry.hpp"
#include "depthwise_conv2d/depthwise_tiles.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_depthwise_conv2d__cpu;

namespace {

struct DepthwiseCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  depthwise::Params params;
  // From prepare().
  depthwise::Geometry g;
  oprig_cpu_isa isa = OPRIG_CPU_ISA_SCALAR;
  size_t slots = 1;
  ChannelBlocks blocks;
  AlignedFloats no_bias;  // c_out zeros
  AlignedFloats wide_in, wide_w, wide_bias, wide_out;  // FLOAT_16: fp32 copies
};

template <class F>
auto with_tile(oprig_cpu_isa isa, F&& f) {
#if defined(__x86_64__)
  if (isa == OPRIG_CPU_ISA_AVX512) return f(DepthwiseTileAvx512{});
  if (isa == OPRIG_CPU_ISA_AVX2) return f(DepthwiseTileAvx2{});
#endif
  return f(DepthwiseTileScalar{});
}

// Below this much arithmetic a thread hand-off costs more than it saves.
constexpr double kMinFlopsPerThread = 1e6;

// ---- execution ----------------------------------------------------------------------

struct Run {
  const DepthwiseCpuKernel* k;
  DepthwiseShape shape;
  float* out;
};

template <class Tile>
void run_rows(const Run& r, size_t slot) {
  const DepthwiseCpuKernel& k = *r.k;
  constexpr size_t PX = Tile::kPixels;
  const size_t total_rows = static_cast<size_t>(k.g.batch * k.g.out_h);
  const size_t first = total_rows * slot / k.slots, last = total_rows * (slot + 1) / k.slots;
  for (size_t row = first; row < last; ++row) {
    float* out_row = r.out + row * static_cast<size_t>(k.g.out_w * k.g.c_out);
    const int64_t n = static_cast<int64_t>(row / static_cast<size_t>(k.g.out_h));
    const int64_t oy = static_cast<int64_t>(row % static_cast<size_t>(k.g.out_h));
    for (int64_t ox0 = 0; ox0 < k.g.out_w; ox0 += static_cast<int64_t>(PX)) {
      const TileSpot spot{n, oy, ox0, std::min<size_t>(PX, static_cast<size_t>(k.g.out_w - ox0))};
      Tile::run(r.shape, k.blocks, spot, out_row + ox0 * k.g.c_out);
    }
  }
}

void run_slots(void* arg, size_t begin, size_t end) {
  const Run& r = *static_cast<const Run*>(arg);
  for (size_t slot = begin; slot < end; ++slot) {
#if defined(__x86_64__)
    if (r.k->isa == OPRIG_CPU_ISA_AVX512) {
      run_rows<DepthwiseTileAvx512>(r, slot);
      continue;
    }
    if (r.k->isa == OPRIG_CPU_ISA_AVX2) {
      run_rows<DepthwiseTileAvx2>(r, slot);
      continue;
    }
#endif
    run_rows<DepthwiseTileScalar>(r, slot);
  }
}

// ---- the ABI ------------------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* kernel = new (std::nothrow) DepthwiseCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_depthwise_conv2d__cpu;
  kernel->ctx = ctx;
  if (!depthwise::read_params(params, num_params, &kernel->params)) {
    delete kernel;
    return OPRIG_STATUS_INVALID_ARGUMENT;
  }
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto& k = *from_handle<DepthwiseCpuKernel>(handle);
  const oprig_status st = depthwise::plan(k.params, inputs, num_inputs, outputs, num_outputs, &k.g, true);
  if (st != OPRIG_STATUS_OK) return st;
  if (k.g.quantized) return OPRIG_STATUS_OK;  // the integer path needs no packing
  const depthwise::Geometry& g = k.g;
  k.isa = static_cast<oprig_cpu_isa>(k.ctx->cpu_isa);
  const size_t lanes = with_tile(k.isa, [](auto t) { return decltype(t)::kLanes; });
  k.blocks.plan(static_cast<size_t>(g.c_out), static_cast<size_t>(g.channels), static_cast<size_t>(g.multiplier()), lanes);
  const size_t out_count = static_cast<size_t>(g.output_elements());
  const double flops = 2.0 * static_cast<double>(out_count) * static_cast<double>(g.kh * g.kw);
  const size_t total_rows = static_cast<size_t>(g.batch * g.out_h);
  k.slots = std::clamp<size_t>(static_cast<size_t>(flops / kMinFlopsPerThread), 1,
                               std::min<size_t>(std::max<uint32_t>(1, k.ctx->cpu_threads), std::max<size_t>(1, total_rows)));
  k.no_bias = aligned_floats(static_cast<size_t>(g.c_out));
  if (!k.no_bias) return OPRIG_STATUS_OUT_OF_MEMORY;
  std::fill_n(k.no_bias.get(), g.c_out, 0.0f);
  k.wide_in.reset();
  k.wide_w.reset();
  k.wide_bias.reset();
  k.wide_out.reset();
  if (g.dtype == OPRIG_DTYPE_FLOAT_16) {
    k.wide_in = aligned_floats(element_count(inputs[0]));
    k.wide_w = aligned_floats(element_count(inputs[1]));
    k.wide_bias = aligned_floats(static_cast<size_t>(g.c_out));
    k.wide_out = aligned_floats(out_count);
    if (!k.wide_in || !k.wide_w || !k.wide_bias || !k.wide_out) return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs < 2 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto& k = *from_handle<DepthwiseCpuKernel>(handle);
  const size_t out_count = static_cast<size_t>(k.g.batch * k.g.out_h * k.g.out_w * k.g.c_out);
  if (out_count == 0) return OPRIG_STATUS_OK;
  if (k.g.quantized) {  // quant_conv.hpp's integer rule, element by element
    quant::conv_nhwc(depthwise::conv_shape(k.g), k.g.rule, inputs[0].data, static_cast<const int8_t*>(inputs[1].data),
                     k.g.has_bias ? static_cast<const int32_t*>(inputs[2].data) : nullptr, outputs[0].data);
    return OPRIG_STATUS_OK;
  }
  const float* in = static_cast<const float*>(inputs[0].data);
  const float* w = static_cast<const float*>(inputs[1].data);
  const float* bias = k.g.has_bias ? static_cast<const float*>(inputs[2].data) : k.no_bias.get();
  float* out = static_cast<float*>(outputs[0].data);
  const bool f16c = k.isa != OPRIG_CPU_ISA_SCALAR;
  if (k.g.dtype == OPRIG_DTYPE_FLOAT_16) {
    widen_half(inputs[0].data, k.wide_in.get(), element_count(inputs[0]), f16c);
    widen_half(inputs[1].data, k.wide_w.get(), element_count(inputs[1]), f16c);
    if (k.g.has_bias) {
      widen_half(inputs[2].data, k.wide_bias.get(), static_cast<size_t>(k.g.c_out), f16c);
      bias = k.wide_bias.get();
    }
    in = k.wide_in.get();
    w = k.wide_w.get();
    out = k.wide_out.get();
  }
  DepthwiseShape shape;
  shape.in = in;
  shape.weights = w;
  shape.bias = bias;
  shape.height = k.g.height;
  shape.width = k.g.width;
  shape.channels = k.g.channels;
  shape.c_out = k.g.c_out;
  shape.multiplier = k.g.c_out / k.g.channels;
  shape.kh = k.g.kh;
  shape.kw = k.g.kw;
  shape.stride_h = k.params.stride[0];
  shape.stride_w = k.params.stride[1];
  shape.dilation_h = k.params.dilation[0];
  shape.dilation_w = k.params.dilation[1];
  shape.pad_top = k.params.pads[0];
  shape.pad_left = k.params.pads[2];
  Run run{&k, shape, out};
  k.ctx->cpu_parallel_for(k.ctx->cpu_pool, k.slots, 1, run_slots, &run);
  if (k.g.dtype == OPRIG_DTYPE_FLOAT_16) narrow_half(k.wide_out.get(), outputs[0].data, out_count, f16c);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<DepthwiseCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = depthwise::cost_of(from_handle<const DepthwiseCpuKernel>(handle)->g);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_depthwise_conv2d__cpu = {"DepthwiseConv2D", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
