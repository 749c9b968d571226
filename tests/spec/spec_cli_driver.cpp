// Runs only the `spec` command, as `oprig spec ...` would.
#include <CLI/CLI.hpp>

#include "cli/spec_command.hpp"
#include "oprig/verdict.hpp"

int main(int argc, char** argv) {
  CLI::App app("oprig spec test driver");
  app.require_subcommand(1);
  int exit_code = oprig::kExitOk;
  oprig::cli::add_spec_command(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? oprig::kExitOk : oprig::kExitBadInput;
  }
  return exit_code;
}
