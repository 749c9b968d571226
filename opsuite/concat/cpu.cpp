// Concat on the cpu backend: one or more tensors of any element type of 1,
// 2, 4 or 8 bytes joined along one axis (a copy needs no arithmetic; a
// quantised tensor keeps its codes, so all share one scale and zero point).
// Seen from the output, which is dense, each input contributes one
// contiguous chunk per "outer" index (the dimensions before axis): chunk k is
// d_axis(k) * inner elements (byte_plan.hpp). Threads take ranges of output
// bytes and walk chunk by chunk with the byte copies of common/byte_copy.hpp
// (the widest moves cpu_isa allows, streaming stores from 8 MiB on).
#include <new>
#include <vector>

#include "common/byte_copy.hpp"
#include "common/kernel.hpp"
#include "concat/byte_plan.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_concat__cpu;

namespace {

struct ConcatCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  concat::Params params;
  ChunkedRows rows;                        // from prepare: the output's rows of chunks
  std::vector<const std::byte*> sources;  // execute's input pointers (one execute at a time per instance)
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  auto* kernel = new (std::nothrow) ConcatCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_concat__cpu;
  kernel->ctx = ctx;
  concat::parse(params, num_params, &kernel->params);
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<ConcatCpuKernel>(handle);
  const oprig_status st = concat::plan_rows(k->params, inputs, num_inputs, outputs, num_outputs, &k->rows);
  if (st != OPRIG_STATUS_OK) k->rows = {};
  k->sources.assign(num_inputs, nullptr);
  return st;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  auto* k = from_handle<ConcatCpuKernel>(handle);
  if (num_inputs != k->rows.chunk.size() || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (k->rows.total == 0) return OPRIG_STATUS_OK;
  for (size_t i = 0; i < num_inputs; ++i) k->sources[i] = static_cast<const std::byte*>(inputs[i].data);
  auto* dst = static_cast<std::byte*>(outputs[0].data);
  parallel_copy(*k->ctx, k->rows.total, [&](size_t begin, size_t end, ByteCopyFn copy) {
    gather_chunks(k->rows, dst, k->sources.data(), begin, end, copy);
  });
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<ConcatCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const ConcatCpuKernel>(handle);
  out->flops = 0;
  out->bytes_read = k->rows.total;
  out->bytes_written = k->rows.total;
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_concat__cpu = {"Concat", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
