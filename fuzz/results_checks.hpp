// What both results targets check on what the reader accepted: the results
// go to JSON and back unchanged, and every report renders from them, the
// JUnit XML well formed (as `oprig report` and a finished run write them).
#pragma once

#include "reports/results.hpp"

namespace oprig::fuzz {

void check_results(const reports::RunResults& results);

}  // namespace oprig::fuzz
