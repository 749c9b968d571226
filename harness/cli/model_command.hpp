#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

// `oprig model run MODEL.json --backend B [--inputs DIR] [--loop-timeout MS]
//  [--out DIR] [--package SO]... [--compare-to cpu]`: runs a whole model
// (runtime/graph/README.md) and prints or writes its outputs; with
// --compare-to, names the first operation whose output diverges from the
// reference backend. Exit codes: 0 ok, 1 MISSED_DEADLINE / execution error /
// divergence, 2 bad input (model, package, inputs, backend): nothing run.
void add_model_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
