// One kernel of a package on one backend, driven directly with host tensors:
// for an op's own unit tests (ISA paths, thread counts, sizes) and its
// microbenchmarks, through exactly the ABI path the harness uses (create with
// typed parameters, prepare, device buffers, Backend::execute, read back).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backend.hpp"
#include "oprig/oprig_package.h"

namespace oprig::harness {

struct HostTensor {
  oprig_dtype dtype = OPRIG_DTYPE_INVALID;
  std::vector<int64_t> shape;
  std::vector<std::byte> bytes;
  float scale = 0;  // quantisation (0: none)
  int32_t zero_point = 0;
  bool present = true;  // false: an optional input left out

  template <class T>
  static HostTensor of(oprig_dtype dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
    HostTensor t;
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.bytes.resize(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
    return t;
  }
  static HostTensor absent() {
    HostTensor t;
    t.present = false;
    return t;
  }
  template <class T>
  std::vector<T> as() const {
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
  }
  size_t element_count() const;
};

// Parameters by spec name with their ABI types, as the harness passes them.
class ParamList {
 public:
  ParamList& add_float(const std::string& name, float value);
  ParamList& add_int(const std::string& name, int64_t value, oprig_dtype dtype = OPRIG_DTYPE_INT_32);
  ParamList& add_ints(const std::string& name, const std::vector<int64_t>& values,
                      oprig_dtype dtype = OPRIG_DTYPE_INT_32);
  ParamList& add_floats(const std::string& name, const std::vector<float>& values);
  ParamList& add_bool(const std::string& name, bool value);
  ParamList& add_string(const std::string& name, const std::string& value);
  // Valid until the list changes.
  std::vector<oprig_param> view() const;

 private:
  struct Entry {
    std::string name;
    oprig_dtype dtype;
    uint32_t count;
    std::vector<std::byte> bytes;
  };
  std::vector<Entry> entries_;
};

class KernelSession {
 public:
  // Creates and prepares the kernel and uploads the inputs; `outputs` gives
  // each output's dtype and quantisation. Output dimensions prepare() leaves
  // at -1 are resolved once, here, by resolve_shapes() on host copies of the
  // inputs (as the harness does); write_input() does not resolve them again.
  // On failure ok() is false and error() says which call failed with which
  // status.
  KernelSession(Backend& backend, const oprig_implementation_v1& impl, const std::string& op,
                const ParamList& params, std::vector<HostTensor> inputs, std::vector<oprig_tensor> outputs);
  // The same with parameters already in ABI form; they must outlive the session.
  KernelSession(Backend& backend, const oprig_implementation_v1& impl, const std::string& op,
                const oprig_param* params, size_t num_params, std::vector<HostTensor> inputs,
                std::vector<oprig_tensor> outputs);
  ~KernelSession();
  KernelSession(const KernelSession&) = delete;
  KernelSession& operator=(const KernelSession&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  oprig_status create_status() const { return create_status_; }
  oprig_status prepare_status() const { return prepare_status_; }
  // OPRIG_STATUS_OK also when no dimension needed resolving.
  oprig_status resolve_status() const { return resolve_status_; }
  // Output descriptions after prepare (shapes inferred by the kernel).
  const std::vector<oprig_tensor>& outputs() const { return out_desc_; }
  oprig_kernel* kernel() const { return kernel_; }

  // One execute through Backend::execute; timing optional.
  oprig_status run(ExecTiming* timing = nullptr);
  // Reads output k back from the device.
  HostTensor output(size_t k) const;
  // Replaces the contents of input k (same size) on the device.
  void write_input(size_t k, std::span<const std::byte> bytes);

 private:
  Backend& backend_;
  const oprig_implementation_v1& impl_;
  oprig_kernel* kernel_ = nullptr;
  std::vector<oprig_param> params_;
  std::vector<HostTensor> inputs_;
  std::vector<oprig_tensor> in_desc_, out_desc_;
  std::vector<std::unique_ptr<DeviceBuffer>> in_buf_, out_buf_;
  oprig_status create_status_ = OPRIG_STATUS_INTERNAL, prepare_status_ = OPRIG_STATUS_INTERNAL;
  oprig_status resolve_status_ = OPRIG_STATUS_INTERNAL;
  std::string error_;

  void start(const std::string& op);
};

// The bundled opsuite package's implementation for a backend, loaded once per
// process by the package loader (the built package, or $OPRIG_PACKAGE);
// nullptr with *why set when it cannot be loaded.
const oprig_implementation_v1* opsuite_implementation(oprig_backend_kind kind, std::string* why);

}  // namespace oprig::harness
