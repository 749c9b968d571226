#include "sample_results.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace oprig::reports::testing {

RunResults make_sample_results() {
  RunResults r;
  r.environment.oprig_version = "0.1.0";
  r.environment.git_revision = "abc1234";
  r.environment.cpu_model = "Test CPU";
  r.environment.os = "Debian 12";
  r.environment.hostname = "testhost";
  r.environment.command_line = "oprig run --backend all";
  r.environment.started_at = "2025-01-01T00:00:00Z";
  r.environment.finished_at = "2025-01-01T00:00:05Z";
  r.environment.cores = 2;
  r.environment.backends = {
      {"cpu", true, "", "Test CPU", "AuthenticAMD", "1.0", "host"},
      {"opencl", false, "no OpenCL platform", "", "", "", ""},
  };

  CaseResult pass;
  pass.id = "atan__f32__1x3x5x7__uniform__p0__cpu";
  pass.golden_id = "f32__1x3x5x7__uniform__p0";
  pass.package = "oprig_opsuite";
  pass.op = "atan";
  pass.backend = "cpu";
  pass.dtype = "f32";
  pass.shape = {1, 3, 5, 7};
  pass.fill = "uniform";
  pass.params = {{"offset", 0.5}};
  pass.seed = 12345678901234567ull;
  pass.variant = "p0";
  pass.oracle = "reference";
  pass.verdict = Verdict::kPassed;
  pass.stats = CompareStats{105, 0, 5.9604644775390625e-08, 1.2e-07, 1, 0.0, "ulp<=3", {}};
  pass.inputs = {TensorRecord{"in", "FLOAT_32", {1, 3, 5, 7}, 0, 0, true, false, std::nullopt}};
  pass.outputs = {TensorRecord{"out", "FLOAT_32", {1, 3, 5, 7}, 0, 0, true, false, pass.stats}};
  pass.wall_ms = 1.25;

  CaseResult perf = pass;
  perf.id = "atan__f32__1x1024x1024__uniform__p0__cpu";
  perf.golden_id = "f32__1x1024x1024__uniform__p0";
  perf.shape = {1, 1024, 1024};
  PerfStats p;
  p.device_timer = false;
  p.compute_ns_median = 1'000'000;  // 1 ms for 1 Mi elements: 1.048576 Gelem/s
  p.compute_ns_min = 950'000;
  p.compute_ns_samples = {950'000, 1'000'000, 1'100'000};
  p.elements = 1 << 20;
  p.bytes = 8u << 20;
  p.gelem_per_s = 1.048576;
  p.gbytes_per_s = 8.388608;
  perf.perf = p;
  perf.wall_ms = 40;

  CaseResult fail = pass;
  fail.id = "atan__f32__1x3x5x7__edge__p0__cpu";
  fail.golden_id = "f32__1x3x5x7__edge__p0";
  fail.fill = "edge";
  fail.verdict = Verdict::kFailed;
  fail.message = std::string("2 of 105 outside ulp<=3; ") + kHostileText;
  fail.repro = std::string("oprig run --case atan__f32__1x3x5x7__edge__p0__cpu # ") + kHostileText;
  fail.params = {{"note", kHostileText}};
  fail.stats = CompareStats{105, 2, 0.25, 1.0, 16, 0.0, "ulp<=3",
                            {{7, {0, 0, 1, 0}, 0.0, 1e-40, 16}, {9, {0, 0, 1, 2}, 1.5, 1.25, 4}}};
  fail.wall_ms = 2;

  CaseResult skipped;
  skipped.id = "atan__f32__1x3x5x7__uniform__p0__opencl";
  skipped.op = "atan";
  skipped.backend = "opencl";
  skipped.dtype = "f32";
  skipped.shape = {1, 3, 5, 7};
  skipped.verdict = Verdict::kSkipped;
  skipped.message = "no OpenCL platform";

  CaseResult unimplemented = skipped;
  unimplemented.id = "atan__f16__1x3x5x7__uniform__p0__opencl";
  unimplemented.dtype = "f16";
  unimplemented.verdict = Verdict::kUnimplemented;
  unimplemented.message = "no f16 kernel";

  CaseResult crash = skipped;
  crash.id = "atan__f32__1x1__uniform__p0__opencl";
  crash.shape = {1, 1};
  crash.verdict = Verdict::kCrash;
  crash.message = "worker killed by signal 11 (SIGSEGV)";
  crash.repro = "oprig run --case atan__f32__1x1__uniform__p0__opencl";

  r.cases = {pass, perf, fail, skipped, unimplemented, crash};
  return r;
}

std::filesystem::path make_temp_dir(const std::string& tag) {
  static int counter = 0;
  auto dir = std::filesystem::temp_directory_path() /
             ("oprig_reports_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::filesystem::path data_file(const std::string& name) {
  return std::filesystem::path(OPRIG_REPORTS_TEST_DATA) / name;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

}  // namespace oprig::reports::testing
