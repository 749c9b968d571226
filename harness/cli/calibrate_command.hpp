// `oprig calibrate`: this machine's peaks per backend, written to a
// calibration file that bench reads for its roofline.
#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

// Exit codes: 0 written; 2 bad input (unknown backend, the calibration
// package missing, the output exists without --force, unwritable output).
void add_calibrate_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
