// Crop on the cpu backend: a strided copy of an NHWC tensor, for any element
// type of 1, 2, 4 or 8 bytes (a copy needs no arithmetic; a quantised tensor
// keeps its codes, so output and input must share scale and zero point).
// The output is dense, so it is cut into "runs" (byte_plan.hpp): the kept
// part of one input row, or of a whole image when no column is cropped, or
// the whole tensor when nothing is cropped. Threads take ranges of output
// bytes, so one huge run splits as evenly as many small ones, and copy them
// with the byte copies of common/byte_copy.hpp (the widest moves cpu_isa
// allows, streaming stores from 8 MiB on).
#include <new>

#include "common/byte_copy.hpp"
#include "common/kernel.hpp"
#include "crop/byte_plan.hpp"

namespace oprig::opsuite {

extern const KernelOps oprig_crop__cpu;

namespace {

struct CropCpuKernel : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  crop::Margins margins;
  CopyBlock block;  // from prepare: the runs
};

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  crop::Margins m;
  const oprig_status st = crop::parse(params, num_params, &m);
  if (st != OPRIG_STATUS_OK) return st;
  auto* kernel = new (std::nothrow) CropCpuKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->ops = &oprig_crop__cpu;
  kernel->ctx = ctx;
  kernel->margins = m;
  *out_kernel = to_handle(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<CropCpuKernel>(handle);
  const oprig_status st = crop::plan_block(k->margins, inputs, num_inputs, outputs, num_outputs, &k->block);
  if (st != OPRIG_STATUS_OK) k->block = {};
  return st;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info*) {
  if (num_inputs != 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* k = from_handle<CropCpuKernel>(handle);
  if (k->block.total() == 0) return OPRIG_STATUS_OK;
  const auto* src = static_cast<const std::byte*>(inputs[0].data);
  auto* dst = static_cast<std::byte*>(outputs[0].data);
  parallel_copy(*k->ctx, k->block.total(), [&](size_t begin, size_t end, ByteCopyFn copy) {
    copy_block_range(k->block, src, dst, begin, end, copy);
  });
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<CropCpuKernel>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const CropCpuKernel>(handle);
  out->flops = 0;
  out->bytes_read = k->block.total();
  out->bytes_written = k->block.total();
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_crop__cpu = {"Crop", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
