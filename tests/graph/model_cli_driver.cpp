// A private driver for `oprig model` until the lead's `oprig` executable
// registers it (harness/cli/main.cpp).
#include <CLI/CLI.hpp>

#include "cli/model_command.hpp"
#include "oprig/verdict.hpp"

int main(int argc, char** argv) {
  CLI::App app{"model command test driver"};
  app.require_subcommand(1);
  int exit_code = oprig::kExitOk;
  oprig::cli::add_model_command(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? oprig::kExitOk : oprig::kExitBadInput;
  }
  return exit_code;
}
