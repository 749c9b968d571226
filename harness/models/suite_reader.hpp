// Reads opsuite/controlflow/suite.json (schema: opsuite/controlflow/README.md)
// into plain structs the suite tests iterate over.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "graph/prepared_model.hpp"

namespace oprig::harness::models {

struct Tolerance {
  // kAbsRel: |got - want| <= atol + rtol * |want| (NNAPI's generated tests:
  // FLOAT_16 and relaxed FLOAT_32 outputs use atol = rtol = 5 * 2^-10).
  enum class Kind { kExact, kUlp, kLsb, kAbsRel } kind = Kind::kExact;
  int64_t amount = 0;
  double atol = 0, rtol = 0;
};

// One expected output: the values as JSON text per element, kept as doubles
// and (for 64-bit integers, which doubles cannot hold) as uint64.
struct ExpectedTensor {
  std::string name;
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  std::vector<int64_t> dims;
  float scale = 0;
  int32_t zero_point = 0;
  std::vector<double> values;
  std::vector<uint64_t> u64_values;  // UINT_64 only
  Tolerance tolerance;
};

struct SuiteCase {
  std::string model_id, case_id;
  std::filesystem::path model;
  std::vector<graph::HostTensor> inputs;
  std::string expected_status;  // "OK" | "MISSED_DEADLINE"
  std::optional<int64_t> loop_timeout_ms;
  std::optional<int64_t> max_wall_ms;
  std::vector<ExpectedTensor> outputs;
  std::string name() const { return model_id + "__" + case_id; }
};

struct BadModel {
  std::string id;
  std::filesystem::path model;
  std::string error;
  int line = 0, subgraph = -1, operation = -1, operand = -1;
};

struct Suite {
  std::filesystem::path dir;
  std::vector<SuiteCase> cases;
  std::vector<BadModel> bad;
  std::vector<std::string> package_files;  // registration library file names
};

// gtest prints parameters with this instead of their bytes.
inline void PrintTo(const SuiteCase& c, std::ostream* os) { *os << c.name(); }
inline void PrintTo(const BadModel& b, std::ostream* os) { *os << b.id; }

// Throws std::runtime_error naming the file and the problem.
Suite read_suite(const std::filesystem::path& path);

}  // namespace oprig::harness::models
