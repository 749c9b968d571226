// What oprig knows of the SNPE JSON UDO config, shared by its reader and
// writer (internal to the spec library).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec/json_positions.hpp"
#include "spec/load.hpp"

namespace oprig::spec::udo {

using Json = nlohmann::ordered_json;

// The one key oprig adds to a UDO config, on a package, an operator or a
// tensor: what the format has no place for (XML-only fields, several data
// types per core, ...). The SNPE tools read keys by name and ignore others.
inline constexpr std::string_view kExtensionKey = "oprig_extension";

// The SNPE tools' core types (their table has CPU, GPU, DSP; newer SDKs add HTP).
std::optional<std::string> snpe_core_type(std::string_view name);  // canonical spelling
// The SNPE spelling of a data type; DSP fixed point is UINT_n. nullopt when
// the SNPE tools have no such type (INT_8, BOOL_8, SFIXED_POINT_8, ...).
std::optional<std::string> snpe_data_type(DataType type, bool dsp);
bool snpe_data_type_name(std::string_view name);  // as written in a file
inline constexpr std::string_view kAllValid = "ALL_VALID";  // every SNPE data type
std::vector<DataType> all_valid_types(bool dsp);
bool snpe_layout(Layout layout);

// The reader on an already parsed package object. `positions` may be null
// (lines are then 0). Errors and warnings go to the result.
struct PackageRead {
  Package package;
  std::vector<SpecError> errors;
  std::vector<SpecError> warnings;
};
PackageRead read_package(const Json& value, const JsonPosition* positions, const std::string& package_key,
                         std::string_view file_name);

}  // namespace oprig::spec::udo
