// Built OpenCL programs shared by every kernel instance of the process, per
// (context, device, source, build options): a program is built once (PoCL
// takes about a second per build), then each instance makes its own
// cl_kernel from it. Why this global state is safe (the ABI asks kernels to
// keep no hidden global mutable state): a built cl_program is immutable and
// may be shared between threads; the cache is guarded by a mutex held during
// the build; each entry keeps a reference to its program, and through it to
// its context, until the process ends, so a context's address is never
// reused while an entry names it. Atan keeps its own cache (atan/opencl.cpp).
#pragma once

#include <CL/cl.h>

#include <string>

namespace oprig::opsuite {

// The program (owned by the cache; do not release) or nullptr after printing
// the build log to stderr (the ABI has no message channel from create).
cl_program cached_program(cl_context context, cl_device_id device, const unsigned char* source,
                          size_t source_size, const std::string& options, const char* what);

// Device capabilities the kernels choose their paths by.
bool device_has_fp64(cl_device_id device);
bool device_divides_correctly(cl_device_id device);  // CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT

}  // namespace oprig::opsuite
