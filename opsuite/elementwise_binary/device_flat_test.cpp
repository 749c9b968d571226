// ElementwiseBinary's flat broadcasts on the opencl and vulkan kernels, on
// whichever backend this machine has (SKIPPED otherwise): equal shapes and
// either operand a single element (opencl: the vectorised grid-stride form),
// at lengths that leave every tail (n % 4 of 0 to 3) and one long enough that
// every work-item loops more than once (2^20 + 7: over 2^18 work-items of 4
// elements, common/grid_stride.hpp), and one row broadcast beside them (the
// general form). SUB, whose operand order shows, with the fused RELU6 for the
// floats. The oracle is the host's own arithmetic: fp32 subtraction is
// correctly rounded, the difference of two fp16 values is exact in fp32 and
// rounded once to fp16, INT_32 wraps.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/op_test_support.hpp"
#include "core/half.hpp"

namespace oprig::harness {
namespace {

enum class Form { kEqual, kScalarB, kScalarA };

struct Shapes {
  std::vector<int64_t> a, b;
};

Shapes shapes_of(Form form, int64_t n) {
  if (form == Form::kScalarB) return {{n}, {1}};
  if (form == Form::kScalarA) return {{1}, {n}};
  return {{n}, {n}};
}

const char* name_of(Form form) { return form == Form::kEqual ? "equal" : form == Form::kScalarB ? "b scalar" : "a scalar"; }

float relu6(float r) {
  const float low = r < 0.0f ? 0.0f : r;
  return 6.0f < low ? 6.0f : low;
}

class ElementwiseBinaryFlat : public op_test::DeviceTest {
 protected:
  static ParamList sub(bool relu6) {
    ParamList p;
    p.add_string("operation", "SUB");
    if (relu6) p.add_string("fused_activation", "RELU6");
    return p;
  }
  // Values in [-8, 8]: RELU6 clamps at both ends.
  static std::vector<float> data(const std::vector<int64_t>& shape, uint32_t seed) {
    std::vector<float> v = op_test::values(op_test::count(shape), seed, false);
    for (float& e : v) e *= 8.0f;
    return v;
  }
  // Index of an operand's element for output element i.
  static size_t at(const std::vector<int64_t>& shape, size_t i) { return op_test::count(shape) == 1 ? 0 : i; }
};

const std::vector<int64_t> kLengths = {1, 3, 4, 5, 6, 1023, (int64_t{1} << 20) + 7};

TEST_P(ElementwiseBinaryFlat, Float32AsHostArithmetic) {
  for (Form form : {Form::kEqual, Form::kScalarB, Form::kScalarA}) {
    for (int64_t n : kLengths) {
      const Shapes s = shapes_of(form, n);
      const std::vector<float> a = data(s.a, 1), b = data(s.b, 2);
      const std::vector<float> y = op_test::run_op(backend(), "ElementwiseBinary", sub(true),
                                                   {op_test::f32(s.a, a), op_test::f32(s.b, b)})
                                       .as<float>();
      ASSERT_EQ(y.size(), static_cast<size_t>(n));
      size_t wrong = 0;
      for (size_t i = 0; i < y.size(); ++i)
        if (y[i] != relu6(a[at(s.a, i)] - b[at(s.b, i)]) && wrong++ < 3)
          ADD_FAILURE() << name_of(form) << ", n " << n << ", element " << i << ": " << y[i];
      EXPECT_EQ(wrong, 0u) << name_of(form) << ", n " << n;
    }
  }
}

TEST_P(ElementwiseBinaryFlat, Float16AsHostArithmetic) {
  for (Form form : {Form::kEqual, Form::kScalarB, Form::kScalarA}) {
    for (int64_t n : kLengths) {
      const Shapes s = shapes_of(form, n);
      const HostTensor ta = op_test::f16(s.a, data(s.a, 3)), tb = op_test::f16(s.b, data(s.b, 4));
      const std::vector<float> a = op_test::floats_of_f16(ta), b = op_test::floats_of_f16(tb);
      const std::vector<uint16_t> y = op_test::run_op(backend(), "ElementwiseBinary", sub(true), {ta, tb}).as<uint16_t>();
      ASSERT_EQ(y.size(), static_cast<size_t>(n));
      size_t wrong = 0;
      for (size_t i = 0; i < y.size(); ++i)
        if (y[i] != float_to_half(relu6(a[at(s.a, i)] - b[at(s.b, i)])) && wrong++ < 3)
          ADD_FAILURE() << name_of(form) << ", n " << n << ", element " << i << ": " << half_to_float(y[i]);
      EXPECT_EQ(wrong, 0u) << name_of(form) << ", n " << n;
    }
  }
}

TEST_P(ElementwiseBinaryFlat, Int32Wraps) {
  for (Form form : {Form::kEqual, Form::kScalarB, Form::kScalarA}) {
    for (int64_t n : kLengths) {
      const Shapes s = shapes_of(form, n);
      std::vector<int32_t> a(op_test::count(s.a)), b(op_test::count(s.b));
      for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int32_t>(static_cast<uint32_t>(i) * 2654435761u);
      for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int32_t>(0x80000000u - static_cast<uint32_t>(i) * 40503u);
      const std::vector<int32_t> y = op_test::run_op(backend(), "ElementwiseBinary", sub(false),
                                                     {HostTensor::of(OPRIG_DTYPE_INT_32, s.a, a),
                                                      HostTensor::of(OPRIG_DTYPE_INT_32, s.b, b)})
                                         .as<int32_t>();
      ASSERT_EQ(y.size(), static_cast<size_t>(n));
      size_t wrong = 0;
      for (size_t i = 0; i < y.size(); ++i) {
        const auto want = static_cast<int32_t>(static_cast<uint32_t>(a[at(s.a, i)]) - static_cast<uint32_t>(b[at(s.b, i)]));
        if (y[i] != want && wrong++ < 3) ADD_FAILURE() << name_of(form) << ", n " << n << ", element " << i << ": " << y[i];
      }
      EXPECT_EQ(wrong, 0u) << name_of(form) << ", n " << n;
    }
  }
}

// Rows of 7 minus one row: the general form, beside the flat ones.
TEST_P(ElementwiseBinaryFlat, RowBroadcastAsHostArithmetic) {
  const std::vector<int64_t> shape_a = {33, 7}, shape_b = {7};
  const std::vector<float> a = data(shape_a, 5), b = data(shape_b, 6);
  const std::vector<float> y = op_test::run_op(backend(), "ElementwiseBinary", sub(true),
                                               {op_test::f32(shape_a, a), op_test::f32(shape_b, b)})
                                   .as<float>();
  ASSERT_EQ(y.size(), a.size());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_EQ(y[i], relu6(a[i] - b[i % 7])) << "element " << i;
}

INSTANTIATE_TEST_SUITE_P(Backends, ElementwiseBinaryFlat, ::testing::Values("opencl", "vulkan"), op_test::backend_name);

}  // namespace
}  // namespace oprig::harness
