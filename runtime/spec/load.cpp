#include "spec/load.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

namespace oprig::spec {

std::string SpecError::to_string() const {
  return file + ":" + std::to_string(line) + ": " + element + ": " + message;
}

LoadResult load_spec_file(const std::filesystem::path& path) {
  std::string file = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    LoadResult result;
    result.errors.push_back({file, 0, "file", "cannot open"});
    return result;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();

  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".xml") return read_xml(text, file);
  if (ext == ".json") return read_json(text, file);
  // Unknown extension: sniff, skipping a UTF-8 byte order mark and blanks
  // (JSON may start with a comment, as vendors' tools allow).
  size_t at = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  if (at < text.size() && text[at] == '<') return read_xml(text, file);
  std::string_view rest = std::string_view(text).substr(at);
  if (rest.starts_with("{") || rest.starts_with("//") || rest.starts_with("/*")) return read_json(text, file);
  LoadResult result;
  result.errors.push_back({file, 1, "file", "neither an XML OpDefCollection nor a JSON UDO config"});
  return result;
}

}  // namespace oprig::spec
