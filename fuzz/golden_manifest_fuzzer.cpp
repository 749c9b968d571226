// Golden manifests (manifest.json of a golden case, `oprig run --golden`):
// golden_folder_cases on a folder holding the input as one case's manifest,
// judged against the spec of the op it names (tolerance and layout fields
// included). The .npy tensors beside it have a target of their own.
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"
#include "golden/golden_source.hpp"
#include "opsuite_spaces.hpp"

using namespace oprig;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)fuzz::space_for("atan");
  std::filesystem::create_directories(fuzz::scratch_dir() / "golden" / "case");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::filesystem::path root = fuzz::scratch_dir() / "golden";
  const std::filesystem::path manifest = root / "case" / "manifest.json";
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::write_scratch(manifest, text);
  // The op the manifest names picks the spec, as --op does in a run.
  const nlohmann::json m = nlohmann::json::parse(text, nullptr, false);
  const std::string op = m.is_object() && m.contains("op") && m["op"].is_string() ? m["op"].get<std::string>() : "Atan";
  const harness::OpCaseSpace& space = fuzz::space_for(op);
  std::vector<harness::Case> cases;
  if (!fuzz::reads_or_refuses<std::runtime_error>(
          [&] { cases = harness::golden_folder_cases(root, space, fuzz::all_backends()); }, manifest.string()))
    return 0;
  for (const harness::Case& c : cases) {
    if (c.outputs.empty()) fuzz::finding("a golden case without outputs was accepted");
    if (c.id.empty() || c.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      fuzz::finding("case id '" + c.id + "' is not [a-z0-9_]");
  }
  return 0;
}
