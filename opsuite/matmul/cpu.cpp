// MatMul on the cpu backend: FLOAT_32 and FLOAT_16, optional transposes,
// batch dimensions broadcast as NumPy does. Every matrix product goes through
// one blocked, packed fp32 GEMM (gemm_blocked.hpp) whose micro-kernel is
// chosen by the backend's cpu_isa (gemm_microkernels.hpp): AVX-512, AVX2 or
// the baseline. A transposed operand is read through strides while packing,
// so transposes cost no extra pass. FLOAT_16 tensors are widened to fp32
// once, multiplied in fp32 and the result rounded once to fp16.
//
// Threads: prepare() cuts the output into one list of blocks (whole matrices
// when there are enough batches, else row or column bands of each matrix)
// and gives each of the backend's threads a contiguous share; each thread
// packs into its own slice of the kernel's workspace. A block's elements sum
// their products in the same order however the output is cut, so every
// thread count gives the same bits.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "common/aligned_floats.hpp"
#include "common/half_convert.hpp"
#include "common/kernel.hpp"
#include "matmul/cpu_quantized.hpp"
#include "matmul/gemm_blocked.hpp"
#include "matmul/gemm_microkernels.hpp"
#include "matmul/product.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_matmul__cpu;

namespace {

// One block of one output matrix: rows [row0, row0 + rows) x columns [col0, col0 + cols).
struct Block {
  size_t batch, row0, rows, col0, cols;
};

struct MatMulCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  bool transpose_a = false, transpose_b = false;
  // From prepare().
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  oprig_cpu_isa isa = OPRIG_CPU_ISA_SCALAR;
  size_t m = 0, n = 0, k = 0, batches = 0;
  size_t a_count = 0, b_count = 0;            // elements of in0, in1
  std::vector<size_t> a_offset, b_offset;     // per output batch: the matrix's first element
  std::vector<Block> blocks;
  size_t slots = 1;                           // threads that share the blocks
  size_t pack_a_floats = 0, pack_b_floats = 0;  // per slot
  AlignedFloats workspace;                    // slots x (packed A + packed B)
  AlignedFloats wide_a, wide_b, wide_c;       // FLOAT_16: fp32 copies
  bool quantized = false;                     // UINT_8 / INT_8: the integer path (cpu_quantized.hpp)
  matmul::QuantizedProduct quantized_product;
};

// ---- shapes ---------------------------------------------------------------------

oprig_status plan_shapes(MatMulCpuKernel& k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                         size_t num_outputs) {
  matmul::Product p;
  const oprig_status st = matmul::plan_product(inputs, num_inputs, outputs, num_outputs, k.transpose_a, k.transpose_b, &p);
  if (st != OPRIG_STATUS_OK) return st;
  k.dtype = p.dtype;
  k.m = p.m;
  k.n = p.n;
  k.k = p.k;
  k.batches = p.batches;
  k.a_count = p.a_elements;
  k.b_count = p.b_elements;
  k.a_offset.assign(k.batches, 0);
  k.b_offset.assign(k.batches, 0);
  for (size_t i = 0; i < k.batches; ++i) {
    uint64_t a_matrix = 0, b_matrix = 0;
    p.matrices_of(i, &a_matrix, &b_matrix);
    k.a_offset[i] = a_matrix * k.m * k.k;
    k.b_offset[i] = b_matrix * k.k * k.n;
  }
  return OPRIG_STATUS_OK;
}

// ---- the ISA's tile --------------------------------------------------------------

template <class Tile>
struct Sizes {
  static size_t pack_a(size_t rows) { return packed_a_floats<Tile>(rows); }
  static size_t pack_b(size_t cols) { return packed_b_floats<Tile>(cols); }
  static size_t mr() { return Tile::kMR; }
  static size_t nr() { return Tile::kNR; }
};

template <class F>
auto with_tile(oprig_cpu_isa isa, F&& f) {
#if defined(__x86_64__)
  if (isa == OPRIG_CPU_ISA_AVX512) return f(Sizes<MicroTileAvx512>{});
  if (isa == OPRIG_CPU_ISA_AVX2) return f(Sizes<MicroTileAvx2>{});
#endif
  return f(Sizes<MicroTileScalar>{});
}

// ---- how the output is cut over threads --------------------------------------------

// Below this much arithmetic a thread hand-off costs more than it saves.
constexpr double kMinFlopsPerThread = 2e6;

void plan_blocks(MatMulCpuKernel& k) {
  k.blocks.clear();
  const size_t threads = std::max<uint32_t>(1, k.ctx->cpu_threads);
  const double flops = 2.0 * static_cast<double>(k.m) * static_cast<double>(k.n) * static_cast<double>(k.k) *
                       static_cast<double>(k.batches);
  k.slots = std::clamp<size_t>(static_cast<size_t>(flops / kMinFlopsPerThread), 1, threads);
  if (k.m == 0 || k.n == 0 || k.batches == 0) {
    k.slots = 1;
    return;
  }
  const size_t mr = with_tile(k.isa, [](auto s) { return s.mr(); });
  const size_t nr = with_tile(k.isa, [](auto s) { return s.nr(); });
  // Enough whole matrices to share evenly: no cuts.
  if (k.slots == 1 || k.batches % k.slots == 0 || k.batches >= 4 * k.slots) {
    for (size_t b = 0; b < k.batches; ++b) k.blocks.push_back({b, 0, k.m, 0, k.n});
    return;
  }
  // Else each matrix in `slots` bands along its longer side, in whole tiles.
  const bool by_rows = k.m / mr >= k.n / nr;
  const size_t extent = by_rows ? k.m : k.n, unit = by_rows ? mr : nr;
  const size_t units = (extent + unit - 1) / unit;
  for (size_t b = 0; b < k.batches; ++b) {
    for (size_t s = 0; s < k.slots; ++s) {
      const size_t begin = std::min(extent, units * s / k.slots * unit);
      const size_t end = std::min(extent, units * (s + 1) / k.slots * unit);
      if (begin == end) continue;
      k.blocks.push_back(by_rows ? Block{b, begin, end - begin, 0, k.n} : Block{b, 0, k.m, begin, end - begin});
    }
  }
}

// ---- execution --------------------------------------------------------------------

struct Run {
  const MatMulCpuKernel* k;
  const float* a;
  const float* b;
  float* c;
};

template <class Tile>
void run_blocks(const Run& r, size_t slot) {
  const MatMulCpuKernel& k = *r.k;
  float* packed_a = k.workspace.get() + slot * (k.pack_a_floats + k.pack_b_floats);
  float* packed_b = packed_a + k.pack_a_floats;
  const size_t first = k.blocks.size() * slot / k.slots, last = k.blocks.size() * (slot + 1) / k.slots;
  for (size_t i = first; i < last; ++i) {
    const Block& blk = k.blocks[i];
    float* c = r.c + blk.batch * k.m * k.n;
    if (k.k == 0) {  // an empty sum: zeros
      for (size_t row = blk.row0; row < blk.row0 + blk.rows; ++row)
        std::fill_n(c + row * k.n + blk.col0, blk.cols, 0.0f);
      continue;
    }
    const StridedMatrix a{r.a + k.a_offset[blk.batch], k.transpose_a ? 1 : k.k, k.transpose_a ? k.m : 1};
    const StridedMatrix b{r.b + k.b_offset[blk.batch], k.transpose_b ? 1 : k.n, k.transpose_b ? k.k : 1};
    gemm_block<Tile>(a, b, k.k, c, k.n, blk.row0, blk.rows, blk.col0, blk.cols, packed_a, packed_b);
  }
}

void run_slots(void* arg, size_t begin, size_t end) {
  const Run& r = *static_cast<const Run*>(arg);
  for (size_t slot = begin; slot < end; ++slot) {
#if defined(__x86_64__)
    if (r.k->isa == OPRIG_CPU_ISA_AVX512) {
      run_blocks<MicroTileAvx512>(r, slot);
      continue;
    }
    if (r.k->isa == OPRIG_CPU_ISA_AVX2) {
      run_blocks<MicroTileAvx2>(r, slot);
      continue;
    }
#endif
    run_blocks<MicroTileScalar>(r, slot);
  }
}

// FLOAT_16 conversions of whole tensors, split over the threads.
struct Convert {
  const void* src;
  void* dst;
  bool f16c;
};

void widen_range(void* arg, size_t begin, size_t end) {
  const Convert& c = *static_cast<const Convert*>(arg);
  widen_half(static_cast<const uint16_t*>(c.src) + begin, static_cast<float*>(c.dst) + begin, end - begin, c.f16c);
}

void narrow_range(void* arg, size_t begin, size_t end) {
  const Convert& c = *static_cast<const Convert*>(arg);
  narrow_half(static_cast<const float*>(c.src) + begin, static_cast<uint16_t*>(c.dst) + begin, end - begin, c.f16c);
}

// ---- the ABI ----------------------------------------------------------------------

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* kernel = new (std::nothrow) MatMulCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_matmul__cpu;
  kernel->ctx = ctx;
  kernel->transpose_a = scalar_param(params, num_params, "transpose_a").value_or(0) != 0;
  kernel->transpose_b = scalar_param(params, num_params, "transpose_b").value_or(0) != 0;
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto& k = *from_handle<MatMulCpuKernel>(handle);
  k.quantized = false;
  const oprig_status planned = plan_shapes(k, inputs, num_inputs, outputs, num_outputs);
  if (planned == OPRIG_STATUS_UNSUPPORTED) {
    const oprig_status q = matmul::plan_quantized_product(inputs, num_inputs, outputs, num_outputs, k.transpose_a,
                                                          k.transpose_b, &k.quantized_product);
    k.quantized = q == OPRIG_STATUS_OK;
    return q;
  }
  if (planned != OPRIG_STATUS_OK) return planned;
  k.isa = static_cast<oprig_cpu_isa>(k.ctx->cpu_isa);
  plan_blocks(k);

  size_t tallest_rows = 0, widest_cols = 0;
  for (const Block& b : k.blocks) {
    tallest_rows = std::max(tallest_rows, b.rows);
    widest_cols = std::max(widest_cols, b.cols);
  }
  k.pack_a_floats = with_tile(k.isa, [&](auto s) { return s.pack_a(tallest_rows); });
  k.pack_b_floats = with_tile(k.isa, [&](auto s) { return s.pack_b(widest_cols); });
  k.workspace = aligned_floats(k.slots * (k.pack_a_floats + k.pack_b_floats));
  if (!k.workspace) return OPRIG_STATUS_OUT_OF_MEMORY;
  k.wide_a.reset();
  k.wide_b.reset();
  k.wide_c.reset();
  if (k.dtype == OPRIG_DTYPE_FLOAT_16) {
    k.wide_a = aligned_floats(k.a_count);
    k.wide_b = aligned_floats(k.b_count);
    k.wide_c = aligned_floats(k.batches * k.m * k.n);
    if (!k.wide_a || !k.wide_b || !k.wide_c) return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 2 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto& k = *from_handle<MatMulCpuKernel>(handle);
  if (k.quantized) {
    const matmul::QuantizedProduct& q = k.quantized_product;
    const auto* w = static_cast<const int8_t*>(inputs[1].data);
    if (q.signed_a())
      matmul::run_quantized_cpu(q, k.transpose_a, k.transpose_b, static_cast<const int8_t*>(inputs[0].data), w,
                                static_cast<int8_t*>(outputs[0].data));
    else
      matmul::run_quantized_cpu(q, k.transpose_a, k.transpose_b, static_cast<const uint8_t*>(inputs[0].data), w,
                                static_cast<uint8_t*>(outputs[0].data));
    return OPRIG_STATUS_OK;
  }
  if (k.blocks.empty()) return OPRIG_STATUS_OK;  // an empty output
  const oprig_backend_context& ctx = *k.ctx;
  constexpr size_t kConvertGrain = size_t{1} << 16;
  const bool f16c = k.isa != OPRIG_CPU_ISA_SCALAR;
  Run run{&k, static_cast<const float*>(inputs[0].data), static_cast<const float*>(inputs[1].data),
          static_cast<float*>(outputs[0].data)};
  if (k.dtype == OPRIG_DTYPE_FLOAT_16) {
    Convert wa{inputs[0].data, k.wide_a.get(), f16c}, wb{inputs[1].data, k.wide_b.get(), f16c};
    ctx.cpu_parallel_for(ctx.cpu_pool, k.a_count, kConvertGrain, widen_range, &wa);
    ctx.cpu_parallel_for(ctx.cpu_pool, k.b_count, kConvertGrain, widen_range, &wb);
    run = Run{&k, k.wide_a.get(), k.wide_b.get(), k.wide_c.get()};
  }
  ctx.cpu_parallel_for(ctx.cpu_pool, k.slots, 1, run_slots, &run);
  if (k.dtype == OPRIG_DTYPE_FLOAT_16) {
    Convert wc{k.wide_c.get(), outputs[0].data, f16c};
    ctx.cpu_parallel_for(ctx.cpu_pool, k.batches * k.m * k.n, kConvertGrain, narrow_range, &wc);
  }
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<MatMulCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto& k = *from_handle<const MatMulCpuKernel>(handle);
  if (k.quantized) {
    *out = k.quantized_product.shape.cost();
    return OPRIG_STATUS_OK;
  }
  const uint64_t width = k.dtype == OPRIG_DTYPE_FLOAT_16 ? 2 : 4;
  out->flops = 2ull * k.m * k.n * k.k * k.batches;
  out->bytes_read = width * (k.a_count + k.b_count);
  out->bytes_written = width * k.batches * k.m * k.n;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_matmul__cpu = {"MatMul", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
