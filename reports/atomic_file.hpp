// Report files are replaced atomically: a reader (a CI job, a browser, a
// second oprig) sees either the old file or the complete new one, never half.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string_view>

namespace oprig::reports {

class ReportWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes `content` to a fresh temporary file in the same directory, fsyncs it,
// renames it over `path` and fsyncs the directory. On any failure the
// temporary file is removed and ReportWriteError names the path and the cause.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace oprig::reports
