// Reading specs. A file loads all-or-nothing: any error leaves `packages`
// empty, and every error of the file is reported, not just the first.
// Warnings flag what is legal for the vendor's tools but looks wrong; they
// never stop a file from loading.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "spec/opdef.hpp"

namespace oprig::spec {

// Bounds that keep reading fast and its memory linear on hostile input. Real
// specs are kilobytes and nest a JSON default value a few levels deep.
inline constexpr std::size_t kMaxSpecBytes = 32u << 20;  // 32 MiB
inline constexpr int kMaxJsonNesting = 128;

struct SpecError {
  std::string file;
  int line = 0;         // 1-based; 0 when the file could not be read at all
  std::string element;  // XML element name, or a JSON path such as UdoPackage_0.Operators[0].type
  std::string message;
  bool warning = false;
  // "file:line: element: message" or "file:line: warning: element: message",
  // control characters escaped (see printable()).
  std::string to_string() const;
};

struct LoadResult {
  std::vector<Package> packages;  // one per OpDefCollection / UdoPackage_i
  std::vector<SpecError> errors;
  std::vector<SpecError> warnings;  // in file order of discovery; also on success
  bool ok() const { return errors.empty(); }
};

// `file_name` is used in messages only.
LoadResult read_xml(std::string_view text, std::string_view file_name);
LoadResult read_json(std::string_view text, std::string_view file_name);
// By extension (.xml / .json, any case); otherwise by the first non-blank
// character ('<' XML, '{' JSON). Files over kMaxSpecBytes are refused unread.
LoadResult load_spec_file(const std::filesystem::path& path);

}  // namespace oprig::spec
