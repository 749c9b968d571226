// JSON parsing that remembers, for every value, the line it starts on.
// nlohmann's SAX events carry no position, so the parser reads the text
// through an iterator that counts lines as it goes; each event looks at the
// line of the last non-blank character consumed (the token just read).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace oprig::spec {

struct PositionedJson {
  nlohmann::ordered_json value;          // keeps the file's key order
  std::map<std::string, int> lines;      // JSON pointer ("" = root, "/a/0/b") -> 1-based line
  std::string error;                     // syntax error, empty when parsed
  int error_line = 0;
  std::string duplicate_key_pointer;     // first duplicated key, if any
  int line_of(const std::string& pointer) const;  // nearest recorded ancestor's line
};

// Comments (// and /* */) are accepted, as vendors' tools do.
PositionedJson parse_json_with_positions(std::string_view text);

// RFC 6901 escaping of one pointer component.
std::string json_pointer_escape(std::string_view key);

}  // namespace oprig::spec
