#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

// `oprig backends`: every compiled-in backend, available or not, with its device.
void add_backends_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
