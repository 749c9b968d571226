// oprig package new: a buildable op package skeleton from a spec.
#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

void add_package_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
