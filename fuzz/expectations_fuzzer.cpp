// Expectations files (`oprig run --expectations`, harness/farm/expectations.hpp):
// Expectations::add_file. A refused file's error names FILE:LINE; an accepted
// one's entries are written back as lines and read again unchanged, each
// entry's line number is a line of the input, and a plain case id is decided.
#include <algorithm>
#include <cctype>
#include <string_view>

#include "farm/expectations.hpp"
#include "fuzz_support.hpp"
#include "runner/suite.hpp"

using namespace oprig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = fuzz::write_scratch("expected.txt", data, size);
  harness::farm::Expectations expectations;
  try {
    expectations.add_file(path);
  } catch (const harness::InputError& e) {
    // Every refusal of a readable file is about one line: FILE:LINE: what.
    // Checked by hand: <regex> trips GCC 12's -Wmaybe-uninitialized in the ASan build.
    const std::string_view message = e.what();
    const std::string prefix = path.string() + ":";
    bool names_line = message.substr(0, prefix.size()) == prefix;
    size_t at = prefix.size();
    names_line = names_line && at < message.size() && message[at] >= '1' && message[at] <= '9';
    while (names_line && at < message.size() && std::isdigit(static_cast<unsigned char>(message[at]))) ++at;
    names_line = names_line && message.substr(at, 2) == ": ";
    if (!names_line) fuzz::finding(std::string("the error does not name FILE:LINE: ") + e.what());
    return 0;
  } catch (const std::exception& e) {
    fuzz::finding("undocumented exception " + fuzz::type_name_of(e) + " escaped the reader: " + e.what());
  }
  const size_t lines = static_cast<size_t>(std::count(data, data + size, '\n')) + 1;
  std::string written;
  for (const auto& e : expectations.entries()) {
    if (e.line < 1 || e.line > lines) fuzz::finding("entry line " + std::to_string(e.line) + " outside the input");
    written += e.pattern + "," + e.verdict + (e.reason.empty() ? "" : "," + e.reason) + "\n";
  }
  harness::farm::Expectations back;
  try {
    back.add_text(written, "written.txt");
  } catch (const std::exception& e) {
    fuzz::finding(std::string("entries -> lines -> entries failed: ") + e.what() + "\n" + written);
  }
  if (back.entries().size() != expectations.entries().size()) fuzz::finding("entries -> lines -> entries lost lines");
  for (size_t i = 0; i < back.entries().size(); ++i) {
    const auto& a = expectations.entries()[i];
    const auto& b = back.entries()[i];
    if (a.pattern != b.pattern || a.verdict != b.verdict || a.reason != b.reason || b.line != i + 1)
      fuzz::finding("entries -> lines -> entries changed line " + a.where());
  }
  // A pattern without wildcards names one case id, which it decides or a later line does.
  for (const auto& e : expectations.entries())
    if (e.pattern.find_first_of("*?[") == std::string::npos && expectations.find(e.pattern) == nullptr)
      fuzz::finding("no line decides the case id '" + e.pattern + "' that " + e.where() + " names");
  return 0;
}
