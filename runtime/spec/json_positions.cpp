#include "spec/json_positions.hpp"

#include <cctype>
#include <iterator>
#include <vector>

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
    if (*at_ == '\n') {
      ++counter_->line;
    } else if (!std::isspace(static_cast<unsigned char>(*at_))) {
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

// Builds the DOM and records each value's line under its JSON pointer.
class PositionSax : public nlohmann::json_sax<Json> {
 public:
  PositionSax(PositionedJson& out, LineCounter& counter) : out_(out), counter_(counter) {}

  bool null() override { return add(Json(nullptr)); }
  bool boolean(bool v) override { return add(Json(v)); }
  bool number_integer(number_integer_t v) override { return add(Json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(Json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return add(Json(v)); }
  bool string(string_t& v) override { return add(Json(v)); }
  bool binary(binary_t& v) override { return add(Json(v)); }
  bool start_object(std::size_t) override { return open(Json::object()); }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    key_ = k;
    Frame& frame = stack_.back();
    std::string pointer = frame.pointer + "/" + json_pointer_escape(k);
    if (frame.value->contains(k) && out_.duplicate_key_pointer.empty()) out_.duplicate_key_pointer = pointer;
    out_.lines[pointer] = counter_.token_line;
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
    std::string pointer;
  };

  // Places a value in the current container; returns its pointer.
  std::pair<Json*, std::string> place(Json&& v) {
    if (stack_.empty()) {
      out_.value = std::move(v);
      out_.lines[""] = counter_.token_line;
      return {&out_.value, ""};
    }
    Frame& frame = stack_.back();
    if (frame.value->is_array()) {
      std::string pointer = frame.pointer + "/" + std::to_string(frame.value->size());
      out_.lines[pointer] = counter_.token_line;
      frame.value->push_back(std::move(v));
      return {&frame.value->back(), pointer};
    }
    // Object member: its line was recorded at the key.
    Json& slot = (*frame.value)[key_];
    slot = std::move(v);
    return {&slot, frame.pointer + "/" + json_pointer_escape(key_)};
  }
  bool add(Json&& v) {
    place(std::move(v));
    return true;
  }
  bool open(Json&& container) {
    auto [value, pointer] = place(std::move(container));
    stack_.push_back({value, pointer});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  PositionedJson& out_;
  LineCounter& counter_;
  std::vector<Frame> stack_;
  std::string key_;
};

}  // namespace

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
  std::string at = pointer;
  for (;;) {
    auto it = lines.find(at);
    if (it != lines.end()) return it->second;
    size_t slash = at.rfind('/');
    if (slash == std::string::npos) return 0;
    at.resize(slash);
  }
}

PositionedJson parse_json_with_positions(std::string_view text) {
  PositionedJson out;
  LineCounter counter;
  PositionSax sax(out, counter);
  CountingIterator first(text.data(), &counter);
  CountingIterator last(text.data() + text.size(), &counter);
  Json::sax_parse(first, last, &sax, nlohmann::json::input_format_t::json, /*strict=*/true,
                  /*ignore_comments=*/true);
  return out;
}

}  // namespace oprig::spec
