// Outputs whose order along an axis the op leaves open (a top-k asked for
// sorted=false may return its winners in any order): each slice along the
// axis is compared as a multiset of tuples, one element of every output of
// the group, by putting both the kernel's and the expected slices into one
// canonical order before the element-wise comparison. Tuples sort by their
// elements in the group's order (indices first, where the group lists them
// first), under a total order of doubles (-0 before +0, NaN last), so a
// kernel that returns the right tuples in another order compares equal, and
// one that returns other tuples (a wrong index with the right value) does not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace oprig::compare {

// The permutation that sorts each slice along `axis` (negative counts from
// the end) of tensors of one `shape`: element i of the canonical order is
// element perm[i] of the original. `keys` are the group's tensors in sort
// priority, each with one value per element. Throws std::invalid_argument
// for an axis outside the shape or a key of another size.
std::vector<uint64_t> canonical_order(const std::vector<std::span<const double>>& keys,
                                      std::span<const int64_t> shape, int64_t axis);

// values[i] = old values[perm[i]] for elements of `element_size` bytes.
std::vector<std::byte> permuted_bytes(std::span<const std::byte> bytes, size_t element_size,
                                      const std::vector<uint64_t>& perm);
std::vector<double> permuted_values(std::span<const double> values, const std::vector<uint64_t>& perm);

}  // namespace oprig::compare
