// Bad input to the perf commands (an unreadable or malformed file, options out
// of range). The message names the file and what is wrong; the commands turn
// it into exit code 2.
#pragma once

#include <stdexcept>

namespace oprig::perf {

class PerfInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace oprig::perf
