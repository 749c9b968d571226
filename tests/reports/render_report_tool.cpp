// A stand-in for the oprig executable with only the `report` command, so the
// browser check can render a page without the whole harness being built.
#include <CLI/CLI.hpp>

#include "report_command.hpp"

int main(int argc, char** argv) {
  CLI::App app("oprig report renderer (test tool)");
  app.require_subcommand(1);
  int exit_code = 0;
  oprig::cli::add_report_command(app, &exit_code);
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
