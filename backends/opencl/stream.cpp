// The opencl DeviceStream: kernels, copies and reads go to the backend's one
// in-order queue, so order needs no events; kernels are enqueued without
// waiting (a blocking read or finish() waits for everything before it). The
// last kernel event is kept to report a kernel that failed on the device.
#include <stdexcept>

#include "buffer.hpp"
#include "error.hpp"
#include "opencl_backend.hpp"

namespace oprig::opencl {
namespace {

const GuardedBuffer& as_guarded(const DeviceBuffer& buffer) {
  const auto* guarded = dynamic_cast<const GuardedBuffer*>(&buffer);
  if (guarded == nullptr) throw std::invalid_argument("opencl stream: buffer from another backend");
  return *guarded;
}

class OpenCLStream final : public DeviceStream {
 public:
  explicit OpenCLStream(cl_command_queue queue) : queue_(queue) {}
  ~OpenCLStream() override {
    clFinish(queue_);
    release_last();
  }
  OpenCLStream(const OpenCLStream&) = delete;
  OpenCLStream& operator=(const OpenCLStream&) = delete;

  oprig_status enqueue(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                       std::span<const oprig_tensor> inputs,
                       std::span<const oprig_tensor> outputs) override {
    oprig_execute_info info{};
    info.struct_size = sizeof info;
    const oprig_status status =
        impl.execute(kernel, inputs.data(), inputs.size(), outputs.data(), outputs.size(), &info);
    if (info.cl_first_event != nullptr) clReleaseEvent(static_cast<cl_event>(info.cl_first_event));
    if (info.cl_last_event != nullptr) {
      release_last();
      last_ = static_cast<cl_event>(info.cl_last_event);
    }
    return status;
  }

  void copy(const DeviceBuffer& src, DeviceBuffer& dst, size_t bytes) override {
    if (bytes == 0) return;
    check(clEnqueueCopyBuffer(queue_, as_guarded(src).region(), as_guarded(dst).region(), 0, 0, bytes, 0,
                              nullptr, nullptr),
          "clEnqueueCopyBuffer");
  }

  void write(DeviceBuffer& dst, std::span<const std::byte> src) override {
    if (src.empty()) return;
    check(clEnqueueWriteBuffer(queue_, as_guarded(dst).region(), CL_TRUE, 0, src.size(), src.data(), 0, nullptr,
                               nullptr),
          "clEnqueueWriteBuffer");
  }

  void read(const DeviceBuffer& src, std::span<std::byte> dst) override {
    if (dst.empty()) return;
    check(clEnqueueReadBuffer(queue_, as_guarded(src).region(), CL_TRUE, 0, dst.size(), dst.data(), 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer");
    // A kernel that failed on the device leaves garbage behind: say so now.
    if (last_failed()) throw std::runtime_error("opencl: a kernel failed on the device");
  }

  oprig_status finish() override {
    if (clFinish(queue_) != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
    const bool failed = last_failed();
    release_last();
    return failed ? OPRIG_STATUS_BACKEND_ERROR : OPRIG_STATUS_OK;
  }

 private:
  bool last_failed() const {
    if (last_ == nullptr) return false;
    cl_int state = CL_COMPLETE;
    clGetEventInfo(last_, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, nullptr);
    return state < 0;
  }
  void release_last() {
    if (last_ != nullptr) clReleaseEvent(last_);
    last_ = nullptr;
  }

  cl_command_queue queue_;
  cl_event last_ = nullptr;
};

}  // namespace

std::unique_ptr<DeviceStream> OpenCLBackend::open_stream() { return std::make_unique<OpenCLStream>(queue_); }

}  // namespace oprig::opencl
