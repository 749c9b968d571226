#include "buffer.hpp"

#include <algorithm>
#include <vector>

#include "error.hpp"

namespace oprig::opencl {
namespace {

// The guard byte at parent offset `position`. It depends on the position so a
// shifted copy of the guard, or a stray memset, does not pass for intact.
std::byte guard_byte(size_t position) {
  return static_cast<std::byte>(0xA5u ^ ((position * 0x9Du) >> 2));
}

std::vector<std::byte> guard_pattern(size_t begin, size_t end) {
  std::vector<std::byte> pattern(end - begin);
  for (size_t i = begin; i < end; ++i) pattern[i - begin] = guard_byte(i);
  return pattern;
}

size_t round_up(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

GuardedBuffer::GuardedBuffer(cl_context context, cl_command_queue queue, size_t bytes,
                             size_t alignment)
    : queue_(queue),
      bytes_(bytes),
      front_bytes_(round_up(kGuardBytes, std::max<size_t>(alignment, 1))),
      total_bytes_(front_bytes_ + bytes + kGuardBytes) {
  cl_int err = CL_SUCCESS;
  parent_ = clCreateBuffer(context, CL_MEM_READ_WRITE, total_bytes_, nullptr, &err);
  check(err, "clCreateBuffer");
  try {
    const cl_buffer_region where{front_bytes_, std::max<size_t>(bytes, 1)};
    region_ = clCreateSubBuffer(parent_, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &where,
                                &err);
    check(err, "clCreateSubBuffer");
    const std::vector<std::byte> front = guard_pattern(0, front_bytes_);
    const std::vector<std::byte> back = guard_pattern(front_bytes_ + bytes, total_bytes_);
    check(clEnqueueWriteBuffer(queue_, parent_, CL_TRUE, 0, front.size(), front.data(), 0,
                               nullptr, nullptr),
          "clEnqueueWriteBuffer(front guard)");
    check(clEnqueueWriteBuffer(queue_, parent_, CL_TRUE, front_bytes_ + bytes, back.size(),
                               back.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer(back guard)");
  } catch (...) {
    if (region_ != nullptr) clReleaseMemObject(region_);
    clReleaseMemObject(parent_);
    throw;
  }
}

GuardedBuffer::~GuardedBuffer() {
  clReleaseMemObject(region_);
  clReleaseMemObject(parent_);
}

void GuardedBuffer::bind(oprig_tensor& tensor) const {
  tensor.data = region_;
  tensor.offset = 0;
  tensor.bytes = bytes_;
}

std::vector<GuardDamage> GuardedBuffer::guard_damage() const {
  const size_t back_begin = front_bytes_ + bytes_;
  std::vector<std::byte> front(front_bytes_), back(total_bytes_ - back_begin);
  // A guard that cannot be read back cannot be vouched for.
  if (clEnqueueReadBuffer(queue_, parent_, CL_TRUE, 0, front.size(), front.data(), 0, nullptr, nullptr) !=
      CL_SUCCESS)
    return {GuardDamage{true, 0, 0, 0, true}};
  if (clEnqueueReadBuffer(queue_, parent_, CL_TRUE, back_begin, back.size(), back.data(), 0, nullptr, nullptr) !=
      CL_SUCCESS)
    return {GuardDamage{false, 0, 0, 0, true}};
  // Each band on its own (the tensor between them is not read): the front
  // band ends where the tensor starts, the back band starts at its end.
  std::vector<GuardDamage> out = find_guard_damage(front, front_bytes_, 0, guard_byte);
  for (GuardDamage d : find_guard_damage(back, 0, 0, [&](size_t i) { return guard_byte(back_begin + i); })) {
    d.before = false;
    d.first += static_cast<int64_t>(bytes_);
    d.last += static_cast<int64_t>(bytes_);
    out.push_back(d);
  }
  return out;
}

}  // namespace oprig::opencl
