// Build-time knobs of the test packages. Each package library is the same two
// sources (registration.cpp, atan_kernel.cpp) compiled with a different set of
// these definitions (see CMakeLists.txt); the defaults make a correct package.
#pragma once

#include <cstddef>

#include "oprig/oprig_package.h"

namespace oprig_test {

// What the kernel does when a tensor has kFaultyElementCount elements.
enum class Fault {
  kNone,
  kSegfault,     // writes through a null pointer (SIGSEGV)
  kAbort,        // calls abort() (SIGABRT)
  kSpin,         // never returns
  kOutOfBounds,  // writes one element past the end of the output
  kLazy,         // leaves the last output element unwritten
};

inline constexpr size_t kFaultyElementCount = 7;

// How the kernel cheats the clock once it passed the correctness run (on
// every tensor size; `oprig bench` must catch each, see tests/perf/bench_cheats_test.cpp).
enum class Cheat {
  kNone,
  kCacheOutput,       // computes on its first execute, then copies that result whatever the inputs
  kDetectWarmup,      // correct for its first kHonestExecutes executes, then does no work at all
  kSkipWhenWritten,   // computes only when its output holds NaN (the harness's poison), else returns at once:
                      // impossible throughput in the timed loop, correct in every check that poisons
};

inline constexpr unsigned kHonestExecutes = 8;

}  // namespace oprig_test

#ifndef OPRIG_TEST_FAULT
#define OPRIG_TEST_FAULT oprig_test::Fault::kNone
#endif
#ifndef OPRIG_TEST_CHEAT
#define OPRIG_TEST_CHEAT oprig_test::Cheat::kNone
#endif
// OPRIG_TEST_BUSY=1: each execute also spins for $OPRIG_TEST_BUSY_US
// microseconds (steady clock) times 1 + $OPRIG_TEST_SLOWDOWN_PERCENT / 100:
// a kernel of known cost, and a planted slowdown, for scripts/perf/prove_perf_gate.sh.
#ifndef OPRIG_TEST_BUSY
#define OPRIG_TEST_BUSY 0
#endif
#ifndef OPRIG_TEST_PACKAGE_NAME
#define OPRIG_TEST_PACKAGE_NAME "org.oprig.test.good"
#endif
// The abi_version the registration claims (not what the query accepts).
#ifndef OPRIG_TEST_ABI_VERSION
#define OPRIG_TEST_ABI_VERSION OPRIG_ABI_VERSION
#endif
#ifndef OPRIG_TEST_NUM_INPUTS
#define OPRIG_TEST_NUM_INPUTS 1
#endif
#ifndef OPRIG_TEST_PARAM_NAME
#define OPRIG_TEST_PARAM_NAME "offset"
#endif
// File name of the cpu implementation library, resolved next to the
// registration library; nullptr: the registration library itself.
#ifndef OPRIG_TEST_IMPLEMENTATION_LIBRARY
#define OPRIG_TEST_IMPLEMENTATION_LIBRARY nullptr
#endif
// Also available: OPRIG_TEST_OMIT_PACKAGE_QUERY (no registration entry point),
// OPRIG_TEST_QUERY_RETURNS_NULL (the entry point answers NULL), and, for
// packages that take down whoever loads them, OPRIG_TEST_CRASH_IN_CONSTRUCTOR
// (a static initialiser writes through a null pointer at dlopen) and
// OPRIG_TEST_CRASH_IN_QUERY (the entry point does).
