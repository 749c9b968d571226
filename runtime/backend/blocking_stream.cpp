// The default DeviceStream: every call is complete when it returns. Correct
// on any backend; backends with a command queue override open_stream() so
// that kernels do not wait for each other.
#include <vector>

#include "backend.hpp"

namespace oprig {
namespace {

class BlockingStream final : public DeviceStream {
 public:
  explicit BlockingStream(Backend& backend) : backend_(backend) {}

  oprig_status enqueue(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                       std::span<const oprig_tensor> inputs,
                       std::span<const oprig_tensor> outputs) override {
    ExecTiming timing;
    return backend_.execute(impl, kernel, inputs, outputs, timing);
  }

  void copy(const DeviceBuffer& src, DeviceBuffer& dst, size_t bytes) override {
    std::vector<std::byte> staging(bytes);
    backend_.read(src, staging);
    backend_.write(dst, staging);
  }

  void write(DeviceBuffer& dst, std::span<const std::byte> src) override { backend_.write(dst, src); }
  void read(const DeviceBuffer& src, std::span<std::byte> dst) override { backend_.read(src, dst); }
  oprig_status finish() override { return OPRIG_STATUS_OK; }

 private:
  Backend& backend_;
};

}  // namespace

std::unique_ptr<DeviceStream> Backend::open_stream() { return std::make_unique<BlockingStream>(*this); }

}  // namespace oprig
