// .npy reading and writing, checked against files NumPy itself wrote
// (data/make_fixtures.py): our reader must accept them and our writer must
// reproduce them byte for byte.
#include "core/npy.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <unistd.h>

#include "core/dtype.hpp"

namespace oprig {
namespace {

const std::filesystem::path kFixtures = OPRIG_NPY_FIXTURES;

std::vector<std::byte> file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

template <typename T>
std::vector<std::byte> bytes_of(std::initializer_list<T> values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), std::data(values), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> values_of(const NpyArray& array) {
  std::vector<T> values(array.data.size() / sizeof(T));
  std::memcpy(values.data(), array.data.data(), array.data.size());
  return values;
}

// A fixture NumPy wrote, restated by hand: the reader must agree with it and
// the writer must reproduce NumPy's bytes exactly.
struct Fixture {
  const char* file;
  oprig_dtype dtype;
  std::vector<int64_t> shape;
  std::vector<std::byte> data;
};

std::vector<Fixture> fixtures() {
  return {
      {"f4_2x3.npy", OPRIG_DTYPE_FLOAT_32, {2, 3}, bytes_of<float>({-1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 1.5f})},
      // fp16 bit patterns of 1, -2, 0.5, 65504
      {"f2_4.npy", OPRIG_DTYPE_FLOAT_16, {4}, bytes_of<uint16_t>({0x3c00, 0xc000, 0x3800, 0x7bff})},
      {"f8_3.npy", OPRIG_DTYPE_FLOAT_64, {3}, bytes_of<double>({0.1, -1e300, 5e-324})},
      {"i1_3.npy", OPRIG_DTYPE_INT_8, {3}, bytes_of<int8_t>({-128, 0, 127})},
      {"i2_2.npy", OPRIG_DTYPE_INT_16, {2}, bytes_of<int16_t>({-32768, 1234})},
      {"i4_2x2.npy", OPRIG_DTYPE_INT_32, {2, 2}, bytes_of<int32_t>({1, -2, 3, -4})},
      {"i8_2.npy", OPRIG_DTYPE_INT_64, {2}, bytes_of<int64_t>({-(int64_t{1} << 40), 7})},
      {"u1_scalar.npy", OPRIG_DTYPE_UINT_8, {}, bytes_of<uint8_t>({7})},
      {"u2_2.npy", OPRIG_DTYPE_UINT_16, {2}, bytes_of<uint16_t>({65535, 1})},
      {"u4_1.npy", OPRIG_DTYPE_UINT_32, {1}, bytes_of<uint32_t>({4000000000u})},
      {"u8_1.npy", OPRIG_DTYPE_UINT_64, {1}, bytes_of<uint64_t>({(uint64_t{1} << 63) + 1})},
      {"b1_3.npy", OPRIG_DTYPE_BOOL_8, {3}, bytes_of<uint8_t>({1, 0, 1})},
      {"i8_0x3.npy", OPRIG_DTYPE_INT_64, {0, 3}, {}},
  };
}

TEST(Npy, ReadsEveryDtypeNumpyWrote) {
  for (const Fixture& fixture : fixtures()) {
    SCOPED_TRACE(fixture.file);
    const NpyArray array = read_npy(kFixtures / fixture.file);
    EXPECT_EQ(array.dtype, fixture.dtype);
    EXPECT_EQ(array.shape, fixture.shape);
    EXPECT_EQ(array.data, fixture.data);
  }
}

TEST(Npy, WritesTheSameBytesAsNumpy) {
  for (const Fixture& fixture : fixtures()) {
    SCOPED_TRACE(fixture.file);
    const NpyArray array{fixture.dtype, fixture.shape, fixture.data};
    EXPECT_EQ(npy_to_bytes(array), file_bytes(kFixtures / fixture.file));
  }
}

TEST(Npy, ReadsFormatVersions2And3) {
  for (const char* file : {"f8_3_v2.npy", "f8_3_v3.npy"}) {
    SCOPED_TRACE(file);
    const NpyArray array = read_npy(kFixtures / file);
    EXPECT_EQ(array.dtype, OPRIG_DTYPE_FLOAT_64);
    EXPECT_EQ(array.shape, std::vector<int64_t>{3});
    EXPECT_EQ(values_of<double>(array), (std::vector<double>{0.1, -1e300, 5e-324}));
  }
}

TEST(Npy, HeaderIsPaddedTo64Bytes) {
  // Header lengths before padding that fall on both sides of a 64-byte step.
  std::vector<std::vector<int64_t>> shapes = {{}, {5}, {0, 1, 2}};
  for (size_t rank = 1; rank <= 30; ++rank) shapes.push_back(std::vector<int64_t>(rank, 1));
  for (const std::vector<int64_t>& shape : shapes) {
    uint64_t count = 1;
    for (int64_t d : shape) count *= static_cast<uint64_t>(d);
    const NpyArray array{OPRIG_DTYPE_FLOAT_32, shape, std::vector<std::byte>(count * 4)};
    const std::vector<std::byte> bytes = npy_to_bytes(array);
    const size_t header_len = static_cast<size_t>(bytes[8]) | (static_cast<size_t>(bytes[9]) << 8);
    EXPECT_EQ((10 + header_len) % 64, 0u);
    EXPECT_EQ(static_cast<char>(bytes[10 + header_len - 1]), '\n');
  }
}

TEST(Npy, RoundTripsEveryDtypeThroughAFile) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("oprig_npy_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const oprig_dtype dtypes[] = {OPRIG_DTYPE_FLOAT_16, OPRIG_DTYPE_FLOAT_32, OPRIG_DTYPE_FLOAT_64,
                                OPRIG_DTYPE_INT_8,    OPRIG_DTYPE_INT_16,   OPRIG_DTYPE_INT_32,
                                OPRIG_DTYPE_INT_64,   OPRIG_DTYPE_UINT_8,   OPRIG_DTYPE_UINT_16,
                                OPRIG_DTYPE_UINT_32,  OPRIG_DTYPE_UINT_64,  OPRIG_DTYPE_BOOL_8};
  for (oprig_dtype dtype : dtypes) {
    SCOPED_TRACE(std::string(dtype_name(dtype)));
    NpyArray array{dtype, {2, 3, 4}, std::vector<std::byte>(24 * dtype_size(dtype))};
    for (size_t i = 0; i < array.data.size(); ++i) array.data[i] = static_cast<std::byte>(i * 37 % 251);
    if (dtype == OPRIG_DTYPE_BOOL_8)
      for (size_t i = 0; i < array.data.size(); ++i) array.data[i] = static_cast<std::byte>(i % 2);
    const std::filesystem::path path = dir / (std::string(dtype_short_name(dtype)) + ".npy");
    write_npy(path, array);
    const NpyArray back = read_npy(path);
    EXPECT_EQ(back.dtype, array.dtype);
    EXPECT_EQ(back.shape, array.shape);
    EXPECT_EQ(back.data, array.data);
  }
  // Only the final files remain: the temporaries were renamed away.
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().extension(), ".npy") << entry.path();
    ++files;
  }
  EXPECT_EQ(files, std::size(dtypes));
  std::filesystem::remove_all(dir);
}

TEST(Npy, EmptyAndZeroDimensionalArraysRoundTrip) {
  const NpyArray empty{OPRIG_DTYPE_FLOAT_32, {3, 0}, {}};
  const NpyArray back = npy_from_bytes(npy_to_bytes(empty));
  EXPECT_EQ(back.shape, (std::vector<int64_t>{3, 0}));
  EXPECT_EQ(back.element_count(), 0u);
  EXPECT_TRUE(back.data.empty());

  const NpyArray scalar{OPRIG_DTYPE_FLOAT_64, {}, bytes_of<double>({-2.5})};
  const NpyArray scalar_back = npy_from_bytes(npy_to_bytes(scalar));
  EXPECT_TRUE(scalar_back.shape.empty());
  EXPECT_EQ(scalar_back.element_count(), 1u);
  EXPECT_EQ(values_of<double>(scalar_back), std::vector<double>{-2.5});
}

TEST(Npy, DescrNames) {
  EXPECT_EQ(npy_descr(OPRIG_DTYPE_FLOAT_16), "<f2");
  EXPECT_EQ(npy_descr(OPRIG_DTYPE_UINT_8), "|u1");
  EXPECT_EQ(npy_descr(OPRIG_DTYPE_BOOL_8), "|b1");
  EXPECT_EQ(npy_descr(OPRIG_DTYPE_INT_64), "<i8");
  EXPECT_THROW(npy_descr(OPRIG_DTYPE_STRING), std::invalid_argument);
}

// Expects the error message to contain every fragment (the file name and the reason).
void expect_error(const std::function<void()>& action, std::initializer_list<std::string_view> fragments) {
  try {
    action();
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& error) {
    for (std::string_view fragment : fragments)
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
          << "'" << error.what() << "' lacks '" << fragment << "'";
  }
}

TEST(Npy, RejectsWhatNumpyWroteButOprigDoesNotSupport) {
  expect_error([] { read_npy(kFixtures / "bad_big_endian.npy"); }, {"bad_big_endian.npy", "big-endian"});
  expect_error([] { read_npy(kFixtures / "bad_fortran.npy"); }, {"bad_fortran.npy", "Fortran"});
  expect_error([] { read_npy(kFixtures / "bad_structured.npy"); }, {"bad_structured.npy", "unsupported dtype"});
  expect_error([] { read_npy(kFixtures / "bad_complex.npy"); }, {"bad_complex.npy", "unsupported dtype '<c8'"});
}

TEST(Npy, RejectsDamagedFiles) {
  const std::vector<std::byte> good = file_bytes(kFixtures / "f4_2x3.npy");

  std::vector<std::byte> bad_magic = good;
  bad_magic[1] = std::byte{'X'};
  expect_error([&] { npy_from_bytes(bad_magic, "magic.npy"); }, {"magic.npy", "bad magic"});

  const std::vector<std::byte> truncated(good.begin(), good.end() - 1);
  expect_error([&] { npy_from_bytes(truncated, "short.npy"); }, {"short.npy", "truncated", "24 bytes", "23"});

  std::vector<std::byte> longer = good;
  longer.push_back(std::byte{0});
  expect_error([&] { npy_from_bytes(longer, "long.npy"); }, {"long.npy", "size mismatch"});

  const std::vector<std::byte> header_cut(good.begin(), good.begin() + 40);
  expect_error([&] { npy_from_bytes(header_cut, "cut.npy"); }, {"cut.npy", "truncated header"});

  std::vector<std::byte> version9 = good;
  version9[6] = std::byte{9};
  expect_error([&] { npy_from_bytes(version9, "v9.npy"); }, {"v9.npy", "version 9"});

  expect_error([] { read_npy(kFixtures / "does_not_exist.npy"); }, {"does_not_exist.npy", "cannot open"});
}

TEST(Npy, RejectsMalformedHeaders) {
  const auto image = [](std::string header) {
    header.append(64 - (10 + header.size() + 1) % 64, ' ');
    header += '\n';
    std::vector<std::byte> bytes = {std::byte{0x93}, std::byte{'N'}, std::byte{'U'}, std::byte{'M'},
                                    std::byte{'P'},  std::byte{'Y'}, std::byte{1},   std::byte{0},
                                    std::byte{static_cast<unsigned char>(header.size())}, std::byte{0}};
    for (char c : header) bytes.push_back(static_cast<std::byte>(c));
    return bytes;
  };
  expect_error([&] { npy_from_bytes(image("{'descr': '<f4', 'shape': (1,), }"), "h1"); }, {"h1", "fortran_order"});
  expect_error([&] { npy_from_bytes(image("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }"), "h2"); },
               {"h2", "bad header"});
  expect_error([&] { npy_from_bytes(image("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (), }"), "h3"); },
               {"h3", "True or False"});
  expect_error([&] { npy_from_bytes(image("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}"), "h4"); },
               {"h4", "unexpected key 'x'"});
  expect_error([&] { npy_from_bytes(image("{'descr': '<U3', 'fortran_order': False, 'shape': (), }"), "h5"); },
               {"h5", "unsupported dtype '<U3'"});
  // A shape whose byte count overflows 64 bits is caught before any allocation.
  expect_error(
      [&] {
        npy_from_bytes(image("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"), "h6");
      },
      {"h6", "too large"});
  // Accepted: double quotes, no trailing comma, extra spaces.
  std::vector<std::byte> spaced = image("{\"descr\": \"<i2\" , \"fortran_order\" : False, \"shape\": ( 1 , )}");
  spaced.insert(spaced.end(), {std::byte{0x34}, std::byte{0x12}});
  const NpyArray ok = npy_from_bytes(spaced, "h7");
  EXPECT_EQ(ok.dtype, OPRIG_DTYPE_INT_16);
  EXPECT_EQ(ok.shape, std::vector<int64_t>{1});
  EXPECT_EQ(values_of<int16_t>(ok), std::vector<int16_t>{0x1234});
}

TEST(Npy, WriterRejectsInconsistentArrays) {
  EXPECT_THROW(npy_to_bytes(NpyArray{OPRIG_DTYPE_FLOAT_32, {2}, std::vector<std::byte>(4)}), std::invalid_argument);
  EXPECT_THROW(npy_to_bytes(NpyArray{OPRIG_DTYPE_FLOAT_32, {-1}, {}}), std::invalid_argument);
  EXPECT_THROW(write_npy("/nonexistent_dir_oprig/x.npy", NpyArray{OPRIG_DTYPE_UINT_8, {}, std::vector<std::byte>(1)}),
               std::runtime_error);
}

}  // namespace
}  // namespace oprig
