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
  kNondeterministic,  // element 0 differs by one ulp from one execute to the next
  kFlaky,        // lazy (as kLazy) in one worker process out of three: the processes that
                 // execute it count themselves in the file $OPRIG_TEST_FLAKY_COUNTER, and
                 // the 1st, 4th, 7th... misbehave (without the variable, every one does)
};

inline constexpr size_t kFaultyElementCount = 7;

// Bugs that one instance on one shape never shows (on every tensor size;
// tests/harness/planted_bugs_test.cpp proves oprig catches each).
enum class Bug {
  kNone,
  kSharedScratch,      // every instance computes into one static scratch buffer, then copies it out
  kIgnoresReprepare,   // a second prepare() infers the new output shapes but the kernel keeps the first element count
  kLeak,               // every execute allocates a buffer and never frees it
  kRefusesFloat16,     // prepare() answers UNSUPPORTED for FLOAT_16, which the spec declares for the backend
  kFlipsZeroSign,      // adds +0.0 to every result, so atan(-0) comes out +0
};

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
#ifndef OPRIG_TEST_BUG
#define OPRIG_TEST_BUG oprig_test::Bug::kNone
#endif
// The backends the package claims: OPRIG_BACKEND_BIT(...) of cpu (the
// default), opencl (atan_opencl.cpp) and vulkan (atan_vulkan.cpp, FLOAT_32
// only). OPRIG_TEST_GPU_FAULT: the fault of the opencl and vulkan kernels on
// kFaultyElementCount elements (kNone or kOutOfBounds: one element past the
// end, inside a descriptor range that is exactly the tensor on vulkan).
#ifndef OPRIG_TEST_BACKEND_MASK
#define OPRIG_TEST_BACKEND_MASK OPRIG_BACKEND_BIT(OPRIG_BACKEND_CPU)
#endif
#ifndef OPRIG_TEST_GPU_FAULT
#define OPRIG_TEST_GPU_FAULT oprig_test::Fault::kNone
#endif
// OPRIG_TEST_TYPED_PARAMS=1: the op also has `repeats` (INT_32) and `exact`
// (BOOL_8) parameters, and create() answers INVALID_ARGUMENT unless each
// arrives in its spec type (tests/data/planted/typed_params/atan.xml).
#ifndef OPRIG_TEST_TYPED_PARAMS
#define OPRIG_TEST_TYPED_PARAMS 0
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
