// Golden vectors: golden/<package>/<op>/<golden id>/ with manifest.json and
// NumPy .npy tensors (in0.npy..., out0.npy...), generated from the fp64
// reference, checked in, and verified on every test run. Float outputs are
// stored as the fp64 reference itself; integer and quantised outputs as the
// expected codes (quantised ones under the reference rounding stated in the
// manifest).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "runner/suite.hpp"

namespace oprig::harness {

struct GoldenReport {
  size_t written = 0, verified = 0;
  std::vector<std::string> problems;  // one line each: "<dir>: what is wrong"
  std::vector<std::string> matched;   // check_reference: "<op> <case dir>" per case the reference reproduces
};

std::filesystem::path default_golden_dir();
GoldenReport generate_golden(const Suite& suite, const std::filesystem::path& golden_dir);
GoldenReport verify_golden(const Suite& suite, const std::filesystem::path& golden_dir);

// Independent evidence for the references: every golden case under `root`
// made by someone else (ONNX node tests, a user's NumPy) is recomputed with
// the op's fp64 reference and compared with the stored outputs under the
// tolerance that judges it in a run (the manifest's own, else the plan's).
// A case the reference does not reproduce is a problem.
GoldenReport check_reference(const Suite& suite, const std::filesystem::path& root);

}  // namespace oprig::harness
