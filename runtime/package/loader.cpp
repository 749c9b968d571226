#include "package/loader.hpp"

#include <dlfcn.h>

#include <cstring>

namespace oprig {
namespace {

std::string dl_error() {
  const char* e = dlerror();
  return e ? e : "unknown dlopen error";
}

std::string backend_label(uint32_t kind) {
  switch (kind) {
    case OPRIG_BACKEND_CPU: return "cpu";
    case OPRIG_BACKEND_OPENCL: return "opencl";
    case OPRIG_BACKEND_VULKAN: return "vulkan";
    case OPRIG_BACKEND_DSP: return "dsp";
    default: return "backend #" + std::to_string(kind);
  }
}

}  // namespace

std::string status_name(oprig_status status) {
  switch (status) {
    case OPRIG_STATUS_OK: return "OK";
    case OPRIG_STATUS_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case OPRIG_STATUS_UNSUPPORTED: return "UNSUPPORTED";
    case OPRIG_STATUS_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    case OPRIG_STATUS_BACKEND_ERROR: return "BACKEND_ERROR";
    case OPRIG_STATUS_INTERNAL: return "INTERNAL";
  }
  return "status " + std::to_string(static_cast<int>(status));
}

Package::~Package() {
  for (LoadedImplementation& impl : implementations_)
    if (impl.handle != nullptr) dlclose(impl.handle);
  if (handle_ != nullptr) dlclose(handle_);
}

// The extension operand types a registration declares, checked: unique
// names and indices, an index that fits the low 16 bits, a fixed-size
// storage type.
void Package::read_operand_types(const oprig_package_v1& reg, const std::string& where, Package& package) {
  for (const oprig_operand_type_v1* t = reg.operand_types; t != nullptr && t->name != nullptr; ++t) {
    const std::string name = t->name;
    const std::string at = where + ": operand type '" + name + "'";
    if (name.empty()) throw PackageError(where + ": an operand type has an empty name");
    if (t->index > 0xFFFFu) throw PackageError(at + " has index " + std::to_string(t->index) + ", over 65535");
    const auto storage = static_cast<oprig_dtype>(t->storage_dtype);
    if (storage == OPRIG_DTYPE_INVALID || storage == OPRIG_DTYPE_STRING || t->storage_dtype > OPRIG_DTYPE_STRING)
      throw PackageError(at + " has no fixed-size storage dtype (" + std::to_string(t->storage_dtype) + ")");
    if (package.find_operand_type(name) != nullptr || package.find_operand_type(t->index) != nullptr)
      throw PackageError(at + ": name or index " + std::to_string(t->index) + " declared twice");
    package.operand_types_.push_back({name, t->index, t->is_tensor != 0, storage, t->quantised != 0});
  }
}

std::unique_ptr<Package> Package::load(const std::filesystem::path& path) {
  const std::string where = path.string();
  if (!std::filesystem::exists(path))
    throw PackageError(where + ": package library not found");
  std::unique_ptr<Package> package(new Package());
  package->path_ = std::filesystem::absolute(path);
  package->handle_ = dlopen(package->path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (package->handle_ == nullptr)
    throw PackageError(where + ": cannot load: " + dl_error());

  auto query = reinterpret_cast<oprig_package_query_fn>(
      dlsym(package->handle_, OPRIG_PACKAGE_QUERY_SYMBOL));
  if (query == nullptr)
    throw PackageError(where + ": missing entry point '" OPRIG_PACKAGE_QUERY_SYMBOL
                       "': not an oprig op package");
  const oprig_package_v1* reg = query(OPRIG_ABI_VERSION);
  if (reg == nullptr)
    throw PackageError(where + ": " OPRIG_PACKAGE_QUERY_SYMBOL "(" +
                       std::to_string(OPRIG_ABI_VERSION) +
                       ") returned NULL: the package supports no ABI version this oprig knows");
  if (reg->abi_version != OPRIG_ABI_VERSION)
    throw PackageError(where + ": ABI version " + std::to_string(reg->abi_version) +
                       " but this oprig speaks version " + std::to_string(OPRIG_ABI_VERSION));
  if (reg->struct_size < sizeof(oprig_package_v1))
    throw PackageError(where + ": registration struct is " + std::to_string(reg->struct_size) +
                       " bytes, expected at least " + std::to_string(sizeof(oprig_package_v1)));
  if (reg->name == nullptr || reg->name[0] == '\0')
    throw PackageError(where + ": registration has no package name");
  if (reg->num_ops > 0 && reg->ops == nullptr)
    throw PackageError(where + ": registration declares " + std::to_string(reg->num_ops) +
                       " ops but no op table");
  if (const oprig_reference_v1* ref = reg->reference) {
    if (ref->struct_size < sizeof(oprig_reference_v1))
      throw PackageError(where + ": reference struct is " + std::to_string(ref->struct_size) +
                         " bytes, expected at least " + std::to_string(sizeof(oprig_reference_v1)));
    if (ref->shapes == nullptr || ref->compute == nullptr)
      throw PackageError(where + ": the package's reference lacks shapes() or compute()");
    if (ref->precision != OPRIG_REFERENCE_FLOAT_64 && ref->precision != OPRIG_REFERENCE_NATIVE)
      throw PackageError(where + ": the package's reference has precision " + std::to_string(ref->precision) +
                         " (known: 1 FLOAT_64, 2 NATIVE)");
  }
  package->registration_ = reg;
  package->name_ = reg->name;
  package->version_ = reg->version ? reg->version : "";

  for (size_t i = 0; i < reg->num_ops; ++i) {
    const oprig_op_registration_v1& op = reg->ops[i];
    if (op.name == nullptr || op.name[0] == '\0')
      throw PackageError(where + ": op #" + std::to_string(i) + " has no name");
    PackageOp entry{op.name, op.backend_mask, op.num_inputs, op.num_outputs, {}};
    for (const char* const* p = op.param_names; p != nullptr && *p != nullptr; ++p)
      entry.param_names.emplace_back(*p);
    if (package->find_op(entry.name) != nullptr)
      throw PackageError(where + ": op '" + entry.name + "' registered twice");
    package->ops_.push_back(std::move(entry));
  }
  read_operand_types(*reg, where, *package);
  return package;
}

const PackageOperandType* Package::find_operand_type(std::string_view name) const {
  for (const PackageOperandType& t : operand_types_)
    if (t.name == name) return &t;
  return nullptr;
}

const PackageOperandType* Package::find_operand_type(uint32_t index) const {
  for (const PackageOperandType& t : operand_types_)
    if (t.index == index) return &t;
  return nullptr;
}

const PackageOp* Package::find_op(std::string_view name) const {
  for (const PackageOp& op : ops_)
    if (op.name == name) return &op;
  return nullptr;
}

const oprig_implementation_v1* Package::implementation(oprig_backend_kind kind,
                                                       std::string* why) {
  for (const LoadedImplementation& impl : implementations_)
    if (impl.kind == kind) return impl.implementation;

  const oprig_implementation_location_v1* location = nullptr;
  for (size_t i = 0; i < registration_->num_implementations; ++i)
    if (registration_->implementations[i].backend_kind == static_cast<uint32_t>(kind))
      location = &registration_->implementations[i];
  if (location == nullptr) {
    if (why) *why = name_ + " has no " + backend_label(kind) + " implementation";
    return nullptr;
  }

  void* handle = nullptr;
  void* lookup = handle_;
  std::string library = path_.string();
  if (location->library != nullptr) {
    library = (path_.parent_path() / location->library).string();
    handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      if (why) *why = "cannot load " + library + ": " + dl_error();
      return nullptr;
    }
    lookup = handle;
  }
  auto query = reinterpret_cast<oprig_implementation_query_fn>(
      dlsym(lookup, OPRIG_IMPLEMENTATION_QUERY_SYMBOL));
  const oprig_implementation_v1* impl =
      query ? query(static_cast<uint32_t>(kind), OPRIG_ABI_VERSION) : nullptr;
  std::string problem;
  if (query == nullptr)
    problem = library + ": missing entry point '" OPRIG_IMPLEMENTATION_QUERY_SYMBOL "'";
  else if (impl == nullptr)
    problem = library + ": no " + backend_label(kind) + " implementation for ABI version " +
              std::to_string(OPRIG_ABI_VERSION);
  else if (impl->abi_version != OPRIG_ABI_VERSION)
    problem = library + ": implementation ABI version " + std::to_string(impl->abi_version) +
              ", expected " + std::to_string(OPRIG_ABI_VERSION);
  else if (impl->struct_size < sizeof(oprig_implementation_v1) || impl->create == nullptr ||
           impl->prepare == nullptr || impl->execute == nullptr || impl->destroy == nullptr)
    problem = library + ": implementation table incomplete (create, prepare, execute and "
                        "destroy are required)";
  else if (impl->backend_kind != static_cast<uint32_t>(kind))
    problem = library + ": asked for " + backend_label(kind) + ", got an implementation for " +
              backend_label(impl->backend_kind);
  if (!problem.empty()) {
    if (handle != nullptr) dlclose(handle);
    if (why) *why = problem;
    return nullptr;
  }
  implementations_.push_back({kind, handle, impl});
  return impl;
}

}  // namespace oprig
