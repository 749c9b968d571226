// calibration.json (`oprig bench`, `oprig calibrate --show`):
// read_calibration_file, then the calibration goes to JSON and back
// unchanged, renders, and judges roofline rows as bench does with it.
#include "fuzz_support.hpp"
#include "perf/calibration.hpp"
#include "perf/perf_error.hpp"
#include "perf/roofline.hpp"

using namespace oprig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = fuzz::write_scratch("calibration.json", data, size);
  perf::Calibration calibration;
  if (!fuzz::reads_or_refuses<perf::PerfInputError>([&] { calibration = perf::read_calibration_file(path); },
                                                    path.string()))
    return 0;
  const std::string written = perf::calibration_to_json(calibration).dump();
  perf::Calibration back;
  try {
    back = perf::calibration_from_json(nlohmann::json::parse(written), "written.json");
  } catch (const std::exception& e) {
    fuzz::finding(std::string("calibration -> JSON -> calibration failed: ") + e.what() + "\n" + written);
  }
  if (perf::calibration_to_json(back).dump() != written) fuzz::finding("calibration -> JSON -> calibration changed it");
  (void)perf::render_calibration_text(calibration);
  (void)perf::calibration_machine_mismatch(calibration, perf::MachineInfo{});
  for (const perf::BackendPeaks& peaks : calibration.backends)
    for (const double bytes : {0.0, 64.0, 1e6, 1e12}) {
      const perf::RooflineInput row{bytes, bytes / 2, 1e-6, 0};
      (void)perf::evaluate_roofline(peaks, row);
      (void)perf::bandwidth_ceiling_gbps(peaks, bytes, true);
    }
  return 0;
}
