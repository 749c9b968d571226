#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

// `oprig golden generate|verify`.
void add_golden_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
