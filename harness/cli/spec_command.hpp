// `oprig spec lint|show|convert`: the spec layer on its own, no backends.
#pragma once

namespace CLI {
class App;
}

namespace oprig::cli {

// Adds the `spec` command to `root`. When a subcommand runs it stores its exit
// code (kExitOk; kExitFailure for `lint --strict` with warnings; kExitBadInput
// from oprig/verdict.hpp) in *exit_code.
void add_spec_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
