// The fuzz targets without libFuzzer, for ctest (fuzz/README.md): runs
// LLVMFuzzerTestOneInput once on every file named or found under a folder
// named, and on every file listed in an @LIST file (one path a line: the
// seed lists fuzz/CMakeLists.txt writes), as libFuzzer does when it replays a
// corpus. A finding aborts, as in
// a fuzzing run; a folder with nothing in it is an error, since a replay
// that read no input tested nothing.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

int replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.eof() && in.fail()) {
    std::fprintf(stderr, "replay: cannot read %s\n", file.c_str());
    return 1;
  }
  std::fprintf(stderr, "replay: %s (%zu bytes)\n", file.c_str(), bytes.size());
  // A copy of its own, as libFuzzer gives: a read past the end is the reader's.
  const std::vector<uint8_t> input(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(input.data(), input.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_FOLDER_OR_@LIST...\n", argv[0]);
    return 2;
  }
  size_t replayed = 0;
  for (int k = 1; k < argc; ++k) {
    const std::filesystem::path arg = argv[k];
    std::vector<std::filesystem::path> files;
    if (argv[k][0] == '@') {
      std::ifstream list(argv[k] + 1);
      if (!list) {
        std::fprintf(stderr, "replay: cannot read the list %s\n", argv[k] + 1);
        return 1;
      }
      for (std::string line; std::getline(list, line);)
        if (!line.empty()) files.emplace_back(line);
    } else if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(arg);
    }
    for (const auto& file : files) {
      if (replay(file) != 0) return 1;
      ++replayed;
    }
  }
  if (replayed == 0) {
    std::fprintf(stderr, "replay: no input found: nothing was tested\n");
    return 1;
  }
  std::fprintf(stderr, "replay: %zu inputs, no finding\n", replayed);
  return 0;
}
