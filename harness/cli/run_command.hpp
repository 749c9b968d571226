#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

// `oprig run` and the hidden `oprig __worker` it starts.
void add_run_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
