#include "runner/output_poison.hpp"

#include <cstdint>
#include <cstring>

namespace oprig::harness {
namespace {

uint64_t pattern_of(size_t element_size, int which) {
  switch (element_size) {
    case 2: return which ? 0x7E5Au : 0xFDA5u;
    case 4: return which ? 0x7FBF3C5Au : 0xFFC5A5A5u;
    case 8: return which ? 0x7FF7BF3C5A3C5A5Aull : 0xFFF5A5A5A5A5A5A5ull;
    default: return which ? 0x5Au : 0xA5u;
  }
}

bool is_poison(const std::byte* element, size_t element_size, int which) {
  const uint64_t pattern = pattern_of(element_size, which);
  for (size_t i = 0; i < element_size; ++i)
    if (element[i] != static_cast<std::byte>((pattern >> (8 * (i % 8))) & 0xFF)) return false;
  return true;
}

void note(size_t& count, size_t& first, size_t index) {
  if (count++ == 0) first = index;
}

}  // namespace

std::vector<std::byte> poison(size_t bytes, size_t element_size, int which) {
  const uint64_t pattern = pattern_of(element_size, which);
  std::vector<std::byte> out(bytes);
  for (size_t i = 0; i < bytes; ++i)
    out[i] = static_cast<std::byte>((pattern >> (8 * (i % element_size % 8))) & 0xFF);
  return out;
}

OutputDifference output_difference(std::span<const std::byte> got, int which, std::span<const std::byte> wanted,
                                   size_t element_size) {
  OutputDifference d;
  if (element_size == 0) return d;
  d.elements = std::min(got.size(), wanted.size()) / element_size;
  for (size_t e = 0; e < d.elements; ++e) {
    const std::byte* g = got.data() + e * element_size;
    if (std::memcmp(g, wanted.data() + e * element_size, element_size) == 0) continue;
    if (is_poison(g, element_size, which)) note(d.unwritten, d.first_unwritten, e);
    else note(d.other, d.first_other, e);
  }
  return d;
}

OutputDifference run_to_run_difference(std::span<const std::byte> run0, std::span<const std::byte> run1,
                                       size_t element_size) {
  OutputDifference d;
  if (element_size == 0) return d;
  d.elements = std::min(run0.size(), run1.size()) / element_size;
  for (size_t e = 0; e < d.elements; ++e) {
    const std::byte* a = run0.data() + e * element_size;
    const std::byte* b = run1.data() + e * element_size;
    if (std::memcmp(a, b, element_size) == 0) continue;
    if (is_poison(a, element_size, 0) && is_poison(b, element_size, 1)) note(d.unwritten, d.first_unwritten, e);
    else note(d.other, d.first_other, e);
  }
  return d;
}

std::string difference_text(const OutputDifference& d, const std::string& other_what) {
  std::string text;
  const std::string of = " of " + std::to_string(d.elements) + " element(s) ";
  if (d.unwritten > 0)
    text = std::to_string(d.unwritten) + of + "left unwritten (still oprig's poison after execute), first at index " +
           std::to_string(d.first_unwritten);
  if (d.other > 0)
    text += (text.empty() ? "" : "; ") + std::to_string(d.other) + of + other_what + ", first at index " +
            std::to_string(d.first_other);
  return text;
}

}  // namespace oprig::harness
