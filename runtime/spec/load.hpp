// Reading specs. A file loads all-or-nothing: any error leaves `packages`
// empty, and every error of the file is reported, not just the first.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "spec/opdef.hpp"

namespace oprig::spec {

struct SpecError {
  std::string file;
  int line = 0;         // 1-based; 0 when the file could not be read at all
  std::string element;  // XML element name, or a JSON path such as UdoPackage_0.Operators[0].type
  std::string message;
  // "file:line: element: message"
  std::string to_string() const;
};

struct LoadResult {
  std::vector<Package> packages;  // one per OpDefCollection / UdoPackage_i
  std::vector<SpecError> errors;
  bool ok() const { return errors.empty(); }
};

// `file_name` is used in error messages only.
LoadResult read_xml(std::string_view text, std::string_view file_name);
LoadResult read_json(std::string_view text, std::string_view file_name);
// By extension (.xml / .json, any case); otherwise by the first non-blank
// character ('<' XML, '{' JSON).
LoadResult load_spec_file(const std::filesystem::path& path);

}  // namespace oprig::spec
