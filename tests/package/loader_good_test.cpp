// Package::load on working packages: the bundled opsuite package (the path a
// vendor's package takes) and a test package whose implementation lives in
// the registration library itself.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "factories.hpp"
#include "package/loader.hpp"

namespace {

constexpr uint32_t kAllBackendBits = OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU) | OPRIG_BACKEND_BIT(OPRIG_BACKEND_OPENCL) |
                                     OPRIG_BACKEND_BIT(OPRIG_BACKEND_VULKAN) | OPRIG_BACKEND_BIT(OPRIG_BACKEND_DSP);

// Distance in fp32 units in the last place between two finite floats.
int64_t ulp_distance(float a, float b) {
  auto ordered = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, sizeof i);
    return i < 0 ? static_cast<int64_t>(std::numeric_limits<int32_t>::min()) - i : static_cast<int64_t>(i);
  };
  return std::llabs(ordered(a) - ordered(b));
}

// Runs Atan through `impl` on the real cpu backend's context with host
// vectors (the cpu ABI hands kernels host pointers), returning the outputs.
std::vector<float> run_atan(const oprig_implementation_v1& impl, const std::vector<float>& x, float offset) {
  std::string why;
  auto backend = oprig::create_cpu_backend(&why);
  EXPECT_NE(backend, nullptr) << why;
  if (backend == nullptr) return {};
  const oprig_param param{"offset", OPRIG_DTYPE_FLOAT_32, 1, &offset};
  oprig_kernel* kernel = nullptr;
  EXPECT_EQ(impl.create(&backend->context(), "Atan", &param, 1, &kernel), OPRIG_STATUS_OK);
  if (kernel == nullptr) return {};
  oprig_tensor in{}, out{};
  in.dtype = out.dtype = OPRIG_DTYPE_FLOAT_32;
  in.rank = 1;
  in.dims[0] = static_cast<int64_t>(x.size());
  EXPECT_EQ(impl.prepare(kernel, &in, 1, &out, 1), OPRIG_STATUS_OK);
  EXPECT_EQ(out.rank, 1u);
  EXPECT_EQ(out.dims[0], static_cast<int64_t>(x.size()));
  std::vector<float> y(x.size(), std::numeric_limits<float>::quiet_NaN());
  in.data = const_cast<float*>(x.data());
  in.bytes = x.size() * sizeof(float);
  out.data = y.data();
  out.bytes = y.size() * sizeof(float);
  oprig_execute_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(impl.execute(kernel, &in, 1, &out, 1, &info), OPRIG_STATUS_OK);
  impl.destroy(kernel);
  return y;
}

void expect_atan_within_3_ulp(const std::vector<float>& x, float offset, const std::vector<float>& y) {
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float expected = static_cast<float>(std::atan(static_cast<double>(x[i]) + offset));
    EXPECT_LE(ulp_distance(y[i], expected), 3) << "x=" << x[i] << " got " << y[i] << " expected " << expected;
  }
}

const std::vector<float> kInputs = {-8.0f, 0.5f, 2.0f, 2.2f, 201.0f, 0.0f, -1.0f, 1e6f, -3.5f};

TEST(PackageLoaderGood, OpsuitePackageListsAtanWithBackendBits) {
  auto package = oprig::Package::load(OPRIG_OPSUITE_PACKAGE);
  EXPECT_EQ(package->name(), "org.oprig.opsuite");
  EXPECT_FALSE(package->version().empty());
  EXPECT_TRUE(package->path().is_absolute());
  const oprig::PackageOp* atan = package->find_op("Atan");
  ASSERT_NE(atan, nullptr);
  EXPECT_EQ(atan->num_inputs, 1u);
  EXPECT_EQ(atan->num_outputs, 1u);
  EXPECT_EQ(atan->param_names, std::vector<std::string>{"offset"});
  EXPECT_NE(atan->backend_mask & OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU), 0u);
  EXPECT_EQ(atan->backend_mask & ~kAllBackendBits, 0u) << "bits beyond the four known backends";
  EXPECT_EQ(package->find_op("NoSuchOp"), nullptr);
}

TEST(PackageLoaderGood, OpsuiteCpuImplementationComputesAtan) {
  auto package = oprig::Package::load(OPRIG_OPSUITE_PACKAGE);
  std::string why;
  const oprig_implementation_v1* impl = package->implementation(OPRIG_BACKEND_CPU, &why);
  ASSERT_NE(impl, nullptr) << why;
  EXPECT_EQ(impl->abi_version, OPRIG_ABI_VERSION);
  EXPECT_EQ(impl->backend_kind, static_cast<uint32_t>(OPRIG_BACKEND_CPU));
  // Loaded once, then cached.
  EXPECT_EQ(package->implementation(OPRIG_BACKEND_CPU, &why), impl);
  // seed 001's example: atan(x + 1).
  expect_atan_within_3_ulp(kInputs, 1.0f, run_atan(*impl, kInputs, 1.0f));
}

TEST(PackageLoaderGood, TestPackageImplementationLivesInRegistrationLibrary) {
  auto package = oprig::Package::load(OPRIG_TEST_PACKAGE_SEGFAULT);
  EXPECT_EQ(package->name(), "org.oprig.test.segfault");
  ASSERT_NE(package->find_op("Atan"), nullptr);
  EXPECT_EQ(package->find_op("Atan")->backend_mask, OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU));
  std::string why;
  const oprig_implementation_v1* impl = package->implementation(OPRIG_BACKEND_CPU, &why);
  ASSERT_NE(impl, nullptr) << why;
  // 9 elements: not the faulty count, so the kernel is correct.
  expect_atan_within_3_ulp(kInputs, -0.25f, run_atan(*impl, kInputs, -0.25f));
}

TEST(PackageLoaderGood, TwoPackagesLoadSideBySide) {
  auto a = oprig::Package::load(OPRIG_TEST_PACKAGE_ABORT);
  auto b = oprig::Package::load(OPRIG_TEST_PACKAGE_LAZY);
  std::string why;
  const auto* ia = a->implementation(OPRIG_BACKEND_CPU, &why);
  const auto* ib = b->implementation(OPRIG_BACKEND_CPU, &why);
  ASSERT_NE(ia, nullptr);
  ASSERT_NE(ib, nullptr);
  // RTLD_LOCAL: each package resolves its own symbols, not the first one's.
  EXPECT_NE(ia, ib);
  EXPECT_EQ(a->name(), "org.oprig.test.abort");
  EXPECT_EQ(b->name(), "org.oprig.test.lazy");
}

}  // namespace
