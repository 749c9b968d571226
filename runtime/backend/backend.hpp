// The one interface every backend implements. A backend owns a device: it
// allocates real device memory, moves bytes, hands kernels its native handles
// through the package ABI and times executions with the device's own clock
// where it has one. The runtime (runtime/graph) uses it, so it lives here;
// backends/ implements it (device glue only) and op code lives in opsuite/.
// Creating a backend by name is backends/registry.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "oprig/oprig_package.h"

namespace oprig {

struct DeviceInfo {
  std::string backend;         // "cpu", "opencl", "vulkan", "dsp"
  bool available = false;
  std::string unavailable_reason;  // when !available: what is missing, e.g. "no OpenCL platform (ICD loader found none)"
  std::string device_name;     // e.g. "pthread-haswell-AMD EPYC ...", "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::string vendor;
  std::string driver_version;  // e.g. "PoCL 3.1", "Mesa 22.3.6"
  std::string api_version;     // e.g. "OpenCL 3.0", "Vulkan 1.3.230"
  std::vector<oprig_dtype> dtypes;  // element types its kernels may use (fp16 only when the device has it)
  bool deterministic = true;   // repeated runs are bitwise identical
  bool device_timer = false;   // compute time comes from the device clock / cost model, not host wall time
};

// Where the time of one execution went, in nanoseconds. compute_ns is device
// time when DeviceInfo::device_timer, else host wall time around execute.
struct ExecTiming {
  double compute_ns = 0;
  uint64_t sim_cycles = 0;  // dsp only
  // When execute() fails: what the backend saw beyond the status (dsp: the
  // simulator's fault, naming the instruction, the address and the tensor).
  std::string failure;
};

// Writes found in one guard band of a buffer. Offsets are in bytes relative to
// the tensor's first byte: negative before it, bytes() or more after it.
struct GuardDamage {
  bool before = false;   // the band before the tensor (else the one after it)
  int64_t first = 0;     // first changed byte
  int64_t last = 0;      // last changed byte
  size_t changed = 0;    // bytes that differ from the pattern
  bool unreadable = false;  // the band could not be read back (so cannot be vouched for)
};

// "red zone after the tensor written: bytes 28..31 (4 bytes changed; the tensor is bytes 0..27)".
std::string guard_damage_text(const GuardDamage& damage, size_t tensor_bytes);

// Compares the bytes of a whole allocation (guards and tensor) with its guard
// pattern: `expected(i)` is the guard byte at allocation offset i; the tensor
// is [tensor_offset, tensor_offset + tensor_bytes). One entry per damaged band.
std::vector<GuardDamage> find_guard_damage(std::span<const std::byte> allocation, size_t tensor_offset,
                                           size_t tensor_bytes, const std::function<std::byte(size_t)>& expected);

// A region of device memory with guard bands (red zones) on both sides.
class DeviceBuffer {
 public:
  virtual ~DeviceBuffer() = default;
  virtual size_t bytes() const = 0;
  // Sets tensor.data / offset / bytes so a kernel sees exactly this region.
  virtual void bind(oprig_tensor& tensor) const = 0;
  // What was written into the guard bands since allocation: empty when intact.
  virtual std::vector<GuardDamage> guard_damage() const = 0;
  bool guards_intact() const { return guard_damage().empty(); }
};

// An ordered stream of device work, for running graphs with operands resident
// in device memory: kernels are enqueued without waiting for each one, and
// copies, writes and reads are ordered after everything enqueued before them.
// read() returns once the bytes are on the host (it waits for the work before
// it). Methods without a status throw std::runtime_error when the device
// refuses. One stream is used by one thread at a time; several streams of one
// backend may be used from several threads.
class DeviceStream {
 public:
  virtual ~DeviceStream() = default;
  // Starts impl.execute for one kernel instance. A kernel instance is never
  // enqueued twice before the stream has waited for the first (a stream that
  // batches work waits first when asked to), so a kernel may update its own
  // state (descriptor sets, kernel arguments) at every execute.
  virtual oprig_status enqueue(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                               std::span<const oprig_tensor> inputs,
                               std::span<const oprig_tensor> outputs) = 0;
  // Device-to-device copy of the first `bytes` of the tensors.
  virtual void copy(const DeviceBuffer& src, DeviceBuffer& dst, size_t bytes) = 0;
  virtual void write(DeviceBuffer& dst, std::span<const std::byte> src) = 0;
  virtual void read(const DeviceBuffer& src, std::span<std::byte> dst) = 0;
  // Waits for everything enqueued; the status of the first kernel that failed
  // on the device since the last finish(), else OK.
  virtual oprig_status finish() = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual oprig_backend_kind kind() const = 0;
  virtual const DeviceInfo& info() const = 0;
  // Handles for kernels; valid for the backend's lifetime.
  virtual const oprig_backend_context& context() const = 0;

  virtual std::unique_ptr<DeviceBuffer> allocate(size_t bytes) = 0;
  // Blocking copies; return the time they took in ns (device-timed where possible).
  virtual double write(DeviceBuffer& dst, std::span<const std::byte> src) = 0;
  virtual double read(const DeviceBuffer& src, std::span<std::byte> dst) = 0;

  // Runs impl.execute for one kernel instance, waits for completion and times it.
  // Returns the kernel's status; timing is filled when the status is OK
  // (and timing.failure may say more when it is not).
  virtual oprig_status execute(const oprig_implementation_v1& impl,
                               oprig_kernel* kernel,
                               std::span<const oprig_tensor> inputs,
                               std::span<const oprig_tensor> outputs,
                               ExecTiming& timing) = 0;

  // A stream for graph execution. The default runs each kernel with
  // execute() (waiting for it) and copies device to device through the host;
  // backends with a queue (opencl, vulkan) batch instead.
  virtual std::unique_ptr<DeviceStream> open_stream();
};

// Names of the backend kinds: "cpu", "opencl", "vulkan", "dsp".
oprig_backend_kind backend_kind_from_name(std::string_view name);  // 0 cast when unknown
std::string_view backend_name(oprig_backend_kind kind);            // "unknown" when unknown

}  // namespace oprig
