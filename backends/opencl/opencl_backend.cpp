#include "opencl_backend.hpp"

#include <stdexcept>

#include "buffer.hpp"
#include "error.hpp"
#include "timer.hpp"

namespace oprig::opencl {
namespace {

const GuardedBuffer& as_guarded(const DeviceBuffer& buffer) {
  const auto* guarded = dynamic_cast<const GuardedBuffer*>(&buffer);
  if (guarded == nullptr) throw std::invalid_argument("opencl: buffer from another backend");
  return *guarded;
}

}  // namespace

OpenCLBackend::OpenCLBackend(const SelectedDevice& selected)
    : info_(describe_device(selected)), device_(selected.device) {
  cl_int err = CL_SUCCESS;
  const cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(selected.platform), 0};
  cl_context_ = clCreateContext(properties, 1, &device_, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  const cl_queue_properties queue_properties[] = {CL_QUEUE_PROPERTIES,
                                                  CL_QUEUE_PROFILING_ENABLE, 0};
  queue_ = clCreateCommandQueueWithProperties(cl_context_, device_, queue_properties, &err);
  if (err != CL_SUCCESS) {
    clReleaseContext(cl_context_);
    check(err, "clCreateCommandQueueWithProperties");
  }
  alignment_ = base_address_alignment(device_);

  context_.struct_size = sizeof(oprig_backend_context);
  context_.kind = OPRIG_BACKEND_OPENCL;
  context_.cl_context = cl_context_;
  context_.cl_device = device_;
  context_.cl_queue = queue_;
}

OpenCLBackend::~OpenCLBackend() {
  clFinish(queue_);
  clReleaseCommandQueue(queue_);
  clReleaseContext(cl_context_);
}

std::unique_ptr<DeviceBuffer> OpenCLBackend::allocate(size_t bytes) {
  return std::make_unique<GuardedBuffer>(cl_context_, queue_, bytes, alignment_);
}

double OpenCLBackend::write(DeviceBuffer& dst, std::span<const std::byte> src) {
  const GuardedBuffer& buffer = as_guarded(dst);
  if (src.size() > buffer.bytes()) throw std::out_of_range("opencl write: more bytes than the buffer");
  if (src.empty()) return 0.0;
  ScopedEvent event;
  check(clEnqueueWriteBuffer(queue_, buffer.region(), CL_TRUE, 0, src.size(), src.data(), 0,
                             nullptr, event.out()),
        "clEnqueueWriteBuffer");
  return profiled_span_ns(event.get(), event.get());
}

double OpenCLBackend::read(const DeviceBuffer& src, std::span<std::byte> dst) {
  const GuardedBuffer& buffer = as_guarded(src);
  if (dst.size() > buffer.bytes()) throw std::out_of_range("opencl read: more bytes than the buffer");
  if (dst.empty()) return 0.0;
  ScopedEvent event;
  check(clEnqueueReadBuffer(queue_, buffer.region(), CL_TRUE, 0, dst.size(), dst.data(), 0,
                            nullptr, event.out()),
        "clEnqueueReadBuffer");
  return profiled_span_ns(event.get(), event.get());
}

}  // namespace oprig::opencl
