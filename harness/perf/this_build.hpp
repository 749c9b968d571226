// Facts about this oprig build that perf records carry.
#pragma once

#include <string>

namespace oprig::perf {

// The git revision oprig was configured from ("unknown" outside a checkout).
std::string this_build_git_revision();

// Now, as "2026-11-23T07:49:48Z".
std::string utc_now();

}  // namespace oprig::perf
