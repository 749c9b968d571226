// Element types of the runtime (oprig_dtype of the C ABI) and their names.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "oprig/oprig_package.h"

namespace oprig {

// Bytes per element; 0 for INVALID and STRING.
size_t dtype_size(oprig_dtype dtype);
// Canonical name as the spec writes it without prefix: "FLOAT_32", "UINT_8", ...
std::string_view dtype_name(oprig_dtype dtype);
// Short name used in case ids and file names: "f32", "f16", "u8", "i32", "bool8", ...
std::string_view dtype_short_name(oprig_dtype dtype);
std::optional<oprig_dtype> dtype_from_name(std::string_view canonical_or_short);
bool dtype_is_float(oprig_dtype dtype);
bool dtype_is_signed_integer(oprig_dtype dtype);
bool dtype_is_unsigned_integer(oprig_dtype dtype);

}  // namespace oprig
