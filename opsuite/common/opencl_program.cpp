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

}  // namespace oprig::opsuite
