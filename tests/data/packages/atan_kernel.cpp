// The implementation part of the test packages: a plain, correct cpu Atan
// (y = atan(x + offset), computed in fp64 and rounded once to the tensor's
// type) that misbehaves on purpose when the tensor has exactly
// kFaultyElementCount elements. Which misbehaviour is chosen at build time with
// OPRIG_TEST_FAULT, one package library per fault, so that the harness's
// safety net can be proven against a real shared library loaded through the
// same ABI a vendor's package uses. OPRIG_TEST_BUG plants a bug of the kernel's
// lifecycle instead (a shared scratch buffer, a forgotten re-prepare, a leak,
// a refused data type, a flipped sign of zero), on every tensor.
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <new>
#include <system_error>
#include <vector>

#include "core/half.hpp"
#include "oprig/oprig_package.h"
#include "test_package_config.hpp"

#if defined(OPRIG_TEST_WITH_OPENCL)
const oprig_implementation_v1* oprig_test_opencl_implementation();
#endif
#if defined(OPRIG_TEST_WITH_VULKAN)
const oprig_implementation_v1* oprig_test_vulkan_implementation();
#endif

namespace {

using oprig_test::Bug;
using oprig_test::Cheat;
using oprig_test::Fault;

constexpr Fault kFault = OPRIG_TEST_FAULT;
constexpr Cheat kCheat = OPRIG_TEST_CHEAT;
constexpr Bug kBug = OPRIG_TEST_BUG;

struct AtanKernel {
  double offset = 0;
  oprig_dtype dtype = OPRIG_DTYPE_FLOAT_32;
  size_t count = 0;
  bool prepared = false;
  unsigned executes = 0;
  std::vector<unsigned char> cached;  // kCacheOutput: the first execute's output
};

// kSharedScratch: one buffer for every instance, as a kernel with a static
// work area has (large enough for the planted plan's shapes).
constexpr size_t kScratchElements = 1 << 16;
unsigned char g_scratch[kScratchElements * sizeof(float)];

// kLeak: where each execute's allocation goes; the previous one is lost.
void* volatile g_leaked = nullptr;

// Whether this library file is the one $OPRIG_TEST_SLOWDOWN_PACKAGE names
// (any file when it is unset): `oprig bench --base-package` loads a copy of
// this package beside it in one process, and only one side is slowed.
bool slowdown_applies_here() {
  const char* only = std::getenv("OPRIG_TEST_SLOWDOWN_PACKAGE");
  if (only == nullptr) return true;
  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&slowdown_applies_here), &self) == 0 || self.dli_fname == nullptr) return false;
  std::error_code ec;
  return std::filesystem::equivalent(self.dli_fname, only, ec);
}

// The busy loop's length, read once: $OPRIG_TEST_BUSY_US x (1 + $OPRIG_TEST_SLOWDOWN_PERCENT / 100).
double busy_seconds() {
  static const double seconds = [] {
    const char* us = std::getenv("OPRIG_TEST_BUSY_US");
    const char* slow = slowdown_applies_here() ? std::getenv("OPRIG_TEST_SLOWDOWN_PERCENT") : nullptr;
    const double base = us ? std::atof(us) * 1e-6 : 0.0;
    return base * (1.0 + (slow ? std::atof(slow) : 0.0) / 100.0);
  }();
  return seconds;
}

// $OPRIG_TEST_ADDRESS_LOG: each execute appends its input's and output's
// data addresses (how bench's test sees that repetitions run on new memory).
void log_addresses(const oprig_tensor& in, const oprig_tensor& out) {
  static std::FILE* log = [] {
    const char* path = std::getenv("OPRIG_TEST_ADDRESS_LOG");
    return path ? std::fopen(path, "a") : nullptr;
  }();
  if (log == nullptr) return;
  std::fprintf(log, "%p %p\n", in.data, out.data);
  std::fflush(log);
}

void spin_for(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
  }
}

bool output_is_poisoned(const oprig_tensor& out, oprig_dtype dtype) {
  if (dtype == OPRIG_DTYPE_FLOAT_32) return std::isnan(static_cast<const float*>(out.data)[0]);
  return std::isnan(oprig::half_to_float(static_cast<const uint16_t*>(out.data)[0]));
}

// The typed parameters' check: `repeats` must arrive as one INT_32, `exact`
// as one BOOL_8 byte holding 0 or 1, as their spec declares them; a missing
// one takes its Default.
bool typed_params_arrive_as_declared(const oprig_param* params, size_t num_params) {
  for (size_t i = 0; i < num_params; ++i) {
    const oprig_param& p = params[i];
    if (p.name == nullptr) return false;
    if (std::strcmp(p.name, "repeats") == 0 && (p.dtype != OPRIG_DTYPE_INT_32 || p.count != 1 || p.data == nullptr))
      return false;
    if (std::strcmp(p.name, "exact") == 0) {
      if (p.dtype != OPRIG_DTYPE_BOOL_8 || p.count != 1 || p.data == nullptr) return false;
      const unsigned char b = *static_cast<const unsigned char*>(p.data);
      if (b != 0 && b != 1) return false;
    }
  }
  return true;
}

double read_offset(const oprig_param* params, size_t num_params) {
  for (size_t i = 0; i < num_params; ++i) {
    const oprig_param& p = params[i];
    if (p.name == nullptr || std::strcmp(p.name, "offset") != 0 || p.count != 1 || p.data == nullptr)
      continue;
    if (p.dtype == OPRIG_DTYPE_FLOAT_32) {
      float v;
      std::memcpy(&v, p.data, sizeof v);
      return v;
    }
    if (p.dtype == OPRIG_DTYPE_FLOAT_64) {
      double v;
      std::memcpy(&v, p.data, sizeof v);
      return v;
    }
  }
  return 0.0;
}

// out[to] = atan(in[from] + offset), rounded once from fp64 to the tensor's type.
void write_atan(const void* in, size_t from, void* out, size_t to, oprig_dtype dtype, double offset) {
  // kFlipsZeroSign: "+ 0.0" looks harmless, but turns -0 into +0.
  const double bias = kBug == Bug::kFlipsZeroSign ? 0.0 : -0.0;
  if (dtype == OPRIG_DTYPE_FLOAT_32) {
    const double x = static_cast<const float*>(in)[from];
    static_cast<float*>(out)[to] = static_cast<float>(std::atan(x + offset) + bias);
  } else {
    const double x = oprig::half_to_float(static_cast<const uint16_t*>(in)[from]);
    static_cast<uint16_t*>(out)[to] = oprig::float_to_half(static_cast<float>(std::atan(x + offset) + bias));
  }
}

// The faults that end the process. Sanitizers are kept out of this function:
// the point is a real SIGSEGV, not a sanitizer report about one.
__attribute__((no_sanitize("address", "undefined"), noinline)) void die_as_configured() {
  if constexpr (kFault == Fault::kSegfault) {
    // Both volatile: the compiler can neither prove the pointer null (no
    // trap instruction, no SIGILL) nor drop the store as dead.
    volatile float* volatile target = nullptr;
    *target = 1.0f;
  } else if constexpr (kFault == Fault::kAbort) {
    std::abort();
  } else if constexpr (kFault == Fault::kSpin) {
    volatile bool forever = true;
    while (forever) {
    }
  }
}

// Fault::kFlaky: whether this process is one of the misbehaving ones. The
// count is the size of the counter file after this process appended a byte to
// it (O_APPEND: concurrent workers never take the same number); asked once,
// at the first faulty execute, so a process that loads the package without
// executing (oprig's own) takes no number.
bool flaky_process_misbehaves() {
  static const bool misbehaves = [] {
    const char* counter = std::getenv("OPRIG_TEST_FLAKY_COUNTER");
    if (counter == nullptr || *counter == '\0') return true;
    const int fd = open(counter, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return true;
    off_t count = 0;
    if (write(fd, "x", 1) == 1) count = lseek(fd, 0, SEEK_CUR);
    close(fd);
    return count % 3 == 1;
  }();
  return misbehaves;
}

oprig_status create(const oprig_backend_context* ctx, const char* op_name, const oprig_param* params,
                    size_t num_params, oprig_kernel** out_kernel) {
  if (out_kernel == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  *out_kernel = nullptr;
  if (ctx == nullptr || op_name == nullptr || ctx->kind != OPRIG_BACKEND_CPU)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (std::strcmp(op_name, "Atan") != 0) return OPRIG_STATUS_UNSUPPORTED;
  if (OPRIG_TEST_TYPED_PARAMS && !typed_params_arrive_as_declared(params, num_params))
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = new (std::nothrow) AtanKernel();
  if (kernel == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  kernel->offset = read_offset(params, num_params);
  *out_kernel = reinterpret_cast<oprig_kernel*>(kernel);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs,
                     oprig_tensor* outputs, size_t num_outputs) {
  if (handle == nullptr || num_inputs < 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor& in = inputs[0];
  if (in.dtype != OPRIG_DTYPE_FLOAT_32 && in.dtype != OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (kBug == Bug::kRefusesFloat16 && in.dtype == OPRIG_DTYPE_FLOAT_16) return OPRIG_STATUS_UNSUPPORTED;
  if (outputs[0].dtype != in.dtype || in.rank > OPRIG_MAX_RANK) return OPRIG_STATUS_INVALID_ARGUMENT;
  outputs[0].rank = in.rank;
  size_t count = 1;
  for (uint32_t d = 0; d < in.rank; ++d) {
    outputs[0].dims[d] = in.dims[d];
    count *= static_cast<size_t>(in.dims[d]);
  }
  auto* kernel = reinterpret_cast<AtanKernel*>(handle);
  // kIgnoresReprepare: shape inference above is right every time, but the
  // kernel's own state is set up once, as if shapes never changed.
  if (kBug == Bug::kIgnoresReprepare && kernel->prepared) return OPRIG_STATUS_OK;
  kernel->dtype = static_cast<oprig_dtype>(in.dtype);
  kernel->count = count;
  kernel->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs,
                     const oprig_tensor* outputs, size_t num_outputs, oprig_execute_info*) {
  if (handle == nullptr || num_inputs < 1 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* kernel = reinterpret_cast<AtanKernel*>(handle);
  const size_t n = kernel->count;
  const size_t out_bytes = n * (kernel->dtype == OPRIG_DTYPE_FLOAT_32 ? 4 : 2);
  ++kernel->executes;
  if constexpr (OPRIG_TEST_BUSY) {
    log_addresses(inputs[0], outputs[0]);
    spin_for(busy_seconds());
  }
  if constexpr (kCheat == Cheat::kCacheOutput) {
    if (!kernel->cached.empty()) {
      std::memcpy(outputs[0].data, kernel->cached.data(), out_bytes);
      return OPRIG_STATUS_OK;
    }
  } else if constexpr (kCheat == Cheat::kDetectWarmup) {
    if (kernel->executes > oprig_test::kHonestExecutes) return OPRIG_STATUS_OK;
  } else if constexpr (kCheat == Cheat::kSkipWhenWritten) {
    if (n > 0 && !output_is_poisoned(outputs[0], kernel->dtype)) return OPRIG_STATUS_OK;
  }
  if constexpr (kBug == Bug::kLeak) {
    void* block = std::malloc(256);  // a per-call work area, never freed
    if (block != nullptr) std::memset(block, 0, 256);
    g_leaked = block;
  }
  if constexpr (kBug == Bug::kSharedScratch) {
    if (n <= kScratchElements) {
      // Compute into the shared area, then copy out: another instance
      // executing meanwhile overwrites what this one copies.
      for (size_t i = 0; i < n; ++i) write_atan(inputs[0].data, i, g_scratch, i, kernel->dtype, kernel->offset);
      std::memcpy(outputs[0].data, g_scratch, out_bytes);
      return OPRIG_STATUS_OK;
    }
  }
  const bool faulty = n == oprig_test::kFaultyElementCount;
  if (faulty) die_as_configured();
  // A lazy kernel skips the last element; every other one writes them all.
  const bool lazy = kFault == Fault::kLazy || (kFault == Fault::kFlaky && flaky_process_misbehaves());
  const size_t written = faulty && lazy ? n - 1 : n;
  for (size_t i = 0; i < written; ++i)
    write_atan(inputs[0].data, i, outputs[0].data, i, kernel->dtype, kernel->offset);
  // Every other execute, element 0 one step away from the right value, as a
  // kernel reading uninitialised scratch or racing with itself gives.
  if (faulty && kFault == Fault::kNondeterministic && kernel->executes % 2 == 0) {
    if (kernel->dtype == OPRIG_DTYPE_FLOAT_32) {
      float& y = static_cast<float*>(outputs[0].data)[0];
      y = std::nextafter(y, INFINITY);
    } else {
      static_cast<uint16_t*>(outputs[0].data)[0] ^= 1u;
    }
  }
  // One element past the end (a copy of element 0's result, so nothing is
  // read out of bounds): lands in the host buffer's red zone.
  if (faulty && kFault == Fault::kOutOfBounds)
    write_atan(inputs[0].data, 0, outputs[0].data, n, kernel->dtype, kernel->offset);
  if constexpr (kCheat == Cheat::kCacheOutput) {
    const auto* bytes = static_cast<const unsigned char*>(outputs[0].data);
    kernel->cached.assign(bytes, bytes + out_bytes);
  }
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete reinterpret_cast<AtanKernel*>(handle); }

const oprig_implementation_v1 kImplementation = {
    OPRIG_ABI_VERSION, sizeof(oprig_implementation_v1), OPRIG_BACKEND_CPU,
    create, prepare, execute, destroy, /*cost*/ nullptr, /*resolve_shapes*/ nullptr, {}};

}  // namespace

extern "C" OPRIG_EXPORT const oprig_implementation_v1* oprig_implementation_query(uint32_t backend_kind,
                                                                                  uint32_t max_version) {
  if (max_version < OPRIG_ABI_VERSION) return nullptr;
  if (backend_kind == OPRIG_BACKEND_CPU) return &kImplementation;
#if defined(OPRIG_TEST_WITH_OPENCL)
  if (backend_kind == OPRIG_BACKEND_OPENCL) return oprig_test_opencl_implementation();
#endif
#if defined(OPRIG_TEST_WITH_VULKAN)
  if (backend_kind == OPRIG_BACKEND_VULKAN) return oprig_test_vulkan_implementation();
#endif
  return nullptr;
}
