#include "fuzz_support.hpp"

#include <cxxabi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <typeinfo>

namespace oprig::fuzz {
namespace {

struct Scratch {
  std::filesystem::path dir;
  Scratch() {
    const char* tmp = std::getenv("TMPDIR");
    dir = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") / ("oprig-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

}  // namespace

void finding(const std::string& what) {
  std::fprintf(stderr, "oprig fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

const std::filesystem::path& scratch_dir() {
  static const Scratch scratch;
  return scratch.dir;
}

void write_scratch(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) finding("cannot write the scratch file " + path.string());
}

std::filesystem::path write_scratch(const std::string& name, const uint8_t* data, size_t size) {
  const std::filesystem::path path = scratch_dir() / name;
  write_scratch(path, std::string_view(reinterpret_cast<const char*>(data), size));
  return path;
}

std::string type_name_of(const std::exception& e) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> name(
      abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status), &std::free);
  return status == 0 && name ? name.get() : typeid(e).name();
}

std::filesystem::path source_path(const std::string& relative) {
  return std::filesystem::path(OPRIG_SOURCE_DIR) / relative;
}

}  // namespace oprig::fuzz
