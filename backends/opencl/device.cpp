#include "device.hpp"

#include <cctype>
#include <vector>

#include "error.hpp"

namespace oprig::opencl {
namespace {

std::string platform_string(cl_platform_id platform, cl_platform_info param) {
  size_t size = 0;
  if (clGetPlatformInfo(platform, param, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  clGetPlatformInfo(platform, param, size, text.data(), nullptr);
  text.resize(text.find('\0') == std::string::npos ? size : text.find('\0'));
  return text;
}

std::string device_string(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  if (clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  clGetDeviceInfo(device, param, size, text.data(), nullptr);
  text.resize(text.find('\0') == std::string::npos ? size : text.find('\0'));
  return text;
}

// The first `words` space-separated words of text ("OpenCL 3.0 PoCL ..." -> "OpenCL 3.0").
std::string leading_words(const std::string& text, int words) {
  size_t end = 0;
  size_t from = 0;
  for (int i = 0; i < words; ++i) {
    end = text.find(' ', from);
    if (end == std::string::npos) return text;
    from = end + 1;
  }
  return text.substr(0, end);
}

// CL_DRIVER_VERSION is often a bare number ("3.1+debian"); the platform
// version usually names the implementation just before it ("OpenCL 3.0 PoCL
// 3.1+debian  Linux, ..."). Take "<name> <number>" from there when it is.
std::string driver_version(cl_platform_id platform, cl_device_id device) {
  const std::string driver = device_string(device, CL_DRIVER_VERSION);
  const std::string platform_version = platform_string(platform, CL_PLATFORM_VERSION);
  const size_t at = driver.empty() ? std::string::npos : platform_version.find(driver);
  if (at == std::string::npos || at < 2 || platform_version[at - 1] != ' ') return driver;
  size_t word = platform_version.rfind(' ', at - 2);
  word = word == std::string::npos ? 0 : word + 1;
  const std::string name = platform_version.substr(word, at - 1 - word);
  const bool is_name = !name.empty() && std::isalpha(static_cast<unsigned char>(name[0]));
  return is_name ? name + " " + driver : driver;
}

std::vector<cl_platform_id> platforms(cl_int* err) {
  cl_uint count = 0;
  *err = clGetPlatformIDs(0, nullptr, &count);
  if (*err != CL_SUCCESS || count == 0) return {};
  std::vector<cl_platform_id> ids(count);
  *err = clGetPlatformIDs(count, ids.data(), nullptr);
  return *err == CL_SUCCESS ? ids : std::vector<cl_platform_id>{};
}

std::optional<SelectedDevice> first_device_of_type(const std::vector<cl_platform_id>& ids,
                                                   cl_device_type type) {
  for (cl_platform_id platform : ids) {
    cl_device_id device = nullptr;
    cl_uint count = 0;
    if (clGetDeviceIDs(platform, type, 1, &device, &count) == CL_SUCCESS && count > 0)
      return SelectedDevice{platform, device};
  }
  return std::nullopt;
}

}  // namespace

std::optional<SelectedDevice> select_device(std::string* why) {
  cl_int err = CL_SUCCESS;
  const std::vector<cl_platform_id> ids = platforms(&err);
  if (ids.empty()) {
    if (why != nullptr)
      *why = "no OpenCL platform (the ICD loader found none: " + error_name(err) +
             "); install an ICD such as pocl-opencl-icd";
    return std::nullopt;
  }
  if (auto gpu = first_device_of_type(ids, CL_DEVICE_TYPE_GPU)) return gpu;
  if (auto any = first_device_of_type(ids, CL_DEVICE_TYPE_ALL)) return any;
  if (why != nullptr)
    *why = "no OpenCL device on " + std::to_string(ids.size()) + " platform(s)";
  return std::nullopt;
}

DeviceInfo describe_device(const SelectedDevice& selected) {
  DeviceInfo info;
  info.backend = "opencl";
  info.available = true;
  info.device_name = device_string(selected.device, CL_DEVICE_NAME);
  info.vendor = device_string(selected.device, CL_DEVICE_VENDOR);
  info.driver_version = driver_version(selected.platform, selected.device);
  info.api_version = leading_words(device_string(selected.device, CL_DEVICE_VERSION), 2);
  // fp16 as storage (vload_half/vstore_half) is core OpenCL, so every device
  // can hold FLOAT_16 tensors; arithmetic stays fp32. char/short/int and
  // their unsigned forms are core OpenCL C on every profile.
  info.dtypes = {OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_16, OPRIG_DTYPE_INT_8,  OPRIG_DTYPE_INT_16,
                 OPRIG_DTYPE_INT_32,   OPRIG_DTYPE_UINT_8,   OPRIG_DTYPE_UINT_16, OPRIG_DTYPE_UINT_32,
                 OPRIG_DTYPE_BOOL_8};
  // One in-order queue and kernels without atomics: runs repeat bit for bit.
  info.deterministic = true;
  info.device_timer = true;  // CL_QUEUE_PROFILING_ENABLE events
  return info;
}

size_t base_address_alignment(cl_device_id device) {
  cl_uint bits = 0;
  check(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr),
        "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)");
  const size_t bytes = bits / 8;
  return bytes == 0 ? 1 : bytes;
}

}  // namespace oprig::opencl
