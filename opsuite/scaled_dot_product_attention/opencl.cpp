// ScaledDotProductAttention on the opencl backend: host side of opencl.cl
// (one fused flash-attention NDRange per execute, enqueued without waiting).
// create() builds the program for a 16 x 8 work-group (tiles of 32 queries,
// 64 keys, 64 features: 256 work-groups at B = 1, H = 8, S = 1024, enough to
// fill a large GPU), or for 8 x 8 where the device cannot run that kernel at
// 128 work-items or lacks the local memory; prepare() checks the tensors
// (attention_shapes.hpp); execute() sets the arguments and enqueues one
// work-group per (batch and head, tile of queries, chunk of output features).
#include <CL/cl.h>

#include <cmath>
#include <new>
#include <optional>
#include <string>

#include "common/kernel.hpp"
#include "common/opencl_program.hpp"
#include "scaled_dot_product_attention/attention_shapes.hpp"
#include "scaled_dot_product_attention_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_scaled_dot_product_attention__opencl;

namespace {

struct AttentionOpenCL : KernelBase {
  cl_command_queue queue = nullptr;
  cl_kernel kernel = nullptr;
  size_t tx = 0, ty = 0;  // the work-group; tiles of 4 ty queries, 4 tx keys and 4 tx features
  sdpa::AttentionParams params;
  bool prepared = false;
  bool has_mask = false;
  sdpa::AttentionProblem shape;
  ~AttentionOpenCL() {
    if (kernel != nullptr) clReleaseKernel(kernel);
  }
};

// The kernel for a tx x ty work-group, or nullptr when the device cannot run it.
cl_kernel kernel_for(cl_context context, cl_device_id device, size_t tx, size_t ty) {
  const std::string options = "-cl-std=CL1.2 -D SDPA_TX=" + std::to_string(tx) + " -D SDPA_TY=" + std::to_string(ty);
  cl_program program = cached_program(context, device, scaled_dot_product_attention_opencl_source,
                                      scaled_dot_product_attention_opencl_source_size, options,
                                      "ScaledDotProductAttention");
  if (program == nullptr) return nullptr;
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "sdpa_flash", &err);
  if (err != CL_SUCCESS) return nullptr;
  cl_ulong local_bytes = 0, device_local_bytes = 0;
  const bool fits =
      clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_bytes, &local_bytes, nullptr) ==
          CL_SUCCESS &&
      clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof device_local_bytes, &device_local_bytes, nullptr) ==
          CL_SUCCESS &&
      local_bytes <= device_local_bytes && max_work_group_size(kernel, device) >= tx * ty;
  if (!fits) {
    clReleaseKernel(kernel);
    return nullptr;
  }
  return kernel;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<sdpa::AttentionParams> attention = sdpa::read_params(params, num_params);
  if (!attention) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) AttentionOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_scaled_dot_product_attention__opencl;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->params = *attention;
  const auto context = static_cast<cl_context>(ctx->cl_context);
  const auto device = static_cast<cl_device_id>(ctx->cl_device);
  constexpr size_t kShapes[][2] = {{16, 8}, {8, 8}};
  for (const auto& [tx, ty] : kShapes) {
    k->kernel = kernel_for(context, device, tx, ty);
    if (k->kernel != nullptr) {
      k->tx = tx;
      k->ty = ty;
      break;
    }
  }
  if (k->kernel == nullptr) {
    delete k;
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<AttentionOpenCL>(handle);
  k->prepared = false;
  const oprig_status st =
      sdpa::plan_attention(inputs, num_inputs, outputs, num_outputs, k->params, k->shape, k->has_mask);
  if (st != OPRIG_STATUS_OK) return st;
  // The kernel counts queries, keys and features in int.
  const sdpa::AttentionProblem& p = k->shape;
  if (p.batch * p.heads > INT32_MAX || p.query_len > INT32_MAX - 64 || p.key_len > INT32_MAX - 64 ||
      p.depth > INT32_MAX - 64 || p.value_depth > INT32_MAX - 64)
    return OPRIG_STATUS_UNSUPPORTED;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info == nullptr || inputs == nullptr || outputs == nullptr || num_outputs != 1 || num_inputs < 3)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<AttentionOpenCL>(handle);
  if (!k->prepared || (k->has_mask && num_inputs != 4)) return OPRIG_STATUS_INVALID_ARGUMENT;
  const sdpa::AttentionProblem& p = k->shape;
  const int64_t heads = p.batch * p.heads;
  if (heads == 0 || p.query_len == 0 || p.value_depth == 0) return OPRIG_STATUS_OK;
  const cl_mem out = static_cast<cl_mem>(outputs[0].data);
  if (out == nullptr || inputs[0].data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  // Without keys (Sk = 0) K and V may have no buffer, without a mask input 3
  // none: the output stands in (never read).
  auto buffer_or_out = [&](size_t i) { return inputs[i].data != nullptr ? static_cast<cl_mem>(inputs[i].data) : out; };
  const cl_mem query = buffer_or_out(0), key = buffer_or_out(1), value = buffer_or_out(2);
  const cl_mem mask = k->has_mask ? buffer_or_out(3) : out;
  const cl_int half_io = p.half ? 1 : 0, causal = p.causal ? 1 : 0, has_mask = k->has_mask ? 1 : 0;
  const auto head_count = static_cast<cl_int>(p.heads), sq = static_cast<cl_int>(p.query_len),
             sk = static_cast<cl_int>(p.key_len), depth = static_cast<cl_int>(p.depth),
             value_depth = static_cast<cl_int>(p.value_depth);
  const cl_float scale = p.scale;
  cl_long4 mask_strides{};
  for (int axis = 0; axis < 4; ++axis) mask_strides.s[axis] = p.mask_strides[axis];
  if (!set_kernel_args(k->kernel, out, query, key, value, mask, half_io, head_count, sq, sk, depth, value_depth, scale,
                       causal, has_mask, mask_strides))
    return OPRIG_STATUS_BACKEND_ERROR;
  const size_t queries = 4 * k->ty, features = 4 * k->tx;
  const size_t local[3] = {k->tx, k->ty, 1};
  const size_t global[3] = {k->tx * static_cast<size_t>(heads),
                            k->ty * ((static_cast<size_t>(p.query_len) + queries - 1) / queries),
                            (static_cast<size_t>(p.value_depth) + features - 1) / features};
  ClEnqueue enqueue(k->queue);
  const oprig_status st = enqueue.kernel(k->kernel, 3, global, local);
  if (st != OPRIG_STATUS_OK) return st;
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<AttentionOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = sdpa::attention_cost(from_handle<const AttentionOpenCL>(handle)->shape);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_scaled_dot_product_attention__opencl = {"ScaledDotProductAttention", create, prepare, execute,
                                                              destroy, cost};

}  // namespace oprig::opsuite
