// NumPy .npy files: the on-disk form of golden vectors and tensor dumps.
//
// Reads format versions 1.0, 2.0 and 3.0; writes 1.0 (2.0 only if the header
// would not fit in 1.0's 16-bit length). Only little-endian, C-order arrays of
// plain numeric dtypes are supported, because that is all oprig ever writes:
//   <f2 <f4 <f8  |i1 <i2 <i4 <i8  |u1 <u2 <u4 <u8  |b1
// Anything else (big-endian, Fortran order, structured or object dtypes,
// pickles) is rejected with an error that names the file and the reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "oprig/oprig_package.h"

namespace oprig {

struct NpyArray {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  std::vector<int64_t> shape;  // empty: a 0-d array (one element)
  std::vector<std::byte> data;  // C order, little-endian, element_count() * dtype_size(dtype) bytes

  // Product of the shape (1 for a 0-d array, 0 when any dimension is 0).
  uint64_t element_count() const;
};

// NumPy's descr string for a dtype ("<f4", "|u1", "|b1"); throws
// std::invalid_argument for dtypes .npy cannot hold here (STRING, INVALID).
std::string npy_descr(oprig_dtype dtype);

// Parses a whole .npy image. `source` names the origin in error messages.
// Throws std::runtime_error on any malformed or unsupported content.
NpyArray npy_from_bytes(std::span<const std::byte> bytes, std::string_view source = "<memory>");

// Serialises an array exactly as numpy.save would (same header text and
// padding, so the bytes are identical). Throws std::invalid_argument when the
// data size disagrees with shape and dtype, or a dimension is negative.
std::vector<std::byte> npy_to_bytes(const NpyArray& array);

// Reads a .npy file; errors name the file.
NpyArray read_npy(const std::filesystem::path& path);

// Writes a .npy file atomically: to a temporary file in the same directory,
// then renamed over `path`, so a reader never sees a half-written file.
void write_npy(const std::filesystem::path& path, const NpyArray& array);

}  // namespace oprig
