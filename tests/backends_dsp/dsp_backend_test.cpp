// The dsp backend's device glue: info, buffers with red zones, copies timed
// by the DMA model, and execute() turning simulated cycles into time.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "factories.hpp"

namespace oprig {
namespace {

std::unique_ptr<Backend> make() {
  std::string why;
  auto backend = create_dsp_backend(&why);
  EXPECT_NE(backend, nullptr) << why;
  return backend;
}

TEST(DspBackend, DescribesTheSimulator) {
  auto backend = make();
  const DeviceInfo& info = backend->info();
  EXPECT_EQ(backend->kind(), OPRIG_BACKEND_DSP);
  EXPECT_EQ(info.backend, "dsp");
  EXPECT_TRUE(info.available);
  EXPECT_EQ(info.device_name, "oprig HVX simulator (128B)");
  EXPECT_NE(info.driver_version.find("hvx-sim"), std::string::npos);
  EXPECT_NE(info.driver_version.find("cost model"), std::string::npos);
  // Fixed point only: no float type on the DSP.
  EXPECT_EQ(info.dtypes, (std::vector<oprig_dtype>{OPRIG_DTYPE_UINT_8, OPRIG_DTYPE_INT_8, OPRIG_DTYPE_UINT_16,
                                                   OPRIG_DTYPE_INT_16, OPRIG_DTYPE_INT_32, OPRIG_DTYPE_BOOL_8}));
  EXPECT_TRUE(info.deterministic);
  EXPECT_TRUE(info.device_timer);
  EXPECT_EQ(backend->context().kind, OPRIG_BACKEND_DSP);
  EXPECT_EQ(backend->context().struct_size, sizeof(oprig_backend_context));
  EXPECT_EQ(backend->context().dsp_clock_hz, 1'000'000'000u);
}

TEST(DspBackend, BuffersAreAlignedAndRoundTrip) {
  auto backend = make();
  for (size_t bytes : {size_t{0}, size_t{1}, size_t{127}, size_t{128}, size_t{1000}}) {
    auto buffer = backend->allocate(bytes);
    ASSERT_EQ(buffer->bytes(), bytes);
    oprig_tensor t{};
    buffer->bind(t);
    ASSERT_NE(t.data, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data) % 128, 0u);
    EXPECT_EQ(t.bytes, bytes);
    EXPECT_EQ(t.offset, 0u);
    std::vector<std::byte> src(bytes), dst(bytes);
    for (size_t i = 0; i < bytes; ++i) src[i] = std::byte(i * 13 + 1);
    const double write_ns = backend->write(*buffer, src);
    const double read_ns = backend->read(*buffer, dst);
    EXPECT_EQ(src, dst);
    // DMA model: 1000 ns set-up + bytes / 8 bytes per ns.
    EXPECT_DOUBLE_EQ(write_ns, 1000.0 + static_cast<double>(bytes) / 8.0);
    EXPECT_DOUBLE_EQ(read_ns, write_ns);
    EXPECT_TRUE(buffer->guards_intact());
  }
}

TEST(DspBackend, GuardsCatchWritesJustOutside) {
  auto backend = make();
  for (int side : {-1, +1}) {
    auto buffer = backend->allocate(100);
    oprig_tensor t{};
    buffer->bind(t);
    auto* p = static_cast<unsigned char*>(t.data);
    ASSERT_TRUE(buffer->guards_intact());
    unsigned char* victim = side < 0 ? p - 1 : p + 100;
    *victim = static_cast<unsigned char>(*victim ^ 0x01);
    EXPECT_FALSE(buffer->guards_intact()) << "side " << side;
    // Which band and which byte, relative to the tensor's first byte.
    const std::vector<GuardDamage> damage = buffer->guard_damage();
    ASSERT_EQ(damage.size(), 1u);
    EXPECT_EQ(damage[0].before, side < 0);
    EXPECT_EQ(damage[0].first, side < 0 ? -1 : 100);
    EXPECT_EQ(damage[0].last, damage[0].first);
    EXPECT_EQ(damage[0].changed, 1u);
  }
  // Past the 128-byte padding too: the last guard byte.
  auto buffer = backend->allocate(1);
  oprig_tensor t{};
  buffer->bind(t);
  auto* p = static_cast<unsigned char*>(t.data);
  p[127 + 256] ^= 0xFF;
  EXPECT_FALSE(buffer->guards_intact());
}

// A stand-in kernel: reports a fixed cycle count, so execute's conversion is
// checked without any op.
oprig_status fake_execute(oprig_kernel*, const oprig_tensor*, size_t, const oprig_tensor*,
                          size_t, oprig_execute_info* info) {
  if (info == nullptr || info->struct_size != sizeof(oprig_execute_info))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  info->dsp_cycles = 2500;
  return OPRIG_STATUS_OK;
}

oprig_status failing_execute(oprig_kernel*, const oprig_tensor*, size_t, const oprig_tensor*,
                             size_t, oprig_execute_info* info) {
  info->dsp_cycles = 99;
  return OPRIG_STATUS_UNSUPPORTED;
}

TEST(DspBackend, ExecuteReportsSimulatedTime) {
  auto backend = make();
  oprig_implementation_v1 impl{};
  impl.execute = fake_execute;
  ExecTiming timing;
  ASSERT_EQ(backend->execute(impl, nullptr, {}, {}, timing), OPRIG_STATUS_OK);
  EXPECT_EQ(timing.sim_cycles, 2500u);
  EXPECT_DOUBLE_EQ(timing.compute_ns, 2500.0);  // 2500 cycles at 1 GHz

  impl.execute = failing_execute;
  ExecTiming untouched;
  EXPECT_EQ(backend->execute(impl, nullptr, {}, {}, untouched), OPRIG_STATUS_UNSUPPORTED);
  EXPECT_EQ(untouched.sim_cycles, 0u);
}

}  // namespace
}  // namespace oprig
