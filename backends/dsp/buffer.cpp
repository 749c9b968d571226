#include "buffer.hpp"

#include <cstdlib>
#include <new>

#include "hvx_sim/vector.hpp"

namespace oprig::dsp {
namespace {

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

}  // namespace

DspBuffer::DspBuffer(size_t bytes)
    : bytes_(bytes),
      total_(kGuardBytes + round_up(bytes, hvx::kVectorBytes) + kGuardBytes),
      base_(static_cast<std::byte*>(std::aligned_alloc(hvx::kVectorBytes, total_))),
      data_(nullptr) {
  if (base_ == nullptr) throw std::bad_alloc();
  data_ = base_ + kGuardBytes;
  for (size_t i = 0; i < total_; ++i)
    if (i < kGuardBytes || i >= kGuardBytes + bytes_) base_[i] = guard_byte(i);
}

DspBuffer::~DspBuffer() { std::free(base_); }

void DspBuffer::bind(oprig_tensor& tensor) const {
  tensor.data = data_;
  tensor.offset = 0;
  tensor.bytes = bytes_;
}

std::vector<GuardDamage> DspBuffer::guard_damage() const {
  return find_guard_damage({base_, total_}, kGuardBytes, bytes_, guard_byte);
}

}  // namespace oprig::dsp
