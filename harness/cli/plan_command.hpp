// oprig plan init: the test plan derived from a spec, written for the user to edit.
#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

void add_plan_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
