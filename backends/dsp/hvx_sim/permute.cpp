// Table lookup (vlut32-style) and byte rotate: the PERMUTE unit; semantics
// in core.hpp.
#include <stdexcept>

#include "hvx_sim/core.hpp"

namespace oprig::hvx {
namespace {

constexpr uint32_t kSegmentEntries = 32;

Vec lookup(const Vec& index, const Vec& table, uint32_t segment) {
  if (segment > 7) throw std::invalid_argument("lut32: segment out of range");
  Vec r;
  const size_t base = kSegmentEntries * (segment % 4);
  for (size_t i = 0; i < kVectorBytes; ++i) {
    const uint8_t idx = index.bytes[i];
    r.bytes[i] = (idx / kSegmentEntries) == segment ? table.bytes[base + idx % kSegmentEntries] : 0;
  }
  return r;
}

}  // namespace

Vec Core::lut32(const Vec& index, const Vec& table, uint32_t segment) {
  Vec r = lookup(index, table, segment);
  r.stamp = issue(Resource::kPermute, 1, {index.stamp, table.stamp});
  return r;
}

Vec Core::lut32_or(const Vec& acc, const Vec& index, const Vec& table, uint32_t segment) {
  Vec r = lookup(index, table, segment);
  for (size_t i = 0; i < kVectorBytes; ++i) r.bytes[i] |= acc.bytes[i];
  r.stamp = issue(Resource::kPermute, 1, {acc.stamp, index.stamp, table.stamp});
  return r;
}

Vec Core::vror(const Vec& v, size_t bytes) {
  Vec r;
  for (size_t i = 0; i < kVectorBytes; ++i) r.bytes[i] = v.bytes[(i + bytes) % kVectorBytes];
  r.stamp = issue(Resource::kPermute, 1, {v.stamp});
  return r;
}

}  // namespace oprig::hvx
