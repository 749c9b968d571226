// JSON UDO configs: read_json, then renderings, resolution per backend and
// IR -> JSON -> IR (spec_round_trip.cpp).
#include <string_view>

#include "spec/load.hpp"
#include "spec_round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  oprig::fuzz::check_loaded_spec(oprig::spec::read_json(text, "fuzz.json"), /*from_xml=*/false);
  return 0;
}
