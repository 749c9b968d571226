// The dsp backend's device glue: info, buffers with red zones, copies timed
// by the DMA model, and execute(): a simulator per execution with the
// tensors mapped, its cycles turned into time, its faults into a failed
// execution naming what went wrong.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "factories.hpp"
#include "oprig/oprig_dsp.h"

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
  EXPECT_TRUE(oprig_dsp_available(&backend->context()));
  EXPECT_EQ(backend->context().dsp->num_opcodes, uint32_t{OPRIG_DSP_NUM_OPCODES});
  EXPECT_NE(std::string(backend->context().dsp->simulator).find("cost model 2"), std::string::npos);
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

// A kernel that carries its own simulator (as packages built before
// oprig_dsp.h did): it reports a fixed cycle count, which the backend takes.
oprig_status legacy_execute(oprig_kernel*, const oprig_tensor*, size_t, const oprig_tensor*,
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

TEST(DspBackend, ExecuteReportsTheCyclesOfAKernelWithItsOwnSimulator) {
  auto backend = make();
  oprig_implementation_v1 impl{};
  impl.execute = legacy_execute;
  ExecTiming timing;
  ASSERT_EQ(backend->execute(impl, nullptr, {}, {}, timing), OPRIG_STATUS_OK);
  EXPECT_EQ(timing.sim_cycles, 2500u);
  EXPECT_DOUBLE_EQ(timing.compute_ns, 2500.0);  // 2500 cycles at 1 GHz

  impl.execute = failing_execute;
  ExecTiming untouched;
  EXPECT_EQ(backend->execute(impl, nullptr, {}, {}, untouched), OPRIG_STATUS_UNSUPPORTED);
  EXPECT_EQ(untouched.sim_cycles, 0u);
}

// Kernels on oprig_dsp.h; the kernel handle is the backend context itself.
// y = x + x (saturating) over one vector; `bytes_stored` how much it writes.
template <size_t bytes_stored, bool report_fault>
oprig_status hvx_execute(oprig_kernel* kernel, const oprig_tensor* in, size_t, const oprig_tensor* out, size_t,
                         oprig_execute_info* info) {
  if (const oprig_status s = oprig_dsp_begin(reinterpret_cast<const oprig_backend_context*>(kernel)); s != OPRIG_STATUS_OK)
    return s;
  const HVX_Vector x = oprig_vmem_load(in[0].data);
  oprig_dsp_store_bytes(out[0].data, bytes_stored, Q6_Vub_vadd_VubVub_sat(x, x));
  const oprig_status end = oprig_dsp_end(info);
  return report_fault ? end : OPRIG_STATUS_OK;
}

struct Tensors {
  std::unique_ptr<DeviceBuffer> in, out;
  oprig_tensor in_t{}, out_t{};
  Tensors(Backend& backend, size_t n) : in(backend.allocate(n)), out(backend.allocate(n)) {
    std::vector<std::byte> codes(n);
    for (size_t i = 0; i < n; ++i) codes[i] = std::byte(i);
    backend.write(*in, codes);
    in->bind(in_t);
    out->bind(out_t);
  }
};

TEST(DspBackend, ExecuteTimesAKernelOnItsSimulator) {
  auto backend = make();
  Tensors t(*backend, 100);
  oprig_implementation_v1 impl{};
  impl.execute = hvx_execute<100, true>;
  auto* kernel = reinterpret_cast<oprig_kernel*>(const_cast<oprig_backend_context*>(&backend->context()));
  ExecTiming timing;
  ASSERT_EQ(backend->execute(impl, kernel, {&t.in_t, 1}, {&t.out_t, 1}, timing), OPRIG_STATUS_OK) << timing.failure;
  // vmem (load), vaddubsat (ALU), vsetq (permute) + predicated vmem (store):
  // 4 instructions, no resource twice: 1 cycle; traffic 256 bytes: 4 cycles.
  EXPECT_EQ(timing.sim_cycles, 24u);
  EXPECT_DOUBLE_EQ(timing.compute_ns, 24.0);
  std::vector<std::byte> y(100);
  backend->read(*t.out, y);
  EXPECT_EQ(y[60], std::byte(120));
  EXPECT_EQ(y[99], std::byte(198));
  EXPECT_TRUE(t.out->guards_intact());
}

TEST(DspBackend, AFaultFailsTheExecutionWithItsMessageWhateverTheKernelReturns) {
  auto backend = make();
  auto* kernel = reinterpret_cast<oprig_kernel*>(const_cast<oprig_backend_context*>(&backend->context()));
  for (const auto execute : {hvx_execute<128, true>, hvx_execute<128, false>}) {
    Tensors t(*backend, 100);
    oprig_implementation_v1 impl{};
    impl.execute = execute;
    ExecTiming timing;
    EXPECT_EQ(backend->execute(impl, kernel, {&t.in_t, 1}, {&t.out_t, 1}, timing), OPRIG_STATUS_BACKEND_ERROR);
    EXPECT_NE(timing.failure.find("the DSP faulted: oprig_vmem_store"), std::string::npos) << timing.failure;
    EXPECT_NE(timing.failure.find("28 byte(s) outside writable memory"), std::string::npos) << timing.failure;
    EXPECT_NE(timing.failure.find("past the end of output 0 (100 bytes"), std::string::npos) << timing.failure;
    EXPECT_TRUE(t.out->guards_intact());  // the faulting store wrote nothing
  }
}

}  // namespace
}  // namespace oprig
