// `--keep-outputs [failed|all]`: which cases keep what the kernel computed,
// where, and up to how many bytes in all (runner/kept_outputs.hpp writes them).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace oprig::harness {

enum class KeepMode { kNone, kFailed, kAll };

struct KeepPolicy {
  KeepMode mode = KeepMode::kNone;
  std::filesystem::path dir;  // OUT/kept: one folder per kept case, named by its id
  uint64_t cap_bytes = 0;     // the whole run's kept files, every worker together
};

inline const char* keep_mode_name(KeepMode m) {
  return m == KeepMode::kAll ? "all" : m == KeepMode::kFailed ? "failed" : "none";
}

}  // namespace oprig::harness
