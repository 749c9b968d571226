#include <cstdlib>
#include <cstring>
#include <new>

#include "cpu/host_buffer.hpp"

namespace oprig {

HostBuffer::HostBuffer(size_t bytes, size_t alignment) : bytes_(bytes) {
  padded_ = (bytes + alignment - 1) / alignment * alignment;
  const size_t total = padded_ + 2 * kGuardBytes;
  base_ = static_cast<std::byte*>(std::aligned_alloc(alignment, total));
  if (base_ == nullptr) throw std::bad_alloc();
  // The slack between bytes_ and padded_ is guarded too: a kernel that rounds
  // its loop up to the vector width and stores past the end is caught.
  std::memset(base_, static_cast<int>(kGuardPattern), kGuardBytes);
  std::memset(base_ + kGuardBytes + bytes_, static_cast<int>(kGuardPattern),
              total - kGuardBytes - bytes_);
}

HostBuffer::~HostBuffer() { std::free(base_); }

void HostBuffer::bind(oprig_tensor& tensor) const {
  tensor.data = const_cast<std::byte*>(data());
  tensor.offset = 0;
  tensor.bytes = bytes_;
}

std::vector<GuardDamage> HostBuffer::guard_damage() const {
  const size_t total = padded_ + 2 * kGuardBytes;
  return find_guard_damage({base_, total}, kGuardBytes, bytes_, [](size_t) { return kGuardPattern; });
}

}  // namespace oprig
