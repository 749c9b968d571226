// Device memory of the simulated DSP: host memory, 128-byte aligned (one HVX
// vector line), with a red zone on each side filled with a known pattern.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend.hpp"

namespace oprig::dsp {

class DspBuffer final : public DeviceBuffer {
 public:
  // Guard band on each side, a multiple of 128 so the data stays aligned.
  static constexpr size_t kGuardBytes = 256;

  explicit DspBuffer(size_t bytes);
  ~DspBuffer() override;
  DspBuffer(const DspBuffer&) = delete;
  DspBuffer& operator=(const DspBuffer&) = delete;

  size_t bytes() const override { return bytes_; }
  void bind(oprig_tensor& tensor) const override;
  std::vector<GuardDamage> guard_damage() const override;

  std::byte* data() const { return data_; }
  // The guard pattern byte at offset i of the whole allocation: position
  // dependent, so a shifted copy of guard bytes is caught too.
  static std::byte guard_byte(size_t i) { return std::byte(static_cast<uint8_t>(0xA5 ^ (i * 29))); }

 private:
  size_t bytes_;
  size_t total_;
  std::byte* base_;
  std::byte* data_;
};

}  // namespace oprig::dsp
