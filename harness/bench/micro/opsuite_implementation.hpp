// The bundled opsuite's implementation part for one backend, loaded by the
// package loader exactly as the harness loads it: the registration library
// from the build, or from $OPRIG_PACKAGE (an installed layout, another
// machine), and its implementation libraries beside it.
#pragma once

#include <string>

#include "oprig/oprig_package.h"

namespace oprig::bench {

// The package is loaded once and kept for the process; nullptr with *why set
// when it or the backend's implementation cannot be loaded.
const oprig_implementation_v1* opsuite_implementation(oprig_backend_kind kind, std::string* why);

}  // namespace oprig::bench
