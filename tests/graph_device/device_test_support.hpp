// Shared helpers of the device graph tests: the bundled packages, the
// opsuite's built-in kernel map, backends by name, small models and tensors.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "graph/add_chain_model.hpp"
#include "graph/model.hpp"
#include "graph/package_library.hpp"
#include "graph/prepared_model.hpp"
#include "models/builtin_kernels.hpp"

namespace oprig::graph::device_test {

// The device backends every test is instantiated for.
inline const std::vector<std::string> kDevices = {"opencl", "vulkan", "dsp"};

const PackageLibrary& packages();                // org.oprig.opsuite
const BuiltinKernelMap& builtin_kernels();       // the harness's map over the bundled packages
Backend& cpu();
Backend* backend_or_null(const std::string& name);  // nullptr: not built or no driver here
bool device_memory(const std::string& backend);     // opencl, vulkan: operands live in device memory

Model parse(const std::string& json);
PreparedModel prepare_on(Backend& target, const Model& model);  // with the built-in kernel map
PreparedModel prepare_on_cpu(const Model& model);

template <typename T>
HostTensor tensor(oprig_dtype dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}
inline HostTensor i32(int32_t v) { return tensor<int32_t>(OPRIG_DTYPE_INT_32, {1}, {v}); }

template <typename T>
std::vector<T> values(const HostTensor& t) {
  std::vector<T> out(t.data.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.data.data(), t.data.size());
  return out;
}

// i = 0, acc = 0; while (i < n) { i = i + 1; acc = acc + i }: INT_32 ADD and
// LESS only. Inputs: n. Outputs: i, acc (n and n(n+1)/2 for n >= 0).
extern const char* const kCountingLoop;
// The same loop whose body also casts acc to UINT_8 quantised (scale 1,
// zero point 0) and back: a quantised CAST, which the map keeps on the host.
extern const char* const kCountingLoopWithQuantisedCast;
// while (i >= 0) i = i + 0: never ends.
extern const char* const kEndlessLoop;

}  // namespace oprig::graph::device_test
