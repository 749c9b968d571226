// Runs a program the way a user or CI would, and captures what it says: the
// end-to-end tests drive the real `oprig` binary through this.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace oprig_test {

struct ProcessResult {
  int exit_code = -1;    // the exit status, or 128 + signal when killed by one
  bool timed_out = false;
  double seconds = 0;    // wall time
  std::string out, err;  // stdout and stderr
};

// Runs argv[0] (a path) with argv, the current environment plus `env`
// (an empty value unsets the variable), in its own process group; kills the
// whole group after `limit_s` seconds. stdout and stderr go through files in
// `scratch`, so a chatty program cannot block on a full pipe.
ProcessResult run_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                          const std::filesystem::path& scratch, double limit_s = 120);

// A fresh, empty directory under the test temp dir; removed by its owner.
std::filesystem::path make_temp_dir(const std::string& prefix);

std::string read_text(const std::filesystem::path& file);

}  // namespace oprig_test
