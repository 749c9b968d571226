#include "spec/json_positions.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <optional>
#include <unordered_map>

namespace oprig::spec {
namespace {

using Json = nlohmann::ordered_json;

struct LineCounter {
  int line = 1;
  int token_line = 1;  // line of the last non-blank character consumed
};

// An input iterator over the text that updates a LineCounter as it advances.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator() = default;
  CountingIterator(const char* at, LineCounter* counter) : at_(at), counter_(counter) {}
  reference operator*() const { return *at_; }
  CountingIterator& operator++() {
    char c = *at_;
    if (c == '\n') {
      ++counter_->line;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      counter_->token_line = counter_->line;
    }
    ++at_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const CountingIterator& a, const CountingIterator& b) { return a.at_ == b.at_; }

 private:
  const char* at_ = nullptr;
  LineCounter* counter_ = nullptr;
};

// Builds the DOM and the position tree. A container is assembled in its
// frame and moved into its parent when it closes, in one reserved step: array
// elements and object members gather in the frame's reused vectors (objects
// so also because ordered_json's vector holds const keys, and growing it
// copied every member's whole subtree). Duplicated keys are found by a scan
// of small objects and a hash map for large ones; as in Python's json, the
// last value wins.
class PositionSax : public nlohmann::json_sax<Json> {
 public:
  PositionSax(PositionedJson& out, LineCounter& counter, int max_depth)
      : out_(out), counter_(counter), max_depth_(static_cast<size_t>(std::max(max_depth, 1))) {}

  bool null() override { return add(Json(nullptr)); }
  bool boolean(bool v) override { return add(Json(v)); }
  bool number_integer(number_integer_t v) override { return add(Json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(Json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return add(Json(v)); }
  bool string(string_t& v) override { return add(Json(std::move(v))); }
  bool binary(binary_t& v) override { return add(Json(v)); }
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& frame = top();
    std::optional<size_t> existing = find_key(frame, k);
    frame.slot = existing.value_or(frame.members.size());
    frame.key = std::move(k);
    frame.key_line = counter_.token_line;
    if (existing) {
      DuplicateKey duplicate = where_is_slot();
      duplicate.line = counter_.token_line;
      if (out_.duplicate_key_pointer.empty()) out_.duplicate_key_pointer = duplicate.pointer;
      out_.duplicate_keys.push_back(std::move(duplicate));
    }
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
    std::string what = ex.what();
    size_t colon = what.find(": ");
    out_.error = colon == std::string::npos ? what : what.substr(colon + 2);
    out_.error_line = counter_.line;
    return false;
  }

 private:
  struct Frame {
    bool is_object = false;
    int line = 0;
    std::vector<Json> elements;                          // arrays
    std::vector<std::pair<std::string, Json>> members;   // objects
    size_t slot = 0;   // objects: the ordinal the pending key's value goes to
    std::string key;   // objects: the pending key
    int key_line = 0;  // objects: its line, which is the member's line
    std::vector<JsonPosition> children;
    // Objects with many members: key -> ordinal (small objects are scanned).
    std::unordered_map<std::string, size_t> ordinals;
  };

  static constexpr size_t kScanLimit = 32;

  // The ordinal of an existing member named `k`.
  static std::optional<size_t> find_key(Frame& frame, const std::string& k) {
    const auto& members = frame.members;
    if (members.size() < kScanLimit) {
      for (size_t i = 0; i < members.size(); ++i)
        if (members[i].first == k) return i;
      return std::nullopt;
    }
    if (frame.ordinals.empty())
      for (size_t i = 0; i < members.size(); ++i) frame.ordinals.emplace(members[i].first, i);
    auto [it, inserted] = frame.ordinals.try_emplace(k, members.size());
    if (inserted) return std::nullopt;
    return it->second;
  }

  Frame& top() { return stack_[depth_ - 1]; }
  const Frame& top() const { return stack_[depth_ - 1]; }

  // Puts a finished value where the current container expects it.
  void place(Json&& v, JsonPosition&& position) {
    if (depth_ == 0) {
      out_.value = std::move(v);
      out_.positions = std::move(position);
      return;
    }
    Frame& frame = top();
    if (!frame.is_object) {
      frame.elements.push_back(std::move(v));
      frame.children.push_back(std::move(position));
    } else if (frame.slot < frame.members.size()) {  // a duplicated key: replace in place
      frame.members[frame.slot].second = std::move(v);
      frame.children[frame.slot] = std::move(position);
    } else {
      frame.members.emplace_back(std::move(frame.key), std::move(v));
      frame.children.push_back(std::move(position));
    }
  }

  // An object member is where its key is; anything else where it starts.
  int value_line() const {
    if (depth_ > 0 && top().is_object) return top().key_line;
    return counter_.token_line;
  }

  bool add(Json&& v) {
    int line = value_line();
    place(std::move(v), JsonPosition(line));
    return true;
  }

  // Frames are reused by depth, so their vectors keep their capacity and a
  // container costs no temporary allocations once the stack has warmed up.
  bool open(bool is_object) {
    if (depth_ >= max_depth_) {
      out_.error = "nested deeper than " + std::to_string(max_depth_) + " levels";
      out_.error_line = counter_.line;
      return false;
    }
    int line = value_line();
    if (depth_ == stack_.size()) stack_.emplace_back();
    Frame& frame = stack_[depth_++];
    frame.is_object = is_object;
    frame.line = line;
    frame.elements.clear();
    frame.members.clear();
    frame.children.clear();
    frame.ordinals.clear();
    frame.slot = 0;
    return true;
  }

  bool close() {
    Frame& frame = top();
    Json value;
    if (frame.is_object) {
      value = Json::object();
      Json::object_t& object = value.get_ref<Json::object_t&>();
      object.reserve(frame.members.size());
      for (auto& [k, v] : frame.members) object.emplace_back(std::move(k), std::move(v));
    } else {
      value = Json::array();
      Json::array_t& array = value.get_ref<Json::array_t&>();
      array.reserve(frame.elements.size());
      std::move(frame.elements.begin(), frame.elements.end(), std::back_inserter(array));
    }
    JsonPosition position(frame.line, frame.children);
    --depth_;
    place(std::move(value), std::move(position));
    return true;
  }

  // The pointer and path of the pending slot (built only for duplicate keys).
  DuplicateKey where_is_slot() const {
    DuplicateKey at;
    for (size_t d = 0; d < depth_; ++d) {
      const Frame& frame = stack_[d];
      if (frame.is_object) {
        at.pointer += "/" + json_pointer_escape(frame.key);
        at.path += (at.path.empty() ? "" : ".") + frame.key;
      } else {
        std::string index = std::to_string(frame.elements.size());
        at.pointer += "/" + index;
        at.path += "[" + index + "]";
      }
    }
    return at;
  }

  PositionedJson& out_;
  LineCounter& counter_;
  size_t max_depth_;
  std::vector<Frame> stack_;  // stack_[0, depth_) are open
  size_t depth_ = 0;
};

}  // namespace

JsonPosition::JsonPosition(int line, std::vector<JsonPosition>& children)
    : line_(line), count_(static_cast<uint32_t>(children.size())) {
  if (count_ == 0) return;
  children_ = std::make_unique<JsonPosition[]>(count_);
  for (uint32_t i = 0; i < count_; ++i) children_[i] = std::move(children[i]);
}

std::string json_pointer_escape(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

int PositionedJson::line_of(const std::string& pointer) const {
  const Json* at = &value;
  const JsonPosition* pos = &positions;
  size_t start = 1;
  while (!pointer.empty() && start <= pointer.size()) {
    size_t end = pointer.find('/', start);
    if (end == std::string::npos) end = pointer.size();
    std::string part;  // RFC 6901 unescaping: ~1 is '/', ~0 is '~'
    for (size_t i = start; i < end; ++i) {
      if (pointer[i] == '~' && i + 1 < end) {
        part += pointer[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        part += pointer[i];
      }
    }
    start = end + 1;
    const Json* child = nullptr;
    size_t index = 0;
    if (at->is_array()) {
      bool digits = !part.empty() && part.size() < 19 && part.find_first_not_of("0123456789") == std::string::npos;
      if (digits && (index = std::stoull(part)) < at->size()) child = &(*at)[index];
    } else if (at->is_object()) {
      for (const auto& member : at->items()) {
        if (member.key() == part) {
          child = &member.value();
          break;
        }
        ++index;
      }
    }
    const JsonPosition* child_pos = child ? pos->child(index) : nullptr;
    if (!child_pos) break;
    at = child;
    pos = child_pos;
  }
  return pos->line();
}

PositionedJson parse_json_with_positions(std::string_view text, int max_depth) {
  PositionedJson out;
  LineCounter counter;
  PositionSax sax(out, counter, max_depth);
  CountingIterator first(text.data(), &counter);
  CountingIterator last(text.data() + text.size(), &counter);
  Json::sax_parse(first, last, &sax, nlohmann::json::input_format_t::json, /*strict=*/true,
                  /*ignore_comments=*/true);
  return out;
}

}  // namespace oprig::spec
