// Device memory with guard bands: one cl_mem of front guard + region + back
// guard, the guards filled with a position-dependent byte pattern, and the
// region exposed to kernels as a sub-buffer so they see a cl_mem of exactly
// the tensor's size. A kernel that writes past either end of its tensor lands
// in a guard and guard_damage() says where.
#pragma once

#include <CL/cl.h>

#include <cstddef>

#include "backend.hpp"

namespace oprig::opencl {

class GuardedBuffer final : public DeviceBuffer {
 public:
  // Bytes of pattern behind the region; the front guard is at least as long,
  // rounded up to the device's sub-buffer alignment.
  static constexpr size_t kGuardBytes = 4096;

  // Throws std::runtime_error when OpenCL refuses. `alignment` is
  // CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes. bytes == 0 is allowed: kernels
  // still get a valid cl_mem (one byte that belongs to the back guard, so any
  // write to it is caught).
  GuardedBuffer(cl_context context, cl_command_queue queue, size_t bytes, size_t alignment);
  ~GuardedBuffer() override;
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;

  size_t bytes() const override { return bytes_; }
  void bind(oprig_tensor& tensor) const override;
  std::vector<GuardDamage> guard_damage() const override;

  cl_mem region() const { return region_; }  // the sub-buffer kernels see
  cl_mem parent() const { return parent_; }  // region plus guards
  size_t region_offset() const { return front_bytes_; }  // where region starts in parent

 private:
  cl_command_queue queue_;
  size_t bytes_;
  size_t front_bytes_;
  size_t total_bytes_;
  cl_mem parent_ = nullptr;
  cl_mem region_ = nullptr;
};

}  // namespace oprig::opencl
