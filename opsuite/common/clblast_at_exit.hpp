// For the benchmarks with CLBlast as their OpenCL peer (matmul/, conv2d/
// bench.cpp): CLBlast keeps its compiled programs in caches that are static
// objects of libclblast, constructed when the binary starts, so at exit they
// are destroyed after the OpenCL driver loaded later has torn itself down
// (exit handlers run in reverse order of registration; see
// runtime/backend/kept_until_exit.hpp) and release programs into a dead
// driver. Called after CLBlast's first use, this registers an exit handler
// that empties the caches; registered after the driver's own, it runs
// before them.
#pragma once

#include <clblast_c.h>

#include <cstdlib>

namespace oprig::opsuite {

inline void clear_clblast_cache_at_exit() {
  static const bool registered = std::atexit([] { CLBlastClearCache(); }) == 0;
  (void)registered;
}

}  // namespace oprig::opsuite
