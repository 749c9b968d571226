// JSON parsing that remembers, for every value, the line it starts on.
// nlohmann's SAX events carry no position, so the parser reads the text
// through an iterator that counts lines as it goes; each event looks at the
// line of the last non-blank character consumed (the token just read).
// Lines live in a tree parallel to the document (one small node per value,
// children in member / element order), so memory is linear in the input;
// nesting deeper than a limit stops the parse with an error.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace oprig::spec {

// The line of one value and of its children (object members in the order of
// the document's ordered_json, array elements by index).
class JsonPosition {
 public:
  JsonPosition() = default;
  explicit JsonPosition(int line) : line_(line) {}
  // Moves the children out of `children` (left empty-valued, capacity kept).
  JsonPosition(int line, std::vector<JsonPosition>& children);
  int line() const { return line_; }
  size_t size() const { return count_; }
  // nullptr when out of range, so callers can fall back to the parent's line.
  const JsonPosition* child(size_t index) const { return index < count_ ? &children_[index] : nullptr; }
  // Frees the children (a reader done with a subtree keeps memory low).
  void release_children() {
    children_.reset();
    count_ = 0;
  }

 private:
  int line_ = 0;
  uint32_t count_ = 0;
  std::unique_ptr<JsonPosition[]> children_;
};

struct DuplicateKey {
  std::string pointer;  // JSON pointer of the key ("/a/0/b")
  std::string path;     // the same for people ("a[0].b")
  int line = 0;
};

struct PositionedJson {
  nlohmann::ordered_json value;      // keeps the file's key order; a duplicated key keeps its first place, last value
  JsonPosition positions;            // parallel to value
  std::string error;                 // syntax error or nesting too deep; empty when parsed
  int error_line = 0;
  std::string duplicate_key_pointer;         // first duplicated key, if any
  std::vector<DuplicateKey> duplicate_keys;  // all of them, in file order
  // Line of the value at a JSON pointer ("" = root), or of its nearest
  // existing ancestor; 0 when nothing matches.
  int line_of(const std::string& pointer) const;
};

// Comments (// and /* */) are accepted. Containers nested deeper than
// `max_depth` end the parse with an error at that line.
inline constexpr int kDefaultJsonMaxDepth = 256;
PositionedJson parse_json_with_positions(std::string_view text, int max_depth = kDefaultJsonMaxDepth);

// RFC 6901 escaping of one pointer component.
std::string json_pointer_escape(std::string_view key);

}  // namespace oprig::spec
