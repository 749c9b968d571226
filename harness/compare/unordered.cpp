#include "compare/unordered.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace oprig::compare {
namespace {

// A total order of doubles: -inf < ... < -0 < +0 < ... < +inf < NaN.
int total_compare(double a, double b) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  if (a < b) return -1;
  if (a > b) return 1;
  if (a == 0 && b == 0 && std::signbit(a) != std::signbit(b)) return std::signbit(a) ? -1 : 1;
  return 0;
}

}  // namespace

std::vector<uint64_t> canonical_order(const std::vector<std::span<const double>>& keys,
                                      std::span<const int64_t> shape, int64_t axis) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (axis < -rank || axis >= rank || rank == 0)
    throw std::invalid_argument("order-insensitive axis " + std::to_string(axis) + " is outside rank " +
                                std::to_string(rank));
  if (axis < 0) axis += rank;
  uint64_t count = 1;
  for (int64_t d : shape) count *= static_cast<uint64_t>(d);
  for (const auto& k : keys)
    if (k.size() != count) throw std::invalid_argument("order-insensitive outputs differ in element count");
  uint64_t inner = 1;
  for (int64_t d = axis + 1; d < rank; ++d) inner *= static_cast<uint64_t>(shape[static_cast<size_t>(d)]);
  const uint64_t length = static_cast<uint64_t>(shape[static_cast<size_t>(axis)]);
  const uint64_t outer = length == 0 || inner == 0 ? 0 : count / (length * inner);
  std::vector<uint64_t> perm(count);
  std::iota(perm.begin(), perm.end(), uint64_t{0});
  std::vector<uint64_t> slice(length);
  for (uint64_t o = 0; o < outer; ++o)
    for (uint64_t i = 0; i < inner; ++i) {
      const uint64_t base = o * length * inner + i;
      for (uint64_t j = 0; j < length; ++j) slice[j] = base + j * inner;
      std::vector<uint64_t> sorted = slice;
      std::stable_sort(sorted.begin(), sorted.end(), [&](uint64_t a, uint64_t b) {
        for (const auto& k : keys)
          if (const int c = total_compare(k[a], k[b]); c != 0) return c < 0;
        return false;
      });
      for (uint64_t j = 0; j < length; ++j) perm[slice[j]] = sorted[j];
    }
  return perm;
}

std::vector<std::byte> permuted_bytes(std::span<const std::byte> bytes, size_t element_size,
                                      const std::vector<uint64_t>& perm) {
  std::vector<std::byte> out(bytes.size());
  for (size_t i = 0; i < perm.size(); ++i)
    std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(perm[i] * element_size), element_size,
                out.begin() + static_cast<std::ptrdiff_t>(i * element_size));
  return out;
}

std::vector<double> permuted_values(std::span<const double> values, const std::vector<uint64_t>& perm) {
  std::vector<double> out(values.size());
  for (size_t i = 0; i < perm.size(); ++i) out[i] = values[perm[i]];
  return out;
}

}  // namespace oprig::compare
