// An OpenCL device as the slice kernels (Softmax, LayerNorm, RMSNorm) see
// it (common/slice_layout.hpp): the registers each work-item caches (the
// programs' OPRIG_CACHE) and the group sizes, by device type, in the spirit
// of CLBlast's per-device parameter tables. Measured on PoCL (CPU) and
// chosen for GPUs from their usual shape (warps of 32, 256-wide groups; a
// 1024-element row is 128 work-items x 8 registers).
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

// The units each work-item keeps in registers: the program's build option.
inline uint32_t opencl_slice_cache(cl_device_id device) { return opencl_device_is_cpu(device) ? 8u : 8u; }

inline std::string opencl_slice_options(cl_device_id device) {
  return "-cl-std=CL1.2 -D OPRIG_CACHE=" + std::to_string(opencl_slice_cache(device));
}

// `kernel` bounds the group size (its registers and local memory).
inline SliceDevice opencl_slice_device(cl_device_id device, cl_kernel kernel) {
  SliceDevice d;
  const size_t limit = std::clamp<size_t>(max_work_group_size(kernel, device), 1, 1024);
  d.max_group = std::bit_floor(static_cast<uint32_t>(limit));
  d.preferred_group = std::min<uint32_t>(d.max_group, 256);
  d.cache = opencl_slice_cache(device);
  d.max_members = d.max_group;
  return d;
}

}  // namespace oprig::opsuite
