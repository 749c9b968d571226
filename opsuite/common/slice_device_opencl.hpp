// An OpenCL device as the slice kernels (Softmax, LayerNorm, RMSNorm) see
// it (common/slice_layout.hpp): vector width, registers per work-item and
// group size by device type, in the spirit of CLBlast's per-device parameter
// tables; the group limit from the kernel.
#pragma once

#include <CL/cl.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>

#include "common/opencl_program.hpp"
#include "common/slice_layout.hpp"

namespace oprig::opsuite {

inline bool opencl_device_is_cpu(cl_device_id device) {
  cl_device_type type = 0;
  return clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS &&
         (type & CL_DEVICE_TYPE_CPU) != 0;
}

// The program's build options: OPRIG_VEC, the elements of a vector unit
// (common/opencl/slice_vector.cl), OPRIG_CACHE, the units each work-item
// keeps, and OPRIG_UNROLL. CPUs (PoCL, measured): 8-wide vectors (16 wide
// were slower), 16 units per work-item (4 and 8 were slower), so a
// 1024-element row is a team of 8, four rows to a group of 32, loops not
// unrolled. GPUs: 4-wide vectors (16-byte loads), 4 per work-item in
// registers (a 1024-element row is 64 work-items), groups of 256.
struct OpenClSliceTuning {
  uint32_t vector = 4, cache = 4, preferred_group = 256;
  bool unroll = true;  // OPRIG_UNROLL (common/opencl/slice_vector.cl)
};

inline OpenClSliceTuning opencl_slice_tuning(cl_device_id device) {
  if (opencl_device_is_cpu(device)) return {8, 16, 32, false};
  return {};
}

inline std::string opencl_slice_options(cl_device_id device) {
  const OpenClSliceTuning t = opencl_slice_tuning(device);
  return "-cl-std=CL1.2 -D OPRIG_VEC=" + std::to_string(t.vector) + " -D OPRIG_CACHE=" + std::to_string(t.cache) +
         " -D OPRIG_UNROLL=" + (t.unroll ? "1" : "0");
}

// `kernel` bounds the group size (its registers and local memory).
inline SliceDevice opencl_slice_device(cl_device_id device, cl_kernel kernel) {
  const OpenClSliceTuning t = opencl_slice_tuning(device);
  SliceDevice d;
  const size_t limit = std::clamp<size_t>(max_work_group_size(kernel, device), 1, 1024);
  d.max_group = std::bit_floor(static_cast<uint32_t>(limit));
  d.preferred_group = std::min(d.max_group, t.preferred_group);
  d.cache = t.cache;
  d.max_members = d.max_group;
  return d;
}

// Enqueues a slice kernel over `layout` without waiting: up to 2^16
// work-groups (the kernels loop over the rest), after sizing its two team
// scratch arrays, `__local int*` at argument `scratch` and one `pair_bytes`
// value per work-item at `scratch + 1` (common/opencl/team_reduce.cl).
inline oprig_status enqueue_slice_groups(cl_command_queue queue, cl_kernel kernel, const SliceLayout& layout,
                                         cl_uint scratch, size_t pair_bytes, oprig_execute_info* info) {
  if (!set_local_arg(kernel, scratch, layout.group * sizeof(cl_int)) ||
      !set_local_arg(kernel, scratch + 1, layout.group * pair_bytes))
    return OPRIG_STATUS_BACKEND_ERROR;
  const size_t local = layout.group;
  const size_t global = std::min<uint64_t>(layout.groups, 65536) * local;
  ClEnqueue enqueue(queue);
  const oprig_status st = enqueue.kernel(kernel, 1, &global, &local);
  if (st != OPRIG_STATUS_OK) return st;
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::opsuite
