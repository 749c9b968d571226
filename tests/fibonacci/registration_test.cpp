// What libcom_example_fibonacci.so declares through the ABI: the package,
// its one op, where the cpu implementation lives, and the validate hook.
#include <gtest/gtest.h>

#include <cmath>
#include <string_view>

#include "fibonacci_library.hpp"
#include "package/loader.hpp"

namespace {

using oprig::test::FibonacciLibrary;

oprig_tensor tensor(oprig_dtype dtype, uint32_t rank, int64_t dim0, float scale = 0.0f) {
  oprig_tensor t{};
  t.dtype = dtype;
  t.rank = rank;
  t.dims[0] = dim0;
  t.scale = scale;
  return t;
}

TEST(FibonacciRegistration, DeclaresOnePackageWithOneCpuOp) {
  FibonacciLibrary library;
  ASSERT_TRUE(library.error().empty()) << library.error();
  const oprig_package_v1* package = library.package_query()(OPRIG_ABI_VERSION);
  ASSERT_NE(package, nullptr);
  EXPECT_EQ(package->abi_version, OPRIG_ABI_VERSION);
  EXPECT_EQ(package->struct_size, sizeof(oprig_package_v1));
  EXPECT_EQ(std::string_view(package->name), "com.example.fibonacci");
  ASSERT_EQ(package->num_ops, 1u);
  const oprig_op_registration_v1& op = package->ops[0];  // index 0: the low 16 bits of the extension type
  EXPECT_EQ(std::string_view(op.name), "Fibonacci");
  EXPECT_EQ(op.backend_mask, OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU));
  EXPECT_EQ(op.num_inputs, 1u);
  EXPECT_EQ(op.num_outputs, 1u);
  EXPECT_EQ(op.param_names, nullptr);
  ASSERT_EQ(package->num_implementations, 1u);
  EXPECT_EQ(package->implementations[0].backend_kind, static_cast<uint32_t>(OPRIG_BACKEND_CPU));
  EXPECT_EQ(package->implementations[0].library, nullptr);  // this same library
  EXPECT_NE(package->validate, nullptr);
}

TEST(FibonacciRegistration, AnswersOnlyKnownVersionsAndTheCpuBackend) {
  FibonacciLibrary library;
  ASSERT_TRUE(library.error().empty()) << library.error();
  EXPECT_EQ(library.package_query()(0), nullptr);
  EXPECT_NE(library.package_query()(OPRIG_ABI_VERSION + 1), nullptr);  // newer host, v1 answer
  const oprig_implementation_v1* cpu = library.cpu();
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->abi_version, OPRIG_ABI_VERSION);
  EXPECT_EQ(cpu->backend_kind, static_cast<uint32_t>(OPRIG_BACKEND_CPU));
  EXPECT_NE(cpu->resolve_shapes, nullptr);  // its output shape depends on n's value
  EXPECT_EQ(library.implementation_query()(OPRIG_BACKEND_CPU, 0), nullptr);
  for (oprig_backend_kind kind : {OPRIG_BACKEND_OPENCL, OPRIG_BACKEND_VULKAN, OPRIG_BACKEND_DSP})
    EXPECT_EQ(library.implementation_query()(kind, OPRIG_ABI_VERSION), nullptr) << kind;
}

TEST(FibonacciRegistration, TheHostLoaderAcceptsIt) {
  auto package = oprig::Package::load(OPRIG_FIBONACCI_LIBRARY);
  ASSERT_NE(package, nullptr);
  EXPECT_EQ(package->name(), "com.example.fibonacci");
  ASSERT_NE(package->find_op("Fibonacci"), nullptr);
  std::string why;
  EXPECT_NE(package->implementation(OPRIG_BACKEND_CPU, &why), nullptr) << why;
  EXPECT_EQ(package->implementation(OPRIG_BACKEND_OPENCL, &why), nullptr);
}

struct ValidateCase {
  const char* what;
  oprig_tensor input;
  oprig_tensor output;
  bool accepted;
};

TEST(FibonacciRegistration, ValidateChecksTypesWithAReason) {
  FibonacciLibrary library;
  ASSERT_TRUE(library.error().empty()) << library.error();
  const oprig_package_v1* package = library.package_query()(OPRIG_ABI_VERSION);
  ASSERT_NE(package, nullptr);
  const ValidateCase cases[] = {
      {"f32 -> f32", tensor(OPRIG_DTYPE_FLOAT_32, 1, 1), tensor(OPRIG_DTYPE_FLOAT_32, 1, 0), true},
      {"f32 -> u64 plain", tensor(OPRIG_DTYPE_FLOAT_32, 1, 1), tensor(OPRIG_DTYPE_UINT_64, 1, -1), true},
      {"f32 -> u64 quantised", tensor(OPRIG_DTYPE_FLOAT_32, 1, 1), tensor(OPRIG_DTYPE_UINT_64, 1, 0, 0.5f), true},
      {"unknown input dim", tensor(OPRIG_DTYPE_FLOAT_32, 1, 0), tensor(OPRIG_DTYPE_FLOAT_32, 1, 0), true},
      {"int32 n", tensor(OPRIG_DTYPE_INT_32, 1, 1), tensor(OPRIG_DTYPE_FLOAT_32, 1, 0), false},
      {"two elements of n", tensor(OPRIG_DTYPE_FLOAT_32, 1, 2), tensor(OPRIG_DTYPE_FLOAT_32, 1, 0), false},
      {"f16 output", tensor(OPRIG_DTYPE_FLOAT_32, 1, 1), tensor(OPRIG_DTYPE_FLOAT_16, 1, 0), false},
      {"u8 output", tensor(OPRIG_DTYPE_FLOAT_32, 1, 1), tensor(OPRIG_DTYPE_UINT_8, 1, 0, 1.0f), false},
      {"negative scale", tensor(OPRIG_DTYPE_FLOAT_32, 1, 1), tensor(OPRIG_DTYPE_UINT_64, 1, 0, -1.0f), false},
      {"NaN scale", tensor(OPRIG_DTYPE_FLOAT_32, 1, 1), tensor(OPRIG_DTYPE_UINT_64, 1, 0, std::nanf("")), false},
      {"2-D output", tensor(OPRIG_DTYPE_FLOAT_32, 1, 1), tensor(OPRIG_DTYPE_FLOAT_32, 2, 0), false},
  };
  for (const ValidateCase& c : cases) {
    char message[256] = "untouched";
    const oprig_status status =
        package->validate("Fibonacci", nullptr, 0, &c.input, 1, &c.output, 1, message, sizeof message);
    if (c.accepted) {
      EXPECT_EQ(status, OPRIG_STATUS_OK) << c.what << ": " << message;
    } else {
      EXPECT_EQ(status, OPRIG_STATUS_INVALID_ARGUMENT) << c.what;
      EXPECT_GT(std::string_view(message).size(), 10u) << c.what;
      EXPECT_NE(std::string_view(message), "untouched") << c.what;
    }
  }
  const oprig_tensor n = tensor(OPRIG_DTYPE_FLOAT_32, 1, 1), f = tensor(OPRIG_DTYPE_FLOAT_32, 1, 0);
  char message[256];
  EXPECT_EQ(package->validate("Atan", nullptr, 0, &n, 1, &f, 1, message, sizeof message),
            OPRIG_STATUS_INVALID_ARGUMENT);
  const float offset = 1.0f;
  const oprig_param param{"offset", OPRIG_DTYPE_FLOAT_32, 1, &offset};
  EXPECT_EQ(package->validate("Fibonacci", &param, 1, &n, 1, &f, 1, message, sizeof message),
            OPRIG_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(package->validate("Fibonacci", nullptr, 0, &n, 1, &f, 0, message, sizeof message),
            OPRIG_STATUS_INVALID_ARGUMENT);
}

// NNAPI's example declares EXAMPLE_INT64 (0, a scalar) and
// EXAMPLE_TENSOR_QUANT64_ASYMM (1, a tensor with quantisation).
TEST(FibonacciRegistration, DeclaresTheExampleOperandTypes) {
  FibonacciLibrary library;
  ASSERT_TRUE(library.error().empty()) << library.error();
  const oprig_package_v1* package = library.package_query()(OPRIG_ABI_VERSION);
  ASSERT_NE(package, nullptr);
  ASSERT_NE(package->operand_types, nullptr);
  const oprig_operand_type_v1* t = package->operand_types;
  EXPECT_EQ(std::string_view(t[0].name), "EXAMPLE_INT64");
  EXPECT_EQ(t[0].index, 0u);
  EXPECT_EQ(t[0].is_tensor, 0u);
  EXPECT_EQ(t[0].storage_dtype, static_cast<uint32_t>(OPRIG_DTYPE_INT_64));
  EXPECT_EQ(t[0].quantised, 0u);
  EXPECT_EQ(std::string_view(t[1].name), "EXAMPLE_TENSOR_QUANT64_ASYMM");
  EXPECT_EQ(t[1].index, 1u);
  EXPECT_EQ(t[1].is_tensor, 1u);
  EXPECT_EQ(t[1].storage_dtype, static_cast<uint32_t>(OPRIG_DTYPE_UINT_64));
  EXPECT_EQ(t[1].quantised, 1u);
  EXPECT_EQ(t[2].name, nullptr);  // the end of the list
  // The host loader reads them.
  auto loaded = oprig::Package::load(OPRIG_FIBONACCI_LIBRARY);
  ASSERT_EQ(loaded->operand_types().size(), 2u);
  ASSERT_NE(loaded->find_operand_type("EXAMPLE_TENSOR_QUANT64_ASYMM"), nullptr);
  EXPECT_EQ(loaded->find_operand_type("EXAMPLE_TENSOR_QUANT64_ASYMM")->storage, OPRIG_DTYPE_UINT_64);
  EXPECT_EQ(loaded->find_operand_type(0u)->name, "EXAMPLE_INT64");
  EXPECT_EQ(loaded->find_operand_type(2u), nullptr);
}

TEST(FibonacciRegistration, ValidateTakesTheExtensionTypes) {
  FibonacciLibrary library;
  const oprig_package_v1* package = library.package_query()(OPRIG_ABI_VERSION);
  ASSERT_NE(package, nullptr) << library.error();
  const auto int64 = static_cast<oprig_dtype>(OPRIG_DTYPE_EXTENSION(0));
  const auto quant64 = static_cast<oprig_dtype>(OPRIG_DTYPE_EXTENSION(1));
  const ValidateCase cases[] = {
      {"int64 scalar -> quant64", tensor(int64, 0, 0), tensor(quant64, 1, 0, 0.5f), true},
      {"int64 scalar -> f32", tensor(int64, 0, 0), tensor(OPRIG_DTYPE_FLOAT_32, 1, 0), true},
      {"int64 as a tensor", tensor(int64, 1, 1), tensor(OPRIG_DTYPE_FLOAT_32, 1, 0), false},
      {"quant64 as n", tensor(quant64, 1, 1, 1.0f), tensor(OPRIG_DTYPE_FLOAT_32, 1, 0), false},
      {"quant64 without a scale", tensor(int64, 0, 0), tensor(quant64, 1, 0), false},
      {"an unknown extension type", tensor(static_cast<oprig_dtype>(OPRIG_DTYPE_EXTENSION(2)), 0, 0),
       tensor(OPRIG_DTYPE_FLOAT_32, 1, 0), false},
  };
  for (const ValidateCase& c : cases) {
    char message[256] = "";
    const oprig_status status =
        package->validate("Fibonacci", nullptr, 0, &c.input, 1, &c.output, 1, message, sizeof message);
    EXPECT_EQ(status, c.accepted ? OPRIG_STATUS_OK : OPRIG_STATUS_INVALID_ARGUMENT) << c.what << ": " << message;
  }
}

TEST(FibonacciRegistration, CreateRefusesOtherOpsParamsAndBackends) {
  FibonacciLibrary library;
  const oprig_implementation_v1* cpu = library.cpu();
  ASSERT_NE(cpu, nullptr) << library.error();
  oprig_backend_context ctx = oprig::test::cpu_context();
  oprig_kernel* kernel = reinterpret_cast<oprig_kernel*>(&ctx);  // garbage the call must clear
  EXPECT_EQ(cpu->create(&ctx, "Atan", nullptr, 0, &kernel), OPRIG_STATUS_UNSUPPORTED);
  EXPECT_EQ(kernel, nullptr);
  const float offset = 0.0f;
  const oprig_param param{"offset", OPRIG_DTYPE_FLOAT_32, 1, &offset};
  EXPECT_EQ(cpu->create(&ctx, "Fibonacci", &param, 1, &kernel), OPRIG_STATUS_UNSUPPORTED);
  ctx.kind = OPRIG_BACKEND_OPENCL;
  EXPECT_EQ(cpu->create(&ctx, "Fibonacci", nullptr, 0, &kernel), OPRIG_STATUS_UNSUPPORTED);
  cpu->destroy(nullptr);  // a no-op
}

}  // namespace
