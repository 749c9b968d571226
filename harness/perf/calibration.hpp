// calibration.json (schema "oprig-calibration/1"): this machine's peaks per
// backend, measured by `oprig calibrate` through Backend::execute with the
// org.oprig.calibration package, so they are peaks of exactly the path that
// bench measures. Bench reads it to give each row GB/s, GFLOP/s and its
// fraction of the roofline, and to mistrust a timing above the roofline.
//
// Per backend:
//  - bandwidth: STREAM copy and triad (STREAM's byte counts: copy 8 B,
//    triad 12 B per element; write-allocate traffic not counted) at a ladder
//    of working sets from cache-resident to well beyond the last-level cache,
//    because a kernel whose data stays in cache may legitimately run faster
//    than DRAM allows;
//  - fma_gflops: independent FMA chains on registers;
//  - launch: one minimal execute (a 64-byte Copy): host wall time of launch
//    plus wait as Backend::execute sees it, and the device time it reports;
//  - dsp: nothing is measured on the host; the peaks come from the
//    simulator's cost model and are marked simulated (never host time).
// Each measured figure keeps every repetition with its median, min and max.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perf/machine.hpp"

namespace oprig::perf {

struct Figure {
  std::vector<double> samples;  // one per repetition
  double median = 0, min = 0, max = 0;
  bool measured() const { return !samples.empty(); }
  double spread() const { return median > 0 ? (max - min) / median : 0; }  // (max - min) / median
  static Figure of(std::vector<double> samples);
};

struct BandwidthPoint {
  uint64_t working_set_bytes = 0;  // bytes the kernel touches per execute (copy: 2 buffers, triad: 3)
  Figure copy_gbps, triad_gbps;
  std::string skipped;  // why this size was not measured on this backend (empty when measured)
  // The larger of the two medians (resp. maxima): the bandwidth ceiling at this size.
  double best_median() const;
  double best_max() const;
};

struct BackendPeaks {
  std::string backend;
  bool available = true;
  std::string unavailable_reason;
  bool simulated = false;         // dsp: from the cost model, not measured
  std::string device, driver;
  std::string timer;              // "device" (profiling events, timestamps) or "host wall"
  std::string method;             // how the figures were obtained, one sentence
  std::vector<BandwidthPoint> bandwidth;  // by increasing working set
  Figure fma_gflops;
  std::string fma_kernel;         // e.g. "AVX-512, 16 chains x 16 lanes x 2 threads"
  Figure launch_host_us;          // minimal execute, host wall (launch + wait)
  Figure launch_device_us;        // its device time as execute reports it
  std::vector<std::string> notes;
};

struct Calibration {
  std::string created_at;
  std::string oprig_version, git_revision;
  MachineInfo machine;
  int repetitions = 0;
  double batch_seconds = 0;  // least time of one repetition
  bool quick = false;
  std::vector<BackendPeaks> backends;
  const BackendPeaks* find(const std::string& backend) const;
};

nlohmann::json calibration_to_json(const Calibration& calibration);
Calibration calibration_from_json(const nlohmann::json& json, const std::string& where);
// Throws PerfInputError naming the file: missing, not JSON, wrong schema, bad field.
Calibration read_calibration_file(const std::filesystem::path& path);
// Refuses to replace an existing file unless `force` (PerfInputError); written atomically.
void write_calibration_file(const std::filesystem::path& path, const Calibration& calibration, bool force);

// Whether a calibration may be used on `machine`: empty when it may, else a
// sentence for the warning or refusal (bench decides which).
std::string calibration_machine_mismatch(const Calibration& calibration, const MachineInfo& machine);

// A terminal table of the peaks.
std::string render_calibration_text(const Calibration& calibration);

}  // namespace oprig::perf
