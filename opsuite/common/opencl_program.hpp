// Built OpenCL programs shared by every kernel instance of the process, per
// (context, device, source, build options): a program is built once (PoCL
// takes about a second per build), then each instance makes its own
// cl_kernel from it. Why this global state is safe (the ABI asks kernels to
// keep no hidden global mutable state): a built cl_program is immutable and
// may be shared between threads; the cache is guarded by a mutex held during
// the build; each entry keeps a reference to its program, and through it to
// its context, until the process ends, so a context's address is never
// reused while an entry names it. Atan keeps its own cache (atan/opencl.cpp).
// Also the enqueue bookkeeping of one execute (ClEnqueue), a kernel's own
// device buffers (ClScratch) and argument setting (set_kernel_args).
#pragma once

#include <CL/cl.h>

#include <string>

#include "oprig/oprig_package.h"

namespace oprig::opsuite {

// The program (owned by the cache; do not release) or nullptr after printing
// the build log to stderr (the ABI has no message channel from create).
cl_program cached_program(cl_context context, cl_device_id device, const unsigned char* source,
                          size_t source_size, const std::string& options, const char* what);

// Device capabilities the kernels choose their paths by.
bool device_has_fp64(cl_device_id device);
bool device_divides_correctly(cl_device_id device);  // CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT
// The most work-items a work-group of `kernel` may have on `device`.
size_t max_work_group_size(cl_kernel kernel, cl_device_id device);

// Sets the arguments of `kernel` from index 0, in order (each by its size
// and address: cl_mem, scalars, vector types); false if any call fails.
template <class... Args>
bool set_kernel_args(cl_kernel kernel, const Args&... args) {
  cl_uint index = 0;
  cl_int err = CL_SUCCESS;
  ((err |= clSetKernelArg(kernel, index++, sizeof(Args), &args)), ...);
  return err == CL_SUCCESS;
}
// A __local argument of `bytes` at `index`.
inline bool set_local_arg(cl_kernel kernel, cl_uint index, size_t bytes) {
  return clSetKernelArg(kernel, index, bytes, nullptr) == CL_SUCCESS;
}

// The commands one execute() enqueues, without waiting: the host is handed
// the first and the last event (retained, as the ABI asks) and takes the
// device time between them; events in between are released here.
class ClEnqueue {
 public:
  explicit ClEnqueue(cl_command_queue queue) : queue_(queue) {}
  ~ClEnqueue();
  ClEnqueue(const ClEnqueue&) = delete;
  ClEnqueue& operator=(const ClEnqueue&) = delete;

  // clEnqueueNDRangeKernel over `dims` dimensions; `local` may be nullptr.
  // A zero-sized range enqueues nothing.
  oprig_status kernel(cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local = nullptr);
  // Fills `bytes` of `buffer` from `offset` with a repeated pattern.
  oprig_status fill(cl_mem buffer, const void* pattern, size_t pattern_bytes, size_t offset, size_t bytes);
  // Hands the first and last events to the host (both NULL when nothing was
  // enqueued). Call once, after the last command.
  void finish(oprig_execute_info* info);

 private:
  cl_command_queue queue_;
  cl_event first_ = nullptr, last_ = nullptr;
  oprig_status keep(cl_int err, cl_event event);
};

// A device buffer a kernel instance owns (intermediate results between its
// own kernels, never seen by the host).
class ClScratch {
 public:
  ClScratch() = default;
  ~ClScratch();
  ClScratch(const ClScratch&) = delete;
  ClScratch& operator=(const ClScratch&) = delete;
  // Makes the buffer at least `bytes` long (at least 4); keeps a large enough one.
  oprig_status reserve(cl_context context, size_t bytes);
  cl_mem get() const { return buffer_; }

 private:
  cl_mem buffer_ = nullptr;
  size_t size_ = 0;
};

}  // namespace oprig::opsuite
