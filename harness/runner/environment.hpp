#pragma once

#include <string>
#include <vector>

#include "reports/results.hpp"

namespace oprig::harness {

// Machine, build and backend facts for the report header. Probes each listed
// backend (creating it), so call it in the parent, never per case.
reports::Environment collect_environment(const std::vector<std::string>& backends,
                                         const std::string& command_line);
std::string utc_now_iso8601();

}  // namespace oprig::harness
