#include "timer.hpp"

#include "error.hpp"

namespace oprig::opencl {

double profiled_span_ns(cl_event first, cl_event last) {
  cl_ulong start = 0;
  cl_ulong end = 0;
  check(clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
        "clGetEventProfilingInfo(CL_PROFILING_COMMAND_START)");
  check(clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
        "clGetEventProfilingInfo(CL_PROFILING_COMMAND_END)");
  return end > start ? static_cast<double>(end - start) : 0.0;
}

}  // namespace oprig::opencl
