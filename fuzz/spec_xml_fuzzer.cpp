// XML OpDef collections: read_xml, then renderings, resolution per backend,
// XML -> IR -> XML -> IR and IR -> JSON -> IR (spec_round_trip.cpp).
#include <string_view>

#include "spec/load.hpp"
#include "spec_round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  oprig::fuzz::check_loaded_spec(oprig::spec::read_xml(text, "fuzz.xml"), /*from_xml=*/true);
  return 0;
}
