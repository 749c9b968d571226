// `oprig compare BASE NEW`: the nightly regression gate over two Google
// Benchmark JSON files (or `oprig bench` output folders).
#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

// Exit codes: 0 no benchmark regressed, 1 at least one regressed, 2 bad input
// (unreadable or malformed file, options out of range, no benchmark in common,
// or none with enough repetitions).
void add_compare_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
