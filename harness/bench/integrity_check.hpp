// After a benchmark's timed loop: is the kernel still computing? A kernel
// can pass the correctness run and then cheat the clock (public kernel
// leaderboards were beaten this way): by doing no work once it has been
// called often enough (it detects the warm-up), or by returning a result it
// cached from earlier inputs. Two executes with poisoned outputs catch both:
//  1. on the inputs it was timed with: wrong means it computes differently
//     after the warm-up;
//  2. on fresh input contents (a seed it has never seen): wrong means it
//     returned a stale, cached result.
#pragma once

#include <cstdint>
#include <string>

#include "bench/bench_kernel.hpp"

namespace oprig::harness {

struct IntegrityVerdict {
  bool ok = true;
  std::string message;  // "MISTRUSTED timing: ..." naming what the kernel did
};

// `executes_so_far` is only for the message. Overwrites the first input set's
// device contents for check 2.
IntegrityVerdict check_after_timing(BenchKernel& k, uint64_t executes_so_far);

}  // namespace oprig::harness
