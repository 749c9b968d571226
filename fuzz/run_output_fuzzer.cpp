// A run's output folder as `oprig merge` reads it (harness/farm/run_output.hpp):
// the input is run.json, then, after a line `====`, results.jsonl (the stream
// of a killed run); read_run_output refuses with InputError naming the folder
// or a file in it, or gives a run whose merge identity agrees with itself.
#include <filesystem>
#include <string_view>

#include "farm/run_output.hpp"
#include "fuzz_support.hpp"
#include "runner/suite.hpp"

using namespace oprig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::filesystem::path dir = fuzz::scratch_dir() / "run";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const size_t separator = input.find("\n====\n");
  fuzz::write_scratch(dir / "run.json", input.substr(0, separator));
  if (separator != std::string_view::npos) fuzz::write_scratch(dir / "results.jsonl", input.substr(separator + 6));
  harness::farm::RunOutput output;
  if (!fuzz::reads_or_refuses<harness::InputError>([&] { output = harness::farm::read_run_output(dir); }, dir.string()))
    return 0;
  nlohmann::json identity;
  try {
    identity = harness::farm::merge_identity(output);
    if (!harness::farm::merge_identity_differences(identity, identity).empty())
      fuzz::finding("a merge identity differs from itself: " + identity.dump());
    (void)harness::farm::merge_identity_differences(identity, harness::farm::merge_identity(harness::farm::RunOutput{}));
  } catch (const std::exception& e) {
    fuzz::finding("merge identity of an accepted run threw " + fuzz::type_name_of(e) + ": " + e.what());
  }
  return 0;
}
