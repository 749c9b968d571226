#pragma once

#include <string>

namespace oprig::cli {

// The command line oprig was started with, for report headers.
const std::string& invoked_command_line();

}  // namespace oprig::cli
