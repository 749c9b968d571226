// OpenCL error codes as text, and the one way this backend fails: an exception
// naming the call and the code (Backend's allocate/write/read have no status).
#pragma once

#include <CL/cl.h>

#include <string>

namespace oprig::opencl {

// "CL_OUT_OF_RESOURCES", or "OpenCL error -9999" for codes it does not know.
std::string error_name(cl_int code);

// Throws std::runtime_error("<call>: <error_name>") when code != CL_SUCCESS.
void check(cl_int code, const char* call);

}  // namespace oprig::opencl
