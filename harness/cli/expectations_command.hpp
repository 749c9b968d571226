#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

// `oprig expectations update RUN -o FILE`: the expectations file from a run.
void add_expectations_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
