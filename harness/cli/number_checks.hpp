// CLI11 checks for numbers that CLI11's own (PositiveNumber, Range) let
// through: NaN passes both, and their messages print the limits of double
// (a 309-digit range). Each says in words what it wants.
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <string>

namespace oprig::cli {

// A finite number greater than 0 and at most `most`, e.g. a timeout in seconds.
inline CLI::Validator positive_at_most(double most, const std::string& unit) {
  return CLI::Validator(
      [most, unit](std::string& text) -> std::string {
        double value = 0;
        size_t used = 0;
        try {
          value = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != text.size() || text.empty() || !std::isfinite(value) || value <= 0 || value > most) {
          char limit[32];
          std::snprintf(limit, sizeof limit, "%g", most);
          return "'" + text + "' is not a number of " + unit + " greater than 0 and at most " + limit;
        }
        return "";
      },
      "POSITIVE");
}

// Not the empty string (an empty value would silently mean "everything").
inline CLI::Validator non_empty(const std::string& what) {
  return CLI::Validator([what](std::string& text) -> std::string { return text.empty() ? "an empty " + what : ""; },
                        "TEXT");
}

}  // namespace oprig::cli
