// OPRIG_CPU_ISA and explicit requests narrow the ISA kernels may use, never
// widen it past the host's; a bad value is reported, not silently taken.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_isa.hpp"

namespace oprig {
namespace {

// The host's ISA read from /proc/cpuinfo's flags, independently of
// __builtin_cpu_supports.
oprig_cpu_isa isa_from_proc_cpuinfo() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    const std::string flags = line + " ";
    auto has = [&](const char* flag) { return flags.find(std::string(" ") + flag + " ") != std::string::npos; };
    if (!(has("avx2") && has("fma") && has("f16c"))) return OPRIG_CPU_ISA_SCALAR;
    return has("avx512f") && has("avx512dq") && has("avx512bw") && has("avx512vl") ? OPRIG_CPU_ISA_AVX512
                                                                                 : OPRIG_CPU_ISA_AVX2;
  }
  return OPRIG_CPU_ISA_SCALAR;
}

class CpuIsa : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* env = std::getenv("OPRIG_CPU_ISA")) saved_ = env;
    unsetenv("OPRIG_CPU_ISA");
  }
  void TearDown() override {
    if (saved_) setenv("OPRIG_CPU_ISA", saved_->c_str(), 1);
    else unsetenv("OPRIG_CPU_ISA");
  }
  std::optional<std::string> saved_;
  std::string note_;
};

TEST_F(CpuIsa, HostIsaMatchesProcCpuinfo) { EXPECT_EQ(host_cpu_isa(), isa_from_proc_cpuinfo()); }

TEST_F(CpuIsa, ParsesTheThreeNamesInAnyCase) {
  EXPECT_EQ(parse_cpu_isa("scalar"), OPRIG_CPU_ISA_SCALAR);
  EXPECT_EQ(parse_cpu_isa("AVX2"), OPRIG_CPU_ISA_AVX2);
  EXPECT_EQ(parse_cpu_isa("avx512"), OPRIG_CPU_ISA_AVX512);
  EXPECT_EQ(parse_cpu_isa("sse4"), std::nullopt);
  EXPECT_EQ(parse_cpu_isa(""), std::nullopt);
}

TEST_F(CpuIsa, UnsetMeansTheHostsOwn) {
  EXPECT_EQ(effective_cpu_isa(std::nullopt, &note_), host_cpu_isa());
  EXPECT_EQ(note_, "");
  EXPECT_EQ(CpuBackend(1).context().cpu_isa, static_cast<uint32_t>(host_cpu_isa()));
}

TEST_F(CpuIsa, EnvironmentNarrowsTheIsaAndTheDriverStringSaysSo) {
  setenv("OPRIG_CPU_ISA", "scalar", 1);
  CpuBackend backend(1);
  EXPECT_EQ(backend.context().cpu_isa, static_cast<uint32_t>(OPRIG_CPU_ISA_SCALAR));
  EXPECT_NE(backend.info().driver_version.find("scalar"), std::string::npos) << backend.info().driver_version;
  if (host_cpu_isa() > OPRIG_CPU_ISA_SCALAR) {
    EXPECT_NE(backend.info().driver_version.find("capped from"), std::string::npos) << backend.info().driver_version;
  }
}

TEST_F(CpuIsa, NeverWiderThanTheHost) {
  const oprig_cpu_isa got = effective_cpu_isa(OPRIG_CPU_ISA_AVX512, &note_);
  EXPECT_EQ(got, host_cpu_isa());
  if (host_cpu_isa() < OPRIG_CPU_ISA_AVX512) {
    EXPECT_NE(note_.find("the host has only"), std::string::npos) << note_;
  }
}

TEST_F(CpuIsa, ABadEnvironmentValueIsNamedAndIgnored) {
  setenv("OPRIG_CPU_ISA", "sse9", 1);
  EXPECT_EQ(effective_cpu_isa(std::nullopt, &note_), host_cpu_isa());
  EXPECT_NE(note_.find("OPRIG_CPU_ISA=sse9 ignored"), std::string::npos) << note_;
  EXPECT_NE(CpuBackend(1).info().driver_version.find("OPRIG_CPU_ISA=sse9 ignored"), std::string::npos);
}

TEST_F(CpuIsa, AnExplicitRequestWinsOverTheEnvironment) {
  setenv("OPRIG_CPU_ISA", "scalar", 1);
  if (host_cpu_isa() < OPRIG_CPU_ISA_AVX2) GTEST_SKIP() << "this host has no AVX2";
  EXPECT_EQ(CpuBackend(1, OPRIG_CPU_ISA_AVX2).context().cpu_isa, static_cast<uint32_t>(OPRIG_CPU_ISA_AVX2));
}

}  // namespace
}  // namespace oprig
