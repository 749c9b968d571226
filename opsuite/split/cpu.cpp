// Split on the cpu backend: one tensor of any element type of 1, 2, 4 or 8
// bytes cut along one axis into as many parts as there are outputs (a copy
// needs no arithmetic; a quantised tensor keeps its codes, so every output
// shares the input's scale and zero point). Seen from the input, which is
// dense, output k takes one contiguous chunk per "outer" index (the
// dimensions before axis): split[k] * inner elements (byte_plan.hpp).
// Threads take ranges of input bytes and walk chunk by chunk with the byte
// copies of common/byte_copy.hpp (the widest moves cpu_isa allows, streaming
// stores from 8 MiB on).
#include <new>
#include <vector>

#include "common/byte_copy.hpp"
#include "common/kernel.hpp"
#include "split/byte_plan.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_split__cpu;

namespace {

struct SplitCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  split::Params params;
  ChunkedRows rows;                 // from prepare: the input's rows of chunks
  std::vector<std::byte*> targets;  // execute's output pointers (one execute at a time per instance)
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  split::Params p;
  const oprig_status st = split::parse(params, num_params, &p);
  if (st != OPRIG_STATUS_OK) return st;
  auto* kernel = new (std::nothrow) SplitCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_split__cpu;
  kernel->ctx = ctx;
  kernel->params = std::move(p);
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<SplitCpuKernel>(handle);
  const oprig_status st = split::plan_rows(k->params, inputs, num_inputs, outputs, num_outputs, &k->rows);
  if (st != OPRIG_STATUS_OK) k->rows = {};
  k->targets.assign(num_outputs, nullptr);
  return st;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  auto* k = from_handle<SplitCpuKernel>(handle);
  if (num_inputs != 1 || num_outputs != k->rows.chunk.size()) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->rows.total == 0) return OPRIG_STATUS_OK;
  for (size_t i = 0; i < num_outputs; ++i) k->targets[i] = static_cast<std::byte*>(outputs[i].data);
  const auto* src = static_cast<const std::byte*>(inputs[0].data);
  parallel_copy(*k->ctx, k->rows.total, [&](size_t begin, size_t end, ByteCopyFn copy) {
    scatter_chunks(k->rows, src, k->targets.data(), begin, end, copy);
  });
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<SplitCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const SplitCpuKernel>(handle);
  out->flops = 0;
  out->bytes_read = k->rows.total;
  out->bytes_written = k->rows.total;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_split__cpu = {"Split", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
