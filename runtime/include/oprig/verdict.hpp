// The one result vocabulary of oprig. Every case ends with exactly one verdict;
// exit codes and report colours are derived from here and nowhere else.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace oprig {

enum class Verdict {
  kPassed,          // within the plan's tolerance on every element, all safety checks clean
  kFailed,          // outside tolerance, or a safety check tripped (red zone, poison, input changed, nondeterminism)
  kQualityWarning,  // outside the strict tolerance but inside the plan's relaxed tier
  kMistrusted,      // the comparison proves nothing: the reference output is degenerate (mostly zeros)
  kSkipped,         // the backend or the dtype is not available on this machine
  kUnimplemented,   // the spec allows the case but the package has no kernel for it
  kCrash,           // the worker process died (signal or abnormal exit) while running the case
  kTimeout,         // the case ran past its time limit and its worker was killed
  kInvalidSpec,     // the spec or the package is malformed or disagrees with itself
};

inline constexpr std::array<Verdict, 9> kAllVerdicts = {
    Verdict::kPassed,      Verdict::kFailed,  Verdict::kQualityWarning,
    Verdict::kMistrusted,  Verdict::kSkipped, Verdict::kUnimplemented,
    Verdict::kCrash,       Verdict::kTimeout, Verdict::kInvalidSpec};

constexpr std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kPassed: return "PASSED";
    case Verdict::kFailed: return "FAILED";
    case Verdict::kQualityWarning: return "QUALITY_WARNING";
    case Verdict::kMistrusted: return "MISTRUSTED";
    case Verdict::kSkipped: return "SKIPPED";
    case Verdict::kUnimplemented: return "UNIMPLEMENTED";
    case Verdict::kCrash: return "CRASH";
    case Verdict::kTimeout: return "TIMEOUT";
    case Verdict::kInvalidSpec: return "INVALID_SPEC";
  }
  return "?";
}

constexpr std::string_view verdict_meaning(Verdict v) {
  switch (v) {
    case Verdict::kPassed: return "within tolerance on every element; all safety checks clean";
    case Verdict::kFailed: return "outside tolerance, or a red zone, poison, input or determinism check tripped";
    case Verdict::kQualityWarning: return "outside the strict tolerance, inside the plan's relaxed tier";
    case Verdict::kMistrusted: return "degenerate data (mostly zero reference output): the comparison proves nothing";
    case Verdict::kSkipped: return "backend or data type not available on this machine";
    case Verdict::kUnimplemented: return "allowed by the spec, but the package has no kernel for it";
    case Verdict::kCrash: return "the worker process died while running the case";
    case Verdict::kTimeout: return "the case ran past its time limit and was killed";
    case Verdict::kInvalidSpec: return "the spec or package is malformed or inconsistent";
  }
  return "?";
}

inline std::optional<Verdict> verdict_from_name(std::string_view name) {
  for (Verdict v : kAllVerdicts)
    if (verdict_name(v) == name) return v;
  return std::nullopt;
}

// A verdict that makes a run fail (exit code 1). SKIPPED and UNIMPLEMENTED say
// what could not be tested here; QUALITY_WARNING and MISTRUSTED are reported
// but do not fail a run.
constexpr bool verdict_is_failure(Verdict v) {
  return v == Verdict::kFailed || v == Verdict::kCrash ||
         v == Verdict::kTimeout || v == Verdict::kInvalidSpec;
}

// Exit codes of every oprig command.
inline constexpr int kExitOk = 0;        // everything that ran passed
inline constexpr int kExitFailure = 1;   // at least one failing verdict (or a regression, for compare)
inline constexpr int kExitBadInput = 2;  // bad input or usage: nothing was run
// Nothing was tested: every case SKIPPED or UNIMPLEMENTED (or there was no
// case), or a backend named with --backend is unavailable here. A green that
// tested nothing must not look like a pass.
inline constexpr int kExitNothingTested = 3;
// Results could not be written (disk full, read-only folder): the run stopped
// at the first failed write; what was written before it is kept.
inline constexpr int kExitCannotWrite = 4;
// Stopped by a signal (SIGINT 130, SIGTERM 143): 128 + the signal, as shells
// report it; finished cases are kept and --resume continues.
inline constexpr int kExitSignalBase = 128;

}  // namespace oprig
