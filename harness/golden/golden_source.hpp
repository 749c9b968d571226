// Golden folders as a source of cases. A golden case is a folder holding
// manifest.json and NumPy .npy tensors (golden/README.md documents the
// format; NumPy reads and writes it without oprig). oprig writes them from
// its fp64 references (`oprig golden generate`); users write them from their
// own framework (scripts/golden/make_golden.py) or import ONNX node tests
// (scripts/onnx/import_onnx_tests.py). `oprig run --golden DIR` runs every
// golden case of a selected op on every selected backend, judged against the
// stored outputs under the plan's tolerances.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/case.hpp"

namespace oprig::harness {

// Every manifest.json under `root` (at most three folders deep) whose "op"
// names `space.op` (any case), as one case per backend, sorted by folder.
// Throws std::runtime_error naming the manifest when one is malformed.
std::vector<Case> golden_folder_cases(const std::filesystem::path& root, const OpCaseSpace& space,
                                      const std::vector<std::string>& backends);

// The manifest's parameter values: plain JSON values, or {"dtype", "value"}
// objects as oprig 0.1 wrote them.
nlohmann::json manifest_params(const nlohmann::json& manifest);

}  // namespace oprig::harness
