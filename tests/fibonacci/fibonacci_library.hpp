// Opens libcom_example_fibonacci.so with dlopen, as a host would, and runs its
// Fibonacci kernel on host memory (the cpu ABI hands kernels host pointers).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oprig/oprig_package.h"

namespace oprig::test {

class FibonacciLibrary {
 public:
  FibonacciLibrary();  // dlopens OPRIG_FIBONACCI_LIBRARY; see error()
  ~FibonacciLibrary();
  FibonacciLibrary(const FibonacciLibrary&) = delete;
  FibonacciLibrary& operator=(const FibonacciLibrary&) = delete;

  const std::string& error() const { return error_; }
  oprig_package_query_fn package_query() const { return package_query_; }
  oprig_implementation_query_fn implementation_query() const { return implementation_query_; }
  // The cpu implementation at OPRIG_ABI_VERSION, or nullptr.
  const oprig_implementation_v1* cpu() const;

 private:
  void* handle_ = nullptr;
  oprig_package_query_fn package_query_ = nullptr;
  oprig_implementation_query_fn implementation_query_ = nullptr;
  std::string error_;
};

// A cpu context as a host hands it to create (no pool: the kernel needs none).
oprig_backend_context cpu_context();

// One run through create, prepare, resolve_shapes and execute.
struct FibonacciRun {
  oprig_status status = OPRIG_STATUS_OK;  // the first call that did not return OK, or OK
  std::string failed_call;                // "create", "prepare", "resolve_shapes", "execute" or empty
  int64_t prepared_length = 0;            // dims[0] after prepare
  int64_t resolved_length = 0;            // dims[0] after resolve_shapes
  std::vector<float> f32;                 // FLOAT_32 output
  std::vector<uint64_t> u64;              // UINT_64 output
};

// dtype is FLOAT_32 or UINT_64; scale/zero_point describe the output.
FibonacciRun run_fibonacci(const oprig_implementation_v1& impl, float n, oprig_dtype dtype, float scale = 0.0f,
                           int32_t zero_point = 0);

}  // namespace oprig::test
