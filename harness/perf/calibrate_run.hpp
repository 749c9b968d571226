// `oprig calibrate`: measures this machine's peaks per backend with the
// org.oprig.calibration package (opsuite/calibration) through
// Backend::execute, the path bench times (see perf/calibration.hpp for what
// each figure means).
//
// Timing: per figure, one execute to create and fault in everything, one
// discarded repetition (warm-up), then `repetitions` repetitions. A
// repetition is k executes, k chosen from the warm-up so that it lasts at
// least batch_seconds of host time; its value is the work of the k executes
// over the sum of the times they reported (device time where the backend has
// a device clock, host wall time on cpu).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "perf/calibration.hpp"

namespace oprig::perf {

struct CalibrateOptions {
  std::vector<std::string> backends;   // names; empty: every backend compiled in
  int repetitions = 9;
  double batch_seconds = 0.02;
  bool quick = false;                  // working sets up to 16 MiB, for tests
  uint64_t max_working_set = 0;        // 0: clamp(4 x L3, 256 MiB, 1 GiB)
  std::filesystem::path package;       // liboprig_calibration.so
  std::function<void(const std::string&)> progress;  // one line per figure; may be empty
};

// The working sets measured: 64 KiB, then x4 while below the largest, then
// the largest.
std::vector<uint64_t> bandwidth_ladder(uint64_t largest);

// Throws PerfInputError when the package cannot be loaded or a backend name is unknown.
Calibration run_calibration(const CalibrateOptions& options);

// Where the built calibration package is (compiled in), for the default of --package.
std::filesystem::path built_calibration_package();

}  // namespace oprig::perf
