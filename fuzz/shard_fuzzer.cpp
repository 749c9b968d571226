// Shard specs (`--shard K/N`, `--shard-count`, the job engines' variables;
// harness/farm/shard.hpp): the input's first line is the --shard flag, its
// second --shard-count, the rest NAME=VALUE lines of the environment.
// resolve_shard either refuses with InputError or gives 1 <= K <= N <= 100000,
// and `K/N` written back parses to the same shard.
#include <map>
#include <sstream>

#include "farm/shard.hpp"
#include "fuzz_support.hpp"
#include "runner/suite.hpp"

using namespace oprig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  std::string flag, count_line;
  std::getline(lines, flag);
  std::getline(lines, count_line);
  int count_given = 0;
  if (!count_line.empty() && count_line.size() < 7 && count_line.find_first_not_of("0123456789") == std::string::npos)
    count_given = std::stoi(count_line);
  std::map<std::string, std::string> variables;
  for (std::string line; std::getline(lines, line);) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) variables[line.substr(0, eq)] = line.substr(eq + 1);
  }
  // Bazel's status file is touched where the fuzzer says, never where the input says.
  if (variables.count("TEST_SHARD_STATUS_FILE")) variables["TEST_SHARD_STATUS_FILE"] = (fuzz::scratch_dir() / "status").string();
  const harness::farm::Environment env = [&](const char* name) -> const char* {
    const auto it = variables.find(name);
    return it == variables.end() ? nullptr : it->second.c_str();
  };
  std::optional<harness::farm::ShardSpec> spec;
  if (!fuzz::reads_or_refuses<harness::InputError>([&] { spec = harness::farm::resolve_shard(flag, count_given, env); }, ""))
    return 0;
  if (!spec) return 0;
  if (spec->index < 1 || spec->index > spec->count || spec->count > 100000)
    fuzz::finding("shard " + std::to_string(spec->index) + "/" + std::to_string(spec->count) + " from " + spec->source);
  harness::farm::ShardSpec back;
  try {
    back = harness::farm::parse_shard(std::to_string(spec->index) + "/" + std::to_string(spec->count));
  } catch (const std::exception& e) {
    fuzz::finding(std::string("K/N -> shard failed: ") + e.what());
  }
  if (back.index != spec->index || back.count != spec->count) fuzz::finding("shard -> K/N -> shard changed it");
  return 0;
}
