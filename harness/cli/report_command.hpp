// `oprig report RESULTS -o report.html`: re-renders the HTML report (and
// optionally junit.xml) from a saved results.json or an in-progress or killed
// run's results.jsonl, and prints the summary table.
#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

// Adds the `report` subcommand to `root`. When it runs it sets *exit_code:
// kExitOk once the files are written, kExitBadInput (with a message on
// stderr) for unreadable or malformed input or an unwritable output path.
void add_report_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
