// run.json (an --out folder's identity): what `oprig run --resume` does with
// it (identity_differences against this invocation's identity, which must
// not throw: its lines are the refusal's message) and what `oprig report`
// does with it beside a killed run's results.jsonl (the planned case ids say
// whether the stream is complete; an unreadable run.json makes it INCOMPLETE).
#include <filesystem>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"
#include "report_command.hpp"
#include "runner/run_identity.hpp"

using namespace oprig;

namespace {

std::ostringstream discarded;

const std::filesystem::path& out_dir() {
  static const std::filesystem::path dir = [] {
    const std::filesystem::path d = fuzz::scratch_dir() / "out";
    std::filesystem::create_directories(d);
    std::filesystem::copy_file(fuzz::source_path("tests/data/reports/killed_run.jsonl"), d / "results.jsonl",
                               std::filesystem::copy_options::overwrite_existing);
    return d;
  }();
  return dir;
}

// What `oprig run --out OUT --op atan --backend cpu,dsp --resume` would compare with.
nlohmann::json this_invocation() {
  harness::Selection selection;
  selection.suite_dir = "/opt/oprig/opsuite";
  selection.backends = {"cpu", "dsp"};
  selection.op = "atan";
  reports::PackageRecord package;
  package.path = "/opt/oprig/lib/liboprig_opsuite.so";
  package.sha256 = std::string(64, 'a');
  return harness::run_identity(selection, {package}, {"atan__f32__1x3x5x7__uniform__p0__cpu"});
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)out_dir();
  std::cout.rdbuf(discarded.rdbuf());  // the report's summary table
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json before = nlohmann::json::parse(text, nullptr, false);
  if (!before.is_discarded()) {
    static const nlohmann::json now = this_invocation();
    try {
      (void)harness::identity_differences(before, now);
    } catch (const std::exception& e) {
      fuzz::finding("identity_differences threw " + fuzz::type_name_of(e) + ": " + e.what());
    }
  }
  fuzz::write_scratch(out_dir() / harness::kRunIdentityFile, text);
  CLI::App app;
  int exit_code = -1;
  cli::add_report_command(app, &exit_code);
  const std::string jsonl = (out_dir() / "results.jsonl").string(), html = (out_dir() / "report.html").string();
  app.parse(std::vector<std::string>{html, "-o", jsonl, "report"});  // CLI11 takes them last to first
  if (exit_code != 0) fuzz::finding("oprig report of a killed run exited " + std::to_string(exit_code));
  discarded.str("");
  return 0;
}
