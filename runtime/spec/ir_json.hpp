// Pieces of the IR as JSON and back, shared by `spec show --json` and by the
// JSON writer's extension key (what the UDO format has no place for).
// from_json functions throw IrJsonError naming the offending field.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec/opdef.hpp"

namespace oprig::spec::ir_json {

using Json = nlohmann::ordered_json;

struct IrJsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Json description_to_json(const Description& description);
Description description_from_json(const Json& value);

Json constraints_to_json(const std::vector<Constraint>& constraints);
std::vector<Constraint> constraints_from_json(const Json& value);

Json references_to_json(const std::vector<Reference>& references);
std::vector<Reference> references_from_json(const Json& value);

// Data types by QNN name ("FLOAT_32", "UFIXED_POINT_8", "BACKEND_SPECIFIC").
Json datatypes_to_json(const std::vector<DataType>& types);
std::vector<DataType> datatypes_from_json(const Json& value);

Json supplementals_to_json(const std::vector<SupplementalList>& lists);
std::vector<SupplementalList> supplementals_from_json(const Json& value);

// Helpers for the readers of these pieces.
std::string string_from_json(const Json& value, const char* what);
std::vector<std::string> strings_from_json(const Json& value, const char* what);

}  // namespace oprig::spec::ir_json
