// Device time from profiling events (the queue has CL_QUEUE_PROFILING_ENABLE).
#pragma once

#include <CL/cl.h>

namespace oprig::opencl {

// END of `last` minus START of `first`, in ns, for completed events. Throws
// std::runtime_error when the profiling info is unavailable.
double profiled_span_ns(cl_event first, cl_event last);

// Owns one reference to an event (the ones this backend enqueues for copies).
class ScopedEvent {
 public:
  ScopedEvent() = default;
  ~ScopedEvent() {
    if (event_ != nullptr) clReleaseEvent(event_);
  }
  ScopedEvent(const ScopedEvent&) = delete;
  ScopedEvent& operator=(const ScopedEvent&) = delete;
  cl_event* out() { return &event_; }
  cl_event get() const { return event_; }

 private:
  cl_event event_ = nullptr;
};

}  // namespace oprig::opencl
