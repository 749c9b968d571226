// What every fuzz target shares: a scratch folder for readers that take a
// path, and the checks beyond "no crash" (fuzz/README.md). A violated check
// prints "oprig fuzz finding: ..." and aborts, which libFuzzer records as a
// crash with its input, like a sanitizer report.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace oprig::fuzz {

[[noreturn]] void finding(const std::string& what);

// This process's scratch folder (under $TMPDIR, else /tmp), created on first
// use and removed at exit.
const std::filesystem::path& scratch_dir();

// Writes the input to scratch_dir()/name (replacing it) and returns the path:
// the readers that take a path read exactly what a user's file would hold.
std::filesystem::path write_scratch(const std::string& name, const uint8_t* data, size_t size);
void write_scratch(const std::filesystem::path& path, std::string_view text);

// "std::runtime_error" for an exception object, demangled.
std::string type_name_of(const std::exception& e);

// The reader's documented error: its type is what the reader's header
// promises and its message names the file (`source`, when not empty), since a
// user with many files must be told which one is wrong. Anything else that
// escapes (a nlohmann::json::type_error, std::out_of_range, ...) is a finding.
template <class Documented, class Read>
bool reads_or_refuses(Read&& read, std::string_view source) {
  try {
    read();
    return true;
  } catch (const Documented& e) {
    if (!source.empty() && std::string_view(e.what()).find(source) == std::string_view::npos)
      finding("the error does not name the file " + std::string(source) + ": " + e.what());
    return false;
  } catch (const std::exception& e) {
    finding("undocumented exception " + type_name_of(e) + " escaped the reader: " + e.what());
  }
}

// Which file of the project's source tree: seeds and fixed inputs.
std::filesystem::path source_path(const std::string& relative);

}  // namespace oprig::fuzz
