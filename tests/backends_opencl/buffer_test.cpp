// Device buffers: real cl_mem regions, exact round trips, and guard bands that
// notice writes past either end.
#include <CL/cl.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "buffer.hpp"
#include "opencl_fixture.hpp"

namespace oprig::testing {
namespace {

using OpenCLBufferTest = OpenCLTest;

std::vector<std::byte> counting_bytes(size_t n) {
  std::vector<std::byte> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<std::byte>((i * 7 + 3) & 0xff);
  return bytes;
}

cl_command_queue queue_of(const Backend& backend) {
  return static_cast<cl_command_queue>(backend.context().cl_queue);
}

// Writes one byte at `offset` of `mem`, bypassing the backend.
void poke(const Backend& backend, cl_mem mem, size_t offset) {
  const unsigned char value = 0x42;
  ASSERT_EQ(clEnqueueWriteBuffer(queue_of(backend), mem, CL_TRUE, offset, 1, &value, 0, nullptr,
                                 nullptr),
            CL_SUCCESS);
}

// Runs a one-work-item kernel that stores 0x42 at p[index], unchecked, as a
// buggy kernel would.
void overrun_with_kernel(const Backend& backend, cl_mem mem, cl_uint index) {
  const oprig_backend_context& ctx = backend.context();
  const char* source = "kernel void poke(global uchar* p, uint i) { p[i] = (uchar)0x42; }";
  cl_int err = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithSource(static_cast<cl_context>(ctx.cl_context), 1, &source, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  auto device = static_cast<cl_device_id>(ctx.cl_device);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, "poke", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 0, sizeof mem, &mem), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof index, &index), CL_SUCCESS);
  const size_t one = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue_of(backend), kernel, 1, nullptr, &one, &one, 0, nullptr,
                                   nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queue_of(backend)), CL_SUCCESS);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_F(OpenCLBufferTest, RoundTripIsExact) {
  for (size_t n : {size_t{1}, size_t{3}, size_t{1000}, size_t{1} << 20}) {
    auto buffer = backend_->allocate(n);
    ASSERT_EQ(buffer->bytes(), n);
    const std::vector<std::byte> sent = counting_bytes(n);
    EXPECT_GE(backend_->write(*buffer, sent), 0.0);
    std::vector<std::byte> received(n);
    EXPECT_GE(backend_->read(*buffer, received), 0.0);
    EXPECT_EQ(received, sent) << n << " bytes";
    EXPECT_TRUE(buffer->guards_intact()) << n << " bytes";
  }
}

TEST_F(OpenCLBufferTest, BindExposesASubBufferOfExactlyTheTensor) {
  auto buffer = backend_->allocate(4000);
  oprig_tensor tensor{};
  tensor.offset = 99;
  buffer->bind(tensor);
  ASSERT_NE(tensor.data, nullptr);
  EXPECT_EQ(tensor.offset, 0u);
  EXPECT_EQ(tensor.bytes, 4000u);
  auto mem = static_cast<cl_mem>(tensor.data);
  size_t size = 0;
  ASSERT_EQ(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, nullptr), CL_SUCCESS);
  EXPECT_EQ(size, 4000u);
  cl_mem parent = nullptr;
  ASSERT_EQ(clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, nullptr),
            CL_SUCCESS);
  EXPECT_NE(parent, nullptr) << "a sub-buffer of a larger allocation";
  size_t origin = 0;
  ASSERT_EQ(clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof origin, &origin, nullptr), CL_SUCCESS);
  cl_uint align_bits = 0;
  ASSERT_EQ(clGetDeviceInfo(static_cast<cl_device_id>(backend_->context().cl_device),
                            CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, nullptr),
            CL_SUCCESS);
  EXPECT_GT(origin, 0u) << "a front guard lies before the tensor";
  EXPECT_EQ(origin % (align_bits / 8), 0u);
}

TEST_F(OpenCLBufferTest, WritesInsideTheRegionLeaveGuardsIntact) {
  auto buffer = backend_->allocate(256);
  oprig_tensor tensor{};
  buffer->bind(tensor);
  poke(*backend_, static_cast<cl_mem>(tensor.data), 0);
  poke(*backend_, static_cast<cl_mem>(tensor.data), 255);
  overrun_with_kernel(*backend_, static_cast<cl_mem>(tensor.data), 128);
  EXPECT_TRUE(buffer->guards_intact());
}

TEST_F(OpenCLBufferTest, KernelWritingOnePastTheEndIsCaught) {
  auto buffer = backend_->allocate(256);
  oprig_tensor tensor{};
  buffer->bind(tensor);
  ASSERT_TRUE(buffer->guards_intact());
  overrun_with_kernel(*backend_, static_cast<cl_mem>(tensor.data), 256);
  EXPECT_FALSE(buffer->guards_intact());
  // Behind the tensor, from its byte 256 on.
  const std::vector<GuardDamage> damage = buffer->guard_damage();
  ASSERT_EQ(damage.size(), 1u);
  EXPECT_FALSE(damage[0].before);
  EXPECT_EQ(damage[0].first, 256);
}

TEST_F(OpenCLBufferTest, WriteJustBeforeTheRegionIsCaught) {
  auto buffer = backend_->allocate(256);
  const auto& guarded = dynamic_cast<const opencl::GuardedBuffer&>(*buffer);
  poke(*backend_, guarded.parent(), guarded.region_offset() - 1);
  EXPECT_FALSE(buffer->guards_intact());
  const std::vector<GuardDamage> damage = buffer->guard_damage();
  ASSERT_EQ(damage.size(), 1u);
  EXPECT_TRUE(damage[0].before);
  EXPECT_EQ(damage[0].first, -1);
  EXPECT_EQ(damage[0].last, -1);
}

TEST_F(OpenCLBufferTest, WriteAtTheFarEndOfTheBackGuardIsCaught) {
  auto buffer = backend_->allocate(256);
  const auto& guarded = dynamic_cast<const opencl::GuardedBuffer&>(*buffer);
  poke(*backend_, guarded.parent(),
       guarded.region_offset() + 256 + opencl::GuardedBuffer::kGuardBytes - 1);
  EXPECT_FALSE(buffer->guards_intact());
}

TEST_F(OpenCLBufferTest, EmptyBufferBindsAValidHandleAndCatchesAnyWrite) {
  auto buffer = backend_->allocate(0);
  EXPECT_EQ(buffer->bytes(), 0u);
  oprig_tensor tensor{};
  buffer->bind(tensor);
  EXPECT_NE(tensor.data, nullptr);
  EXPECT_EQ(tensor.bytes, 0u);
  EXPECT_EQ(backend_->write(*buffer, {}), 0.0);
  EXPECT_EQ(backend_->read(*buffer, {}), 0.0);
  EXPECT_TRUE(buffer->guards_intact());
  poke(*backend_, static_cast<cl_mem>(tensor.data), 0);
  EXPECT_FALSE(buffer->guards_intact());
}

TEST_F(OpenCLBufferTest, CopyLargerThanTheBufferIsRefused) {
  auto buffer = backend_->allocate(16);
  std::vector<std::byte> too_many(17);
  EXPECT_THROW(backend_->write(*buffer, too_many), std::out_of_range);
  EXPECT_THROW(backend_->read(*buffer, too_many), std::out_of_range);
  EXPECT_TRUE(buffer->guards_intact());
}

}  // namespace
}  // namespace oprig::testing
