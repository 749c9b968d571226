// org.oprig.builtins on the opencl backend (liboprig_builtins_opencl.so):
// the host side of opencl.cl. One program per context (shared, see
// common/opencl_program.hpp); each instance makes the one cl_kernel its op
// needs and enqueues one NDRange per execute without waiting.
#include <CL/cl.h>

#include <new>
#include <string>

#include "builtins_opencl_cl.h"
#include "common/opencl_program.hpp"
#include "node.hpp"

struct oprig_kernel {
  oprig::builtins::Node node;
  bool fp32_denormals = false;  // quantised comparisons multiply in fp32 as the host does
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;  // for the dtype of the last prepare
  std::string kernel_name;
  ~oprig_kernel() {
    if (kernel != nullptr) clReleaseKernel(kernel);
  }
};

namespace oprig::builtins {
namespace {

const char* kernel_name_for(const Node& n) {
  switch (n.op) {
    case Op::kQuantizedArithmetic: return "quant_arith";
    case Op::kSlice: return "slice_copy";
    case Op::kFullyConnected:
      return n.quantised ? "fc_q8" : n.in_dtype == OPRIG_DTYPE_FLOAT_16 ? "fc_f16" : "fc_f32";
    case Op::kCompare:
      if (n.quantised) return "compare_q8";
      switch (n.in_dtype) {
        case OPRIG_DTYPE_INT_32: return "compare_i32";
        case OPRIG_DTYPE_FLOAT_32: return "compare_f32";
        case OPRIG_DTYPE_FLOAT_16: return "compare_f16";
        default: return "compare_b8";
      }
    case Op::kLogical: return "logical";
    case Op::kLogicalNot: return "logical_not";
    case Op::kCast: return "cast";
  }
  return "";
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || ctx->kind != OPRIG_BACKEND_OPENCL || ctx->cl_context == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  Node node;
  if (const oprig_status st = parse_node(op_name, params, num_params, &node); st != OPRIG_STATUS_OK) return st;
  cl_program program = opsuite::cached_program(static_cast<cl_context>(ctx->cl_context),
                                               static_cast<cl_device_id>(ctx->cl_device), builtins_opencl_source,
                                               builtins_opencl_source_size, "-cl-std=CL1.2", "org.oprig.builtins");
  if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
  auto* k = new (std::nothrow) oprig_kernel;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->node = node;
  cl_device_fp_config fp32 = 0;
  k->fp32_denormals = clGetDeviceInfo(static_cast<cl_device_id>(ctx->cl_device), CL_DEVICE_SINGLE_FP_CONFIG,
                                      sizeof fp32, &fp32, nullptr) == CL_SUCCESS &&
                      (fp32 & CL_FP_DENORM) != 0;
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->program = program;
  *out_kernel = k;
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  if (k == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_status st = plan_node(&k->node, inputs, num_inputs, outputs, num_outputs);
  if (st != OPRIG_STATUS_OK) return st;
  if (k->node.op == Op::kCompare && k->node.quantised && !k->fp32_denormals) {
    k->node.prepared = false;
    return OPRIG_STATUS_UNSUPPORTED;  // the host's fp32 products may be denormal
  }
  const std::string name = kernel_name_for(k->node);
  if (k->kernel == nullptr || k->kernel_name != name) {
    if (k->kernel != nullptr) clReleaseKernel(k->kernel);
    cl_int err = CL_SUCCESS;
    k->kernel = clCreateKernel(k->program, name.c_str(), &err);
    if (err != CL_SUCCESS) {
      k->kernel = nullptr;
      k->node.prepared = false;
      return OPRIG_STATUS_BACKEND_ERROR;
    }
    k->kernel_name = name;
  }
  return OPRIG_STATUS_OK;
}

oprig_status enqueue(oprig_kernel* k, size_t global, oprig_execute_info* info) {
  cl_event event = nullptr;
  const cl_int err = clEnqueueNDRangeKernel(k->queue, k->kernel, 1, nullptr, &global, nullptr, 0, nullptr, &event);
  if (err == CL_OUT_OF_HOST_MEMORY) return OPRIG_STATUS_OUT_OF_MEMORY;
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  clRetainEvent(event);  // one reference per pointer handed to the host
  info->cl_first_event = event;
  info->cl_last_event = event;
  return OPRIG_STATUS_OK;
}

// Slice and FullyConnected: their arguments, then one NDRange over the output elements.
oprig_status enqueue_shaped(oprig_kernel* k, const oprig_tensor* inputs, const oprig_tensor& output,
                            oprig_execute_info* info) {
  const Node& n = k->node;
  const cl_mem x = static_cast<cl_mem>(inputs[0].data), y = static_cast<cl_mem>(output.data);
  const cl_ulong count = n.count;
  if (x == nullptr || y == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  cl_int err = CL_SUCCESS;
  cl_uint arg = 0;
  err |= clSetKernelArg(k->kernel, arg++, sizeof x, &x);
  if (n.op == Op::kSlice) {
    const cl_int rank = static_cast<cl_int>(n.slice.rank), bytes = static_cast<cl_int>(n.slice.element_bytes);
    cl_long8 out_dims{}, strides{}, begin{};
    int64_t stride = 1;
    for (int d = static_cast<int>(n.slice.rank) - 1; d >= 0; --d) {
      out_dims.s[d] = n.slice.out_dims[d];
      strides.s[d] = stride;
      begin.s[d] = n.slice.begin[d];
      stride *= n.slice.in_dims[d];
    }
    err |= clSetKernelArg(k->kernel, arg++, sizeof y, &y);
    err |= clSetKernelArg(k->kernel, arg++, sizeof count, &count);
    err |= clSetKernelArg(k->kernel, arg++, sizeof rank, &rank);
    err |= clSetKernelArg(k->kernel, arg++, sizeof bytes, &bytes);
    err |= clSetKernelArg(k->kernel, arg++, sizeof out_dims, &out_dims);
    err |= clSetKernelArg(k->kernel, arg++, sizeof strides, &strides);
    err |= clSetKernelArg(k->kernel, arg++, sizeof begin, &begin);
  } else {
    const cl_mem w = static_cast<cl_mem>(inputs[1].data), b = static_cast<cl_mem>(inputs[2].data);
    if (w == nullptr || b == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
    const cl_long units = n.fc.units, depth = n.fc.depth;
    err |= clSetKernelArg(k->kernel, arg++, sizeof w, &w);
    err |= clSetKernelArg(k->kernel, arg++, sizeof b, &b);
    err |= clSetKernelArg(k->kernel, arg++, sizeof y, &y);
    err |= clSetKernelArg(k->kernel, arg++, sizeof count, &count);
    err |= clSetKernelArg(k->kernel, arg++, sizeof units, &units);
    err |= clSetKernelArg(k->kernel, arg++, sizeof depth, &depth);
    if (n.quantised) {
      const cl_int is_signed = n.in_dtype == OPRIG_DTYPE_INT_8 ? 1 : 0;
      const cl_int8 q = {{n.fc.x_offset, n.fc.w_offset, n.fc.out_offset, n.fc.multiplier.m, n.fc.multiplier.left,
                          n.fc.multiplier.right, n.fc.range.lo, n.fc.range.hi}};
      err |= clSetKernelArg(k->kernel, arg++, sizeof is_signed, &is_signed);
      err |= clSetKernelArg(k->kernel, arg++, sizeof q, &q);
    } else {
      const cl_int act = static_cast<cl_int>(n.activation);
      err |= clSetKernelArg(k->kernel, arg++, sizeof act, &act);
    }
  }
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  return enqueue(k, n.count, info);
}

oprig_status execute(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (k == nullptr || inputs == nullptr || outputs == nullptr || info == nullptr || num_outputs != 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  const Node& n = k->node;
  if (!n.prepared || (n.op == Op::kSlice && !n.slice.resolved)) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (n.count == 0) return OPRIG_STATUS_OK;
  if (n.op == Op::kSlice || n.op == Op::kFullyConnected) return enqueue_shaped(k, inputs, outputs[0], info);
  for (size_t i = 0; i < num_inputs; ++i)
    if (inputs[i].data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (outputs[0].data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  const cl_mem a = static_cast<cl_mem>(inputs[0].data);
  const cl_mem y = static_cast<cl_mem>(outputs[0].data);
  const cl_ulong count = n.count;
  cl_int err = CL_SUCCESS;
  cl_uint arg = 0;
  err |= clSetKernelArg(k->kernel, arg++, sizeof a, &a);
  if (binary(n.op)) {
    const cl_mem b = static_cast<cl_mem>(inputs[1].data);
    const cl_int op = static_cast<cl_int>(n.operation);
    const cl_int merged = static_cast<cl_int>(n.plan.merged);
    cl_long8 dims{}, a_strides{}, b_strides{};
    for (uint32_t d = 0; d < n.plan.merged; ++d) {
      dims.s[d] = n.plan.dims[d];
      a_strides.s[d] = n.plan.a_strides[d];
      b_strides.s[d] = n.plan.b_strides[d];
    }
    err |= clSetKernelArg(k->kernel, arg++, sizeof b, &b);
    err |= clSetKernelArg(k->kernel, arg++, sizeof y, &y);
    err |= clSetKernelArg(k->kernel, arg++, sizeof op, &op);
    err |= clSetKernelArg(k->kernel, arg++, sizeof count, &count);
    err |= clSetKernelArg(k->kernel, arg++, sizeof merged, &merged);
    err |= clSetKernelArg(k->kernel, arg++, sizeof dims, &dims);
    err |= clSetKernelArg(k->kernel, arg++, sizeof a_strides, &a_strides);
    err |= clSetKernelArg(k->kernel, arg++, sizeof b_strides, &b_strides);
    if (n.quantised) {
      const cl_int is_signed = n.in_dtype == OPRIG_DTYPE_INT_8 ? 1 : 0;
      err |= clSetKernelArg(k->kernel, arg++, sizeof is_signed, &is_signed);
    }
    if (n.op == Op::kCompare && n.quantised) {
      err |= clSetKernelArg(k->kernel, arg++, sizeof(cl_int), &n.qa.zero_point);
      err |= clSetKernelArg(k->kernel, arg++, sizeof(cl_float), &n.qa.scale);
      err |= clSetKernelArg(k->kernel, arg++, sizeof(cl_int), &n.qb.zero_point);
      err |= clSetKernelArg(k->kernel, arg++, sizeof(cl_float), &n.qb.scale);
    } else if (n.op == Op::kQuantizedArithmetic) {
      const quant::ArithmeticParams& p = n.arithmetic;
      const cl_int16 q = {{p.in1_offset, p.in2_offset, p.out_offset, p.in1.m, p.in1.left, p.in1.right, p.in2.m,
                           p.in2.left, p.in2.right, p.out.m, p.out.left, p.out.right, p.range.lo, p.range.hi, 0, 0}};
      err |= clSetKernelArg(k->kernel, arg++, sizeof q, &q);
    }
  } else if (n.op == Op::kLogicalNot) {
    err |= clSetKernelArg(k->kernel, arg++, sizeof y, &y);
    err |= clSetKernelArg(k->kernel, arg++, sizeof count, &count);
  } else {
    const cl_int from = static_cast<cl_int>(n.in_dtype), to = static_cast<cl_int>(n.out_dtype);
    err |= clSetKernelArg(k->kernel, arg++, sizeof y, &y);
    err |= clSetKernelArg(k->kernel, arg++, sizeof from, &from);
    err |= clSetKernelArg(k->kernel, arg++, sizeof to, &to);
    err |= clSetKernelArg(k->kernel, arg++, sizeof count, &count);
  }
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  return enqueue(k, n.count, info);
}

oprig_status resolve_shapes(oprig_kernel* k, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                            size_t num_outputs) {
  if (k == nullptr || k->node.op != Op::kSlice) return OPRIG_STATUS_INVALID_ARGUMENT;
  return resolve_slice(&k->node, inputs, num_inputs, outputs, num_outputs);
}

void destroy(oprig_kernel* k) { delete k; }

const oprig_implementation_v1 kImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_OPENCL, create, prepare, execute, destroy,
    nullptr, resolve_shapes, {}};

}  // namespace
}  // namespace oprig::builtins

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                 uint32_t max_version) {
  if (max_version < OPRIG_ABI_VERSION || backend_kind != OPRIG_BACKEND_OPENCL) return nullptr;
  return &oprig::builtins::kImplementation;
}
