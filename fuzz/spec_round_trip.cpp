#include "spec_round_trip.hpp"

#include "fuzz_support.hpp"
#include "spec/resolve.hpp"
#include "spec/write.hpp"

namespace oprig::fuzz {
namespace {

std::string errors_of(const spec::LoadResult& r) {
  std::string text;
  for (const spec::SpecError& e : r.errors) text += e.to_string() + "\n";
  return text;
}

// A writer may refuse what its format cannot hold (WriteError); whatever it
// writes must read back into the same IR, and writing that gives the same text.
void xml_round_trip(const spec::Package& package) {
  std::string written;
  try {
    written = spec::write_xml(package);
  } catch (const spec::WriteError&) {
    return;
  }
  const spec::LoadResult back = spec::read_xml(written, "written.xml");
  if (!back.ok()) finding("write_xml wrote what read_xml refuses:\n" + errors_of(back) + written);
  if (back.packages.size() != 1 || back.packages[0] != package)
    finding("XML -> IR -> XML -> IR changed the IR; written:\n" + written);
  if (spec::write_xml(back.packages[0]) != written) finding("write_xml is not stable:\n" + written);
}

void json_round_trip(const std::vector<spec::Package>& packages) {
  std::string written;
  try {
    written = spec::write_json(packages);
  } catch (const spec::WriteError&) {
    return;
  }
  const spec::LoadResult back = spec::read_json(written, "written.json");
  if (!back.ok()) finding("write_json wrote what read_json refuses:\n" + errors_of(back) + written);
  if (back.packages != packages) finding("IR -> JSON -> IR changed the IR; written:\n" + written);
  if (spec::write_json(back.packages) != written) finding("write_json is not stable:\n" + written);
}

}  // namespace

void check_loaded_spec(const spec::LoadResult& loaded, bool from_xml) {
  if (!loaded.ok() && !loaded.packages.empty())
    finding("a load with errors kept packages (a file loads all-or-nothing)");
  for (const spec::SpecError& e : loaded.errors)
    if (e.to_string().empty()) finding("an empty error message");
  if (!loaded.ok()) return;
  for (const spec::Package& package : loaded.packages) {
    (void)spec::render_text(package);
    (void)spec::to_ir_json(package).dump();
    for (const spec::OpDef& op : package.ops) {
      (void)spec::op_summary(op);
      for (const char* backend : {"cpu", "opencl", "vulkan", "dsp"}) {
        if (!spec::op_supported_on(package, op, backend)) continue;
        for (size_t i = 0; i < op.inputs.size(); ++i)
          (void)spec::allowed_types(package, op, spec::TensorRole::kInput, i, backend);
        for (size_t i = 0; i < op.outputs.size(); ++i)
          (void)spec::allowed_types(package, op, spec::TensorRole::kOutput, i, backend);
        for (size_t i = 0; i < op.parameters.size(); ++i)
          (void)spec::resolve_tensor(package, op, spec::TensorRole::kParameter, i, backend);
      }
    }
    // JSON-only fields have no place in XML (write_xml lists them as notes).
    if (from_xml) xml_round_trip(package);
  }
  json_round_trip(loaded.packages);
}

}  // namespace oprig::fuzz
