// Host memory with guard bands on both sides: the cpu and dsp backends hand
// kernels a pointer to the middle, and an out-of-bounds write shows up as a
// changed guard byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "backend.hpp"

namespace oprig {

class HostBuffer final : public DeviceBuffer {
 public:
  static constexpr size_t kGuardBytes = 256;  // multiple of the 128-byte alignment
  static constexpr std::byte kGuardPattern{0xFB};

  HostBuffer(size_t bytes, size_t alignment);
  ~HostBuffer() override;
  size_t bytes() const override { return bytes_; }
  void bind(oprig_tensor& tensor) const override;
  std::vector<GuardDamage> guard_damage() const override;

  std::byte* data() { return base_ + kGuardBytes; }
  const std::byte* data() const { return base_ + kGuardBytes; }

 private:
  std::byte* base_ = nullptr;
  size_t bytes_ = 0;
  size_t padded_ = 0;  // user bytes rounded up to the alignment
};

}  // namespace oprig
