// The base side of an A/B bench (`oprig bench --base-package`). A stored
// baseline measures the machine of another hour: on a shared 2-vCPU guest the
// run medians of one unchanged build moved 1.5-2.5x within an hour, more than
// any repetition count can average away. Timing the baseline build's kernels
// in the same process as this build's, their repetitions interleaved, puts
// both under the same spells; what differs between them is the kernels.
// libbenchmark writes both sides into one file under the same names (so one
// --filter selects both); the base side's entries carry kBaseSideLabel, and
// split_base_side() moves them to their own file.
#pragma once

#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace oprig::harness {

inline constexpr const char* kBaseSideLabel = "oprig-base";

// Moves the entries labelled kBaseSideLabel from `combined` (libbenchmark's
// JSON, rewritten in place without them) to `base_file`, dropping those of
// the benchmarks in `untrusted_base_ids` (case ids whose base kernel failed
// the checks after its timed loop: their timings are no baseline). Each
// file's context gets "oprig_bench_side" ("new" or "base") and the packages
// of its side. Every other entry lands in exactly one of the two files.
// Throws std::runtime_error when `combined` cannot be read.
void split_base_side(const std::filesystem::path& combined, const std::filesystem::path& base_file,
                     const std::set<std::string>& untrusted_base_ids, const nlohmann::json& new_packages,
                     const nlohmann::json& base_packages);

}  // namespace oprig::harness
