// `oprig package new`: a buildable op package skeleton for every op and
// backend of a spec, as snpe-udo-package-generator makes one for SNPE: a
// registration part, one implementation per backend whose kernels answer
// UNSUPPORTED until written (so every case reports UNIMPLEMENTED, never
// PASSED), an OpenCL C kernel file and a GLSL shader compiled by the build,
// a CMakeLists.txt that builds against an installed oprig
// (find_package(oprig) + oprig_add_package()), the spec, a derived plan.json,
// a NumPy golden-vector script and a README.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace oprig::harness {

struct SkeletonResult {
  std::string package_name;  // the spec's
  std::string library;       // lib<library>.so and lib<library>_<backend>.so
  std::vector<std::string> ops;
  std::vector<std::string> backends;
  std::vector<std::filesystem::path> files;  // written, relative to the output folder
};

// Throws std::runtime_error (bad spec, output folder not empty).
SkeletonResult write_package_skeleton(const std::filesystem::path& spec, const std::filesystem::path& out_dir);

}  // namespace oprig::harness
