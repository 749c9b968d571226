// The bundled opsuite's implementation part for one backend, loaded through
// the package ABI exactly as the harness loads it. The library is the one the
// build produced (OPRIG_OPSUITE_<BACKEND>_LIB), or, when OPRIG_PACKAGE names a
// registration library elsewhere (an installed layout, another machine), its
// sibling liboprig_opsuite_<backend>.so.
#pragma once

#include <string>

#include "oprig/oprig_package.h"

namespace oprig::bench {

// Loaded once per backend and kept for the process; nullptr with *why set
// when the library or its implementation is missing.
const oprig_implementation_v1* opsuite_implementation(oprig_backend_kind kind, std::string* why);

}  // namespace oprig::bench
