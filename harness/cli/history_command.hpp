// `oprig history add|show`: the nightly performance history.
#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

// Exit codes: 0 done; 2 bad input (unreadable or malformed bench output or
// history record, nothing to record, no records, unwritable output).
void add_history_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
