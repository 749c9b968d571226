// Outputs are filled with a poison pattern before every execute, so an
// element a kernel leaves unwritten is recognisable afterwards. Two patterns
// per element width: two runs with different poison tell an unwritten element
// (it holds each run's poison) from a nondeterministic one (it holds two
// different values of the kernel's own).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace oprig::harness {

// `bytes` of pattern `which` (0 or 1) for elements of `element_size` bytes.
// For floats both are NaNs with distinctive payloads, visible in a dump.
std::vector<std::byte> poison(size_t bytes, size_t element_size, int which);

// How an output differs from what it should hold, element by element.
struct OutputDifference {
  size_t elements = 0;         // of the output
  size_t unwritten = 0;        // still holding the poison written before execute
  size_t other = 0;            // holding a value, but not the one expected
  size_t first_unwritten = 0;  // element indices, valid when the count is > 0
  size_t first_other = 0;
  bool any() const { return unwritten + other > 0; }
};

// `got` after an execute on outputs poisoned with pattern `which`, against
// `wanted` (another run's result, or a single instance's).
OutputDifference output_difference(std::span<const std::byte> got, int which, std::span<const std::byte> wanted,
                                   size_t element_size);

// Two runs of one instance on the same inputs, poisoned with pattern 0 then 1:
// elements holding their run's poison both times are unwritten, the rest that
// differ are nondeterministic.
OutputDifference run_to_run_difference(std::span<const std::byte> run0, std::span<const std::byte> run1,
                                       size_t element_size);

// "3 of 7 element(s) left unwritten (still oprig's poison after execute), first
// at index 4; 1 nondeterministic (...), first at index 0", with `other_what`
// naming what the other elements are ("nondeterministic (differ between two
// runs on the same inputs)", "differ from a single instance's").
std::string difference_text(const OutputDifference& d, const std::string& other_what);

}  // namespace oprig::harness
