#include "spec/load.hpp"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <new>

namespace oprig::spec {
namespace {

LoadResult failure(const std::string& file, int line, std::string message) {
  LoadResult result;
  result.errors.push_back({file, line, "file", std::move(message)});
  return result;
}

std::string mebibytes(std::uintmax_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1u << 20));
  return text;
}

LoadResult read_by_kind(const std::filesystem::path& path, const std::string& file, const std::string& text) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".xml") return read_xml(text, file);
  if (ext == ".json") return read_json(text, file);
  // Unknown extension: sniff, skipping a UTF-8 byte order mark and blanks
  // (JSON may start with a comment, which oprig accepts).
  size_t at = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  if (at < text.size() && text[at] == '<') return read_xml(text, file);
  std::string_view rest = std::string_view(text).substr(at);
  if (rest.starts_with("{") || rest.starts_with("//") || rest.starts_with("/*")) return read_json(text, file);
  return failure(file, 1, "neither an XML OpDefCollection nor a JSON UDO config");
}

}  // namespace

std::string SpecError::to_string() const {
  return printable(file + ":" + std::to_string(line) + ": " + (warning ? "warning: " : "") + element + ": " + message, false);
}

LoadResult load_spec_file(const std::filesystem::path& path) {
  std::string file = path.string();
  std::error_code ec;
  std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxSpecBytes)
    return failure(file, 0, "is " + std::to_string(size) + " bytes; spec files are limited to " + mebibytes(kMaxSpecBytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) return failure(file, 0, "cannot open");
  try {
    // Read in chunks, at most one byte past the limit: a file that grows, or
    // a pipe, is refused without reading it all.
    std::string text;
    if (!ec) text.reserve(static_cast<size_t>(size));
    char chunk[1 << 16];
    while (text.size() <= kMaxSpecBytes && in.read(chunk, sizeof chunk).gcount() > 0)
      text.append(chunk, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxSpecBytes)
      return failure(file, 0, "is larger than " + mebibytes(kMaxSpecBytes) + ", the limit for spec files");
    return read_by_kind(path, file, text);
  } catch (const std::bad_alloc&) {
    return failure(file, 0, "out of memory while reading the spec");
  }
}

}  // namespace oprig::spec
