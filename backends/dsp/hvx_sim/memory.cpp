// Vector loads and stores against the mapped regions (rules in core.hpp).
#include <cstring>
#include <string>

#include "hvx_sim/core.hpp"

namespace oprig::hvx {
namespace {

constexpr uintptr_t kLineMask = ~static_cast<uintptr_t>(kVectorBytes - 1);

std::string hex(uintptr_t address) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), kDigits[address & 15]);
    address >>= 4;
  } while (address != 0);
  return "0x" + s;
}

}  // namespace

void Core::map_readable(const void* base, size_t bytes) {
  const auto b = reinterpret_cast<uintptr_t>(base);
  if (bytes > 0) regions_.push_back(Region{b, b + bytes, false});
}

void Core::map_writable(void* base, size_t bytes) {
  const auto b = reinterpret_cast<uintptr_t>(base);
  if (bytes > 0) regions_.push_back(Region{b, b + bytes, true});
}

bool Core::readable(uintptr_t address) const {
  for (const Region& r : regions_)
    if (address >= r.begin && address < r.end) return true;
  return false;
}

bool Core::writable(uintptr_t address) const {
  for (const Region& r : regions_)
    if (r.writable && address >= r.begin && address < r.end) return true;
  return false;
}

bool Core::line_has_mapped_byte(uintptr_t line) const {
  for (const Region& r : regions_)
    if (r.begin < line + kVectorBytes && r.end > line) return true;
  return false;
}

Vec Core::load(uintptr_t address, bool unaligned) {
  const uintptr_t first_line = address & kLineMask;
  const uintptr_t last_line = (address + kVectorBytes - 1) & kLineMask;
  if (!line_has_mapped_byte(first_line) || !line_has_mapped_byte(last_line))
    throw Fault("vector load at " + hex(address) + " touches a line with no mapped byte");

  Vec v;
  bool whole = false;
  for (const Region& r : regions_)
    if (address >= r.begin && address + kVectorBytes <= r.end) whole = true;
  if (whole) {
    std::memcpy(v.bytes.data(), reinterpret_cast<const void*>(address), kVectorBytes);
  } else {
    for (size_t i = 0; i < kVectorBytes; ++i)
      v.bytes[i] = readable(address + i) ? *reinterpret_cast<const uint8_t*>(address + i) : 0;
  }
  counters_.bytes_loaded += kVectorBytes;
  if (unaligned) ++counters_.unaligned_accesses;
  v.stamp = issue(Resource::kLoad, 1, {}, unaligned);
  return v;
}

void Core::store(uintptr_t address, const Vec& value, const Pred* q, bool unaligned) {
  bool whole = false;
  for (const Region& r : regions_)
    if (r.writable && address >= r.begin && address + kVectorBytes <= r.end) whole = true;
  for (size_t i = 0; i < kVectorBytes && !whole; ++i)
    if ((q == nullptr || q->bits[i]) && !writable(address + i))
      throw Fault("vector store at " + hex(address) + " writes byte " + std::to_string(i) +
                  " outside every writable region");
  for (size_t i = 0; i < kVectorBytes; ++i)
    if (q == nullptr || q->bits[i]) *reinterpret_cast<uint8_t*>(address + i) = value.bytes[i];
  counters_.bytes_stored += kVectorBytes;
  if (unaligned) ++counters_.unaligned_accesses;
  if (q != nullptr)
    issue(Resource::kStore, 1, {value.stamp, q->stamp}, unaligned);
  else
    issue(Resource::kStore, 1, {value.stamp}, unaligned);
}

Vec Core::vmem(const void* address) {
  return load(reinterpret_cast<uintptr_t>(address) & kLineMask, false);
}

Vec Core::vmemu(const void* address) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  return load(a, (a & ~kLineMask) != 0);
}

void Core::vmem_store(void* address, const Vec& value) {
  store(reinterpret_cast<uintptr_t>(address) & kLineMask, value, nullptr, false);
}

void Core::vmemu_store(void* address, const Vec& value) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  store(a, value, nullptr, (a & ~kLineMask) != 0);
}

void Core::vmem_store_if(const Pred& q, void* address, const Vec& value) {
  store(reinterpret_cast<uintptr_t>(address) & kLineMask, value, &q, false);
}

void Core::vmemu_store_if(const Pred& q, void* address, const Vec& value) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  store(a, value, &q, (a & ~kLineMask) != 0);
}

}  // namespace oprig::hvx
