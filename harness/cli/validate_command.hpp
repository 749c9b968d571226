// oprig validate: the whole vendor flow in one command.
#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

void add_validate_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
