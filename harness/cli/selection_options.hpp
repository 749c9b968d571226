// The selection flags shared by run and bench: which ops, packages, backends.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "runner/suite.hpp"

namespace oprig::cli {

struct SelectionFlags {
  std::string suite, spec, op, backends = "all", case_id;
  std::vector<std::string> packages;
  std::vector<std::string> golden;
  bool golden_only = false;
  std::string reference_backend;
  bool strict = false;
  bool bundled_reference = false;
};

void add_selection_flags(CLI::App& command, SelectionFlags& flags);
// --strict, for the commands that judge cases (run and its workers).
void add_strict_flag(CLI::App& command, SelectionFlags& flags);
// --bundled-reference, for the commands that judge cases.
void add_bundled_reference_flag(CLI::App& command, bool& flag);
// Throws harness::InputError for an unknown backend or conflicting flags.
harness::Selection to_selection(const SelectionFlags& flags);

}  // namespace oprig::cli
