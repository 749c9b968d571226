#include "core/dtype.hpp"

#include <array>

namespace oprig {
namespace {

struct DTypeRow {
  oprig_dtype dtype;
  size_t size;
  std::string_view name;
  std::string_view short_name;
};

constexpr std::array<DTypeRow, 13> kRows = {{
    {OPRIG_DTYPE_FLOAT_16, 2, "FLOAT_16", "f16"},
    {OPRIG_DTYPE_FLOAT_32, 4, "FLOAT_32", "f32"},
    {OPRIG_DTYPE_FLOAT_64, 8, "FLOAT_64", "f64"},
    {OPRIG_DTYPE_INT_8, 1, "INT_8", "i8"},
    {OPRIG_DTYPE_INT_16, 2, "INT_16", "i16"},
    {OPRIG_DTYPE_INT_32, 4, "INT_32", "i32"},
    {OPRIG_DTYPE_INT_64, 8, "INT_64", "i64"},
    {OPRIG_DTYPE_UINT_8, 1, "UINT_8", "u8"},
    {OPRIG_DTYPE_UINT_16, 2, "UINT_16", "u16"},
    {OPRIG_DTYPE_UINT_32, 4, "UINT_32", "u32"},
    {OPRIG_DTYPE_UINT_64, 8, "UINT_64", "u64"},
    {OPRIG_DTYPE_BOOL_8, 1, "BOOL_8", "bool8"},
    {OPRIG_DTYPE_STRING, 0, "STRING", "string"},
}};

const DTypeRow* find(oprig_dtype dtype) {
  for (const DTypeRow& row : kRows)
    if (row.dtype == dtype) return &row;
  return nullptr;
}

}  // namespace

size_t dtype_size(oprig_dtype dtype) {
  const DTypeRow* row = find(dtype);
  return row ? row->size : 0;
}

std::string_view dtype_name(oprig_dtype dtype) {
  const DTypeRow* row = find(dtype);
  return row ? row->name : "INVALID";
}

std::string_view dtype_short_name(oprig_dtype dtype) {
  const DTypeRow* row = find(dtype);
  return row ? row->short_name : "invalid";
}

std::optional<oprig_dtype> dtype_from_name(std::string_view name) {
  for (const DTypeRow& row : kRows)
    if (row.name == name || row.short_name == name) return row.dtype;
  return std::nullopt;
}

bool dtype_is_float(oprig_dtype dtype) {
  return dtype == OPRIG_DTYPE_FLOAT_16 || dtype == OPRIG_DTYPE_FLOAT_32 ||
         dtype == OPRIG_DTYPE_FLOAT_64;
}

bool dtype_is_signed_integer(oprig_dtype dtype) {
  return dtype == OPRIG_DTYPE_INT_8 || dtype == OPRIG_DTYPE_INT_16 ||
         dtype == OPRIG_DTYPE_INT_32 || dtype == OPRIG_DTYPE_INT_64;
}

bool dtype_is_unsigned_integer(oprig_dtype dtype) {
  return dtype == OPRIG_DTYPE_UINT_8 || dtype == OPRIG_DTYPE_UINT_16 ||
         dtype == OPRIG_DTYPE_UINT_32 || dtype == OPRIG_DTYPE_UINT_64 ||
         dtype == OPRIG_DTYPE_BOOL_8;
}

}  // namespace oprig
