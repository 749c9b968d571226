#include "common/opencl_program.hpp"

#include <cstdio>
#include <map>
#include <mutex>
#include <tuple>

namespace oprig::opsuite {

cl_program cached_program(cl_context context, cl_device_id device, const unsigned char* source,
                          size_t source_size, const std::string& options, const char* what) {
  static std::mutex mutex;
  static std::map<std::tuple<cl_context, cl_device_id, const unsigned char*, std::string>, cl_program> programs;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(context, device, source, options);
  if (auto it = programs.find(key); it != programs.end()) return it->second;
  const char* text = reinterpret_cast<const char*>(source);
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &text, &source_size, &err);
  if (err != CL_SUCCESS) return nullptr;
  err = clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    size_t log_size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &log_size);
    std::string log(log_size, '\0');
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, log_size, log.data(), nullptr);
    std::fprintf(stderr, "oprig opsuite: %s OpenCL build failed (%d):\n%s\n", what, err, log.c_str());
    clReleaseProgram(program);
    return nullptr;
  }
  programs.emplace(key, program);
  return program;
}

bool device_has_fp64(cl_device_id device) {
  cl_device_fp_config fp = 0;
  return clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, nullptr) == CL_SUCCESS && fp != 0;
}

bool device_divides_correctly(cl_device_id device) {
  cl_device_fp_config fp = 0;
  return clGetDeviceInfo(device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, nullptr) == CL_SUCCESS &&
         (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
}

size_t max_work_group_size(cl_kernel kernel, cl_device_id device) {
  size_t size = 1;
  if (clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof size, &size, nullptr) != CL_SUCCESS)
    return 1;
  return size;
}

ClEnqueue::~ClEnqueue() {
  // Not handed to the host (an error part-way): release our references.
  if (first_ != nullptr) clReleaseEvent(first_);
  if (last_ != nullptr) clReleaseEvent(last_);
}

oprig_status ClEnqueue::keep(cl_int err, cl_event event) {
  if (err == CL_OUT_OF_HOST_MEMORY || err == CL_OUT_OF_RESOURCES || err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
    return OPRIG_STATUS_OUT_OF_MEMORY;
  if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  if (first_ == nullptr) {
    first_ = event;
    return OPRIG_STATUS_OK;
  }
  if (last_ != nullptr) clReleaseEvent(last_);
  last_ = event;
  return OPRIG_STATUS_OK;
}

oprig_status ClEnqueue::kernel(cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local) {
  for (cl_uint d = 0; d < dims; ++d)
    if (global[d] == 0) return OPRIG_STATUS_OK;
  cl_event event = nullptr;
  const cl_int err = clEnqueueNDRangeKernel(queue_, kernel, dims, nullptr, global, local, 0, nullptr, &event);
  return keep(err, event);
}

oprig_status ClEnqueue::fill(cl_mem buffer, const void* pattern, size_t pattern_bytes, size_t offset, size_t bytes) {
  if (bytes == 0) return OPRIG_STATUS_OK;
  cl_event event = nullptr;
  const cl_int err = clEnqueueFillBuffer(queue_, buffer, pattern, pattern_bytes, offset, bytes, 0, nullptr, &event);
  return keep(err, event);
}

void ClEnqueue::finish(oprig_execute_info* info) {
  info->cl_first_event = first_;
  // One reference per pointer handed to the host: a lone event is both.
  if (last_ == nullptr && first_ != nullptr) clRetainEvent(first_);
  info->cl_last_event = last_ != nullptr ? last_ : first_;
  first_ = last_ = nullptr;
}

ClScratch::~ClScratch() {
  if (buffer_ != nullptr) clReleaseMemObject(buffer_);
}

oprig_status ClScratch::reserve(cl_context context, size_t bytes) {
  bytes = bytes < 4 ? 4 : bytes;
  if (buffer_ != nullptr && size_ >= bytes) return OPRIG_STATUS_OK;
  if (buffer_ != nullptr) clReleaseMemObject(buffer_);
  buffer_ = nullptr;
  size_ = 0;
  cl_int err = CL_SUCCESS;
  buffer_ = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  if (err != CL_SUCCESS || buffer_ == nullptr) {
    buffer_ = nullptr;
    return err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_INVALID_BUFFER_SIZE
               ? OPRIG_STATUS_OUT_OF_MEMORY
               : OPRIG_STATUS_BACKEND_ERROR;
  }
  size_ = bytes;
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::opsuite
