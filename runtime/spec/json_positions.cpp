#include "spec/json_positions.hpp"

#include <cctype>
#include <iterator>
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

// Builds the DOM and the position tree. Object members are appended straight
// to ordered_json's underlying vector (its own insert searches linearly, which
// would make an object of n keys cost n^2); duplicates are found through a
// hash map per open object and, as in Python's json, the last value wins.
class PositionSax : public nlohmann::json_sax<Json> {
 public:
  PositionSax(PositionedJson& out, LineCounter& counter, int max_depth)
      : out_(out), counter_(counter), max_depth_(max_depth) {}

  bool null() override { return add(Json(nullptr)); }
  bool boolean(bool v) override { return add(Json(v)); }
  bool number_integer(number_integer_t v) override { return add(Json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(Json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return add(Json(v)); }
  bool string(string_t& v) override { return add(Json(std::move(v))); }
  bool binary(binary_t& v) override { return add(Json(v)); }
  bool start_object(std::size_t) override { return open(Json::object()); }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& frame = stack_.back();
    auto [it, inserted] = frame.ordinals.try_emplace(k, frame.value->size());
    frame.slot = it->second;
    frame.key = k;
    frame.key_line = counter_.token_line;
    if (!inserted) {
      DuplicateKey duplicate{pointer_to_slot(), counter_.token_line};
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
    Json* value;
    int line;
    size_t slot = 0;  // where the next value goes (objects: the key's ordinal)
    std::string key;  // objects: the pending key
    int key_line = 0; // objects: its line, which is the member's line
    std::vector<JsonPosition> children;
    std::unordered_map<std::string, size_t> ordinals;  // objects only
  };

  // Puts a value where the current container expects it; returns its address.
  Json* place(Json&& v) {
    if (stack_.empty()) {
      out_.value = std::move(v);
      return &out_.value;
    }
    Frame& frame = stack_.back();
    if (frame.value->is_array()) {
      frame.slot = frame.value->size();
      frame.value->push_back(std::move(v));
      return &frame.value->back();
    }
    Json::object_t& object = frame.value->get_ref<Json::object_t&>();
    if (frame.slot < object.size()) {  // a duplicated key: replace in place
      auto slot = object.begin() + static_cast<std::ptrdiff_t>(frame.slot);
      slot->second = std::move(v);
      return &slot->second;
    }
    object.emplace_back(frame.key, std::move(v));
    return &object.back().second;
  }

  void place_position(JsonPosition&& position) {
    if (stack_.empty()) {
      out_.positions = std::move(position);
      return;
    }
    Frame& frame = stack_.back();
    if (frame.slot < frame.children.size()) frame.children[frame.slot] = std::move(position);
    else frame.children.push_back(std::move(position));
  }

  // An object member is where its key is; anything else where it starts.
  int value_line() const {
    if (!stack_.empty() && stack_.back().value->is_object()) return stack_.back().key_line;
    return counter_.token_line;
  }

  bool add(Json&& v) {
    int line = value_line();
    place(std::move(v));
    place_position(JsonPosition(line));
    return true;
  }

  bool open(Json&& container) {
    if (static_cast<int>(stack_.size()) >= max_depth_) {
      out_.error = "nested deeper than " + std::to_string(max_depth_) + " levels";
      out_.error_line = counter_.line;
      return false;
    }
    int line = value_line();
    Json* value = place(std::move(container));
    stack_.push_back(Frame{value, line, 0, {}, 0, {}, {}});
    return true;
  }

  bool close() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    place_position(JsonPosition(frame.line, std::move(frame.children)));
    return true;
  }

  // The JSON pointer of the pending slot (built only for duplicate keys).
  std::string pointer_to_slot() const {
    std::string pointer;
    for (size_t i = 0; i < stack_.size(); ++i) {
      const Frame& frame = stack_[i];
      bool last = i + 1 == stack_.size();
      if (frame.value->is_array()) pointer += "/" + std::to_string(last ? frame.value->size() : frame.slot);
      else pointer += "/" + json_pointer_escape(frame.key);
    }
    return pointer;
  }

  PositionedJson& out_;
  LineCounter& counter_;
  int max_depth_;
  std::vector<Frame> stack_;
};

}  // namespace

JsonPosition::JsonPosition(int line, std::vector<JsonPosition>&& children)
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
