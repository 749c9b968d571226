// The opencl Backend: one context and one in-order, profiling queue on the
// selected device, handed to kernels through oprig_backend_context.
#pragma once

#include <CL/cl.h>

#include "backend.hpp"
#include "device.hpp"

namespace oprig::opencl {

class OpenCLBackend final : public Backend {
 public:
  // Throws std::runtime_error when the context or queue cannot be made.
  explicit OpenCLBackend(const SelectedDevice& selected);
  ~OpenCLBackend() override;
  OpenCLBackend(const OpenCLBackend&) = delete;
  OpenCLBackend& operator=(const OpenCLBackend&) = delete;

  oprig_backend_kind kind() const override { return OPRIG_BACKEND_OPENCL; }
  const DeviceInfo& info() const override { return info_; }
  const oprig_backend_context& context() const override { return context_; }

  // allocate/write/read throw std::runtime_error when OpenCL refuses; write and
  // read take at most bytes() and return the copy's device time in ns.
  std::unique_ptr<DeviceBuffer> allocate(size_t bytes) override;
  double write(DeviceBuffer& dst, std::span<const std::byte> src) override;
  double read(const DeviceBuffer& src, std::span<std::byte> dst) override;

  // kernel.cpp. The kernel enqueues and hands back its first and last events
  // (one reference each, released here); this waits for the last and times
  // START(first)..END(last). Nothing enqueued (an empty tensor): 0 ns.
  oprig_status execute(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                       std::span<const oprig_tensor> inputs,
                       std::span<const oprig_tensor> outputs, ExecTiming& timing) override;

  // stream.cpp: kernels enqueued back to back on the one in-order queue.
  std::unique_ptr<DeviceStream> open_stream() override;

  cl_command_queue queue() const { return queue_; }

 private:
  DeviceInfo info_;
  cl_device_id device_;
  cl_context cl_context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  size_t alignment_ = 1;
  oprig_backend_context context_{};
};

}  // namespace oprig::opencl
