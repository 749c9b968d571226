// The files of one golden case (golden/README.md): manifest.json with the
// case's op, params and tensors, its present inputs as in0.npy..., its
// expected outputs as out0.npy... (float outputs as fp64 values with the
// kernel's type in "of_dtype"; integer and quantised outputs as codes).
// `oprig golden generate` writes the bundled goldens with it, and
// `--keep-outputs` each kept case, so either can be run again with --golden.
#pragma once

#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/case.hpp"
#include "cases/tensor_data.hpp"
#include "core/npy.hpp"
#include "runner/oracle.hpp"

namespace oprig::harness {

struct GoldenFiles {
  nlohmann::json manifest;
  std::vector<NpyArray> inputs, outputs;  // inputs: the present ones only, in order
};

inline constexpr const char* kGoldenRounding =
    "quantised outputs: q = clamp(round_half_away_from_zero(y / scale) + zero_point, qmin, qmax) unless the op "
    "defines its own rounding; integer outputs: the exact codes; float outputs: the fp64 reference value itself";

// The manifest (schema 2: package, op, case, seed, fill, variant, params,
// inputs, outputs, rounding) and the arrays; callers add what they know more.
GoldenFiles golden_files(const Case& c, const std::vector<TensorData>& inputs, const std::vector<Expected>& expected);

// A tensor entry of a manifest.
nlohmann::json golden_tensor_entry(const std::string& name, const std::string& file, oprig_dtype dtype,
                                   const std::vector<int64_t>& shape, const Quantization& q);

// Writes in*.npy, out*.npy and manifest.json into `dir` (created). Throws
// std::runtime_error (or reports::ReportWriteError) when a file cannot be written.
void write_golden_files(const std::filesystem::path& dir, const GoldenFiles& files);

// Bytes the arrays take as .npy files (each header included), for size caps.
uint64_t npy_bytes(const std::vector<NpyArray>& arrays);

}  // namespace oprig::harness
