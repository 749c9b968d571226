// The opencl and vulkan kernels of the ops that only move bytes (Concat,
// Split, Crop), written once for the three ops: an op's opencl.cpp and
// vulkan.cpp are each one OPRIG_STRIDED_COPY_KERNEL line. create() takes the
// op's CopyLayoutFactory (its byte_plan.hpp) and its program; prepare() plans
// the blocks (the op's checks and shapes) and their units (device_copy.hpp);
// execute() launches the block copy once per block, in order, without
// waiting (blocks write disjoint bytes, or on vulkan disjoint bytes of shared
// words by atomics). The APIs' halves: opencl_strided_copy.cpp (program
// common/opencl/strided_copy.cl, instantiated by the op's opencl.cl) and
// vulkan_strided_copy.cpp (shader common/glsl/strided_copy.glsl, included by
// the op's vulkan.comp; one descriptor set a block).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "common/device_copy.hpp"
#include "common/kernel.hpp"
#include "common/strided_copy.hpp"

namespace oprig::opsuite {

// What both APIs' kernel instances keep: the op's layout, and from the last
// prepare its blocks and their units.
struct StridedCopyKernel : KernelBase {
  std::unique_ptr<CopyLayout> layout;
  bool prepared = false;
  size_t num_inputs = 0, num_outputs = 0;
  CopyPlan plan;
  std::vector<DeviceCopy> copies;  // per block

  // prepare(): the op's checks and shapes, then each block's units (word
  // slots below 4-byte units where `word_slots`); UNSUPPORTED where a block
  // does not fit the kernels' 32-bit offsets. `prepared` is the API's to set.
  oprig_status plan_copies(const oprig_tensor* inputs, size_t num_in, oprig_tensor* outputs, size_t num_out,
                           bool word_slots) {
    prepared = false;
    if (inputs == nullptr || outputs == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
    const oprig_status st = layout->plan(inputs, num_in, outputs, num_out, &plan);
    if (st != OPRIG_STATUS_OK) return st;
    copies.clear();
    for (const CopyBlock& b : plan.blocks) {
      const std::optional<DeviceCopy> c = device_copy(b, 16, word_slots);
      if (!c) return OPRIG_STATUS_UNSUPPORTED;
      copies.push_back(*c);
    }
    num_inputs = num_in;
    num_outputs = num_out;
    return OPRIG_STATUS_OK;
  }
  // execute(): prepared, for these tensors.
  bool ready(const oprig_tensor* inputs, size_t num_in, const oprig_tensor* outputs, size_t num_out) const {
    return prepared && inputs != nullptr && outputs != nullptr && num_in == num_inputs && num_out == num_outputs;
  }
};

// One API's functions; `program` is the op's embedded opencl.cl or the
// SPIR-V of its vulkan.comp, `ops` the op's KernelOps.
struct StridedCopyApi {
  oprig_status (*create)(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                         CopyLayoutFactory layout, std::span<const unsigned char> program, const KernelOps* ops,
                         oprig_kernel** out_kernel);
  decltype(KernelOps::prepare) prepare;
  decltype(KernelOps::execute) execute;
  decltype(KernelOps::destroy) destroy;
};
extern const StridedCopyApi strided_copy_on_opencl;  // in the opencl library only
extern const StridedCopyApi strided_copy_on_vulkan;  // in the vulkan library only

// The KernelOps functions of one op on one API.
template <const StridedCopyApi& kApi, const KernelOps* kOps, CopyLayoutFactory kLayout, const auto& kProgram,
          const auto& kProgramSize>
struct StridedCopyOp {
  static oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                             oprig_kernel** out_kernel) {
    return kApi.create(ctx, params, num_params, kLayout, std::span<const unsigned char>(kProgram, kProgramSize), kOps,
                       out_kernel);
  }
  static oprig_status prepare(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                              oprig_tensor* outputs, size_t num_outputs) {
    return kApi.prepare(kernel, inputs, num_inputs, outputs, num_outputs);
  }
  static oprig_status execute(oprig_kernel* kernel, const oprig_tensor* inputs, size_t num_inputs,
                              const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info* info) {
    return kApi.execute(kernel, inputs, num_inputs, outputs, num_outputs, info);
  }
  static void destroy(oprig_kernel* kernel) { kApi.destroy(kernel); }
  static oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
    const auto* k = from_handle<const StridedCopyKernel>(handle);
    *out = {0, k->plan.bytes, k->plan.bytes};
    return OPRIG_STATUS_OK;
  }
};

}  // namespace oprig::opsuite

// Defines oprig_<op>__<api> (api: opencl or vulkan), the KernelOps of op
// `name` whose folder <op> has byte_plan.hpp's make_layout and whose program
// is the embedded array `program` (with program##_size).
#define OPRIG_STRIDED_COPY_KERNEL(op, name, api, program)                                                      \
  namespace oprig::opsuite {                                                                                   \
  extern const KernelOps oprig_##op##__##api;                                                                  \
  using op##_on_##api = StridedCopyOp<strided_copy_on_##api, &oprig_##op##__##api, op::make_layout, program,   \
                                      program##_size>;                                                         \
  const KernelOps oprig_##op##__##api = {name,                  op##_on_##api::create,  op##_on_##api::prepare, \
                                         op##_on_##api::execute, op##_on_##api::destroy, op##_on_##api::cost};  \
  }
