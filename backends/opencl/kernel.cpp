// Running one kernel instance: the package enqueues, the backend waits and
// takes device time from the profiling info of the events it handed back.
#include <stdexcept>

#include "error.hpp"
#include "opencl_backend.hpp"
#include "timer.hpp"

namespace oprig::opencl {

oprig_status OpenCLBackend::execute(const oprig_implementation_v1& impl, oprig_kernel* kernel,
                                    std::span<const oprig_tensor> inputs,
                                    std::span<const oprig_tensor> outputs, ExecTiming& timing) {
  timing = ExecTiming{};
  oprig_execute_info info{};
  info.struct_size = sizeof info;
  const oprig_status status =
      impl.execute(kernel, inputs.data(), inputs.size(), outputs.data(), outputs.size(), &info);
  cl_event first = static_cast<cl_event>(info.cl_first_event);
  cl_event last = static_cast<cl_event>(info.cl_last_event);
  // One reference per pointer, whatever happens next.
  struct Release {
    cl_event first, last;
    ~Release() {
      if (first != nullptr) clReleaseEvent(first);
      if (last != nullptr) clReleaseEvent(last);
    }
  } release{first, last};

  if (last != nullptr) {
    if (clWaitForEvents(1, &last) != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
  } else if (clFinish(queue_) != CL_SUCCESS) {
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  if (status != OPRIG_STATUS_OK) return status;

  if (first != nullptr && last != nullptr) {
    cl_int state = CL_COMPLETE;
    clGetEventInfo(last, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, nullptr);
    if (state < 0) return OPRIG_STATUS_BACKEND_ERROR;  // the command failed on the device
    try {
      timing.compute_ns = profiled_span_ns(first, last);
    } catch (const std::runtime_error&) {
      return OPRIG_STATUS_BACKEND_ERROR;
    }
  }
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::opencl
