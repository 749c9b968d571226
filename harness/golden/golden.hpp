// Golden vectors: golden/<package>/<op>/<golden id>/ with manifest.json and
// NumPy .npy tensors (in0.npy..., out0.npy...), generated from the fp64
// reference, checked in, and verified on every test run. Float outputs are
// stored as the fp64 reference itself; quantised outputs as the expected codes
// under the reference rounding stated in the manifest.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "runner/suite.hpp"

namespace oprig::harness {

struct GoldenReport {
  size_t written = 0, verified = 0;
  std::vector<std::string> problems;  // one line each: "<dir>: what is wrong"
};

std::filesystem::path default_golden_dir();
GoldenReport generate_golden(const Suite& suite, const std::filesystem::path& golden_dir);
GoldenReport verify_golden(const Suite& suite, const std::filesystem::path& golden_dir);

}  // namespace oprig::harness
