#pragma once

#include <CLI/CLI.hpp>

namespace oprig::cli {

// `oprig bench`: Google Benchmark over the plans' bench shapes.
void add_bench_command(CLI::App& root, int* exit_code);

}  // namespace oprig::cli
