// History records (`oprig history show`): read_history on a folder holding
// the input beside two real records, then the record goes to JSON and back
// unchanged, and the trends are analysed and rendered as `history show` does.
#include "fuzz_support.hpp"
#include "perf/gbench_json.hpp"
#include "perf/history.hpp"
#include "perf/history_report.hpp"
#include "perf/perf_error.hpp"

namespace {

using namespace oprig;

const std::filesystem::path& history_dir() {
  static const std::filesystem::path dir = [] {
    const std::filesystem::path d = fuzz::scratch_dir() / "history";
    std::filesystem::create_directories(d);
    // Two nights of a real libbenchmark output on one machine, so the input
    // is a third night of a series (or a night of another machine).
    const perf::BenchmarkFile run =
        perf::read_benchmark_file(fuzz::source_path("tests/perf/data/gbench/libbenchmark_1_7_1_output.json"));
    perf::MachineInfo machine;
    machine.cpu_model = "fuzz";
    machine.fingerprint = perf::compute_fingerprint(machine);
    for (const char* night : {"2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"}) {
      perf::HistoryRecord r = perf::make_history_record(run, machine, "fuzz", "0123456789ab", "--git-rev", night);
      r.run_date = night;
      fuzz::write_scratch(d / ("a_" + std::string(night).substr(0, 10) + ".json"),
                          perf::history_record_to_json(r).dump());
    }
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)history_dir();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::filesystem::path path = history_dir() / "z_input.json";
  fuzz::write_scratch(path, std::string_view(reinterpret_cast<const char*>(data), size));
  std::vector<perf::HistoryRecord> records;
  if (!fuzz::reads_or_refuses<perf::PerfInputError>([&] { records = perf::read_history(history_dir()); },
                                                    path.string()))
    return 0;
  for (const perf::HistoryRecord& r : records) {
    const std::string written = perf::history_record_to_json(r).dump();
    perf::HistoryRecord back;
    try {
      back = perf::history_record_from_json(nlohmann::json::parse(written), r.file);
    } catch (const std::exception& e) {
      fuzz::finding(std::string("history record -> JSON -> record failed: ") + e.what() + "\n" + written);
    }
    back.file = r.file;
    if (perf::history_record_to_json(back).dump() != written) fuzz::finding("history record -> JSON -> record changed it");
  }
  for (const perf::TimeMetric metric : {perf::TimeMetric::kRealTime, perf::TimeMetric::kCpuTime})
    for (const bool any_machine : {false, true}) {
      const perf::SeriesSelection selection = perf::select_series(records, metric, "", any_machine, 0);
      perf::ChangePointOptions options;
      options.min_points = 3;  // the three nights of the folder get analysed, not called too short
      const perf::HistoryReport report =
          perf::analyse_history(history_dir().string(), records, selection, metric, options);
      (void)perf::render_history_text(report);
      (void)perf::render_history_html(report);
    }
  return 0;
}
