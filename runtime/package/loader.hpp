// Loads an op package (registration library + per-backend implementation
// libraries) through the versioned C ABI of oprig_package.h, and checks it
// before anything runs: ABI version, entry points, implementation libraries.
#pragma once

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "oprig/oprig_package.h"

namespace oprig {

// Thrown for every package problem; the message names the library and the cause.
class PackageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PackageOp {
  std::string name;
  uint32_t backend_mask = 0;
  uint32_t num_inputs = 0;
  uint32_t num_outputs = 0;
  std::vector<std::string> param_names;
};

// An extension operand type the package declares (oprig_operand_type_v1).
struct PackageOperandType {
  std::string name;
  uint32_t index = 0;
  bool is_tensor = true;
  oprig_dtype storage = OPRIG_DTYPE_INVALID;
  bool quantised = false;
};

// A loaded package. Keeps its libraries open for its lifetime; everything it
// hands out (implementations) is valid until it is destroyed.
class Package {
 public:
  ~Package();
  Package(const Package&) = delete;
  Package& operator=(const Package&) = delete;

  // dlopens the registration library at `path` (RTLD_LOCAL) and reads its
  // registration. Throws PackageError on any problem.
  static std::unique_ptr<Package> load(const std::filesystem::path& path);

  const std::string& name() const { return name_; }
  const std::string& version() const { return version_; }
  const std::filesystem::path& path() const { return path_; }
  const std::vector<PackageOp>& ops() const { return ops_; }
  const PackageOp* find_op(std::string_view name) const;
  const std::vector<PackageOperandType>& operand_types() const { return operand_types_; }
  const PackageOperandType* find_operand_type(std::string_view name) const;
  const PackageOperandType* find_operand_type(uint32_t index) const;
  const oprig_package_v1& registration() const { return *registration_; }
  // The package's own host reference, or nullptr (checked at load).
  const oprig_reference_v1* reference() const { return registration_->reference; }

  // The implementation of `kind`, loading its library on first use. Returns
  // nullptr and sets *why when the package has no implementation for it or the
  // library cannot be loaded (e.g. its driver library is missing).
  const oprig_implementation_v1* implementation(oprig_backend_kind kind, std::string* why);

 private:
  Package() = default;
  static void read_operand_types(const oprig_package_v1& reg, const std::string& where, Package& package);
  std::filesystem::path path_;
  std::string name_, version_;
  void* handle_ = nullptr;
  const oprig_package_v1* registration_ = nullptr;
  std::vector<PackageOp> ops_;
  std::vector<PackageOperandType> operand_types_;
  struct LoadedImplementation {
    oprig_backend_kind kind;
    void* handle;  // nullptr when it lives in the registration library
    const oprig_implementation_v1* implementation;
  };
  std::vector<LoadedImplementation> implementations_;
};

std::string status_name(oprig_status status);

}  // namespace oprig
