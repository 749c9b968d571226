#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

// `oprig merge OUT... -o MERGED [--devices]`: shards of a run, or runs of one
// selection on several devices, into one results.json, junit.xml, report.html.
void add_merge_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
