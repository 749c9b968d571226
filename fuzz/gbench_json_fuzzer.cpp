// Google Benchmark JSON (`oprig compare`, `oprig history add`):
// read_benchmark_file, then what those commands do with it: compare it with
// itself and with a real libbenchmark output both ways, and make a history
// record of it that goes to JSON and back unchanged.
#include "fuzz_support.hpp"
#include "perf/compare.hpp"
#include "perf/gbench_json.hpp"
#include "perf/history.hpp"
#include "perf/perf_error.hpp"

namespace {

using namespace oprig;

const perf::BenchmarkFile& real_output() {
  static const perf::BenchmarkFile file =
      perf::read_benchmark_file(fuzz::source_path("tests/perf/data/gbench/libbenchmark_1_7_1_output.json"));
  return file;
}

void compare(const perf::BenchmarkFile& base, const perf::BenchmarkFile& next) {
  perf::CompareOptions options;
  const perf::CompareReport report = perf::compare_runs(base, next, options);
  (void)perf::compare_exit_code(report);
  (void)perf::mismatch_reason(report);
  (void)perf::render_compare_table(report);
  (void)perf::compare_to_json(report).dump();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)real_output();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = fuzz::write_scratch("benchmark.json", data, size);
  perf::BenchmarkFile file;
  if (!fuzz::reads_or_refuses<perf::PerfInputError>([&] { file = perf::read_benchmark_file(path); }, path.string()))
    return 0;
  for (const perf::BenchmarkSamples& b : file.benchmarks)
    if (b.name.empty()) fuzz::finding("a benchmark without a name was accepted");
  compare(file, file);
  compare(real_output(), file);
  compare(file, real_output());
  perf::MachineInfo machine;
  machine.cpu_model = "fuzz";
  machine.fingerprint = perf::compute_fingerprint(machine);
  const perf::HistoryRecord record =
      perf::make_history_record(file, machine, "fuzz", "0123456789ab", "--git-rev", "2026-01-01T00:00:00Z");
  (void)perf::history_file_stem(record);
  const std::string written = perf::history_record_to_json(record).dump();
  perf::HistoryRecord back;
  try {
    back = perf::history_record_from_json(nlohmann::json::parse(written), "record.json");
  } catch (const std::exception& e) {
    fuzz::finding(std::string("a history record made from it does not read back: ") + e.what() + "\n" + written);
  }
  if (perf::history_record_to_json(back).dump() != written) fuzz::finding("history record -> JSON -> record changed it");
  return 0;
}
