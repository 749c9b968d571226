// The lifecycle passes: what a case run by one kernel instance on one shape
// cannot show, run on a group's anchor case (lifecycle_plan.hpp) once it
// passed on its own. Each compares with what a single instance computes
// alone (bit for bit, as the two poisoned runs of every case already demand):
//  - re-prepare: one instance prepared again and again, through the
//    companions' shapes (smallest first), the anchor's and back to the first
//    (the ABI calls prepare whenever input shapes change); each step's
//    outputs must equal a fresh instance's on those inputs, its inferred
//    shapes too, and its red zones must stay intact;
//  - concurrency: up to 4 instances (the anchor's shape and a companion's,
//    each with two input contents) execute at once on as many threads, in
//    rounds until their kernel executes overlapped in time; every result
//    must equal the same instance's alone (the ABI lets different instances
//    run concurrently, so kernels keep no shared mutable state);
//  - memory: one instance executes in rounds while the heap in use is
//    measured (heap_usage.hpp); growth in every one of 6 rounds, at least
//    kLeakBytesPerExecute per execute each time, is a per-execute leak.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "cases/case.hpp"
#include "cases/tensor_data.hpp"
#include "oprig/oprig_package.h"
#include "runner/abi_params.hpp"

namespace oprig::harness {

struct OpContext;

inline constexpr size_t kLifecycleInstances = 4;
inline constexpr size_t kLeakRounds = 6;
inline constexpr size_t kLeakExecutesPerRound = 8;
inline constexpr size_t kLeakBytesPerExecute = 16;  // below one malloc'd chunk a call: allocator noise

struct LifecycleSubject {
  const Case& anchor;
  const OpContext& op;
  Backend& backend;
  const oprig_implementation_v1& impl;
  const AbiParams& params;
  const std::vector<TensorData>& inputs;              // the anchor's
  const std::vector<oprig_tensor>& prepared_outputs;  // the anchor's outputs as prepare() described them
  const std::vector<std::vector<std::byte>>& alone;   // the anchor's outputs from its single instance
  const std::vector<const Case*>& companions;         // same op, backend, types and params; other shapes
  std::function<void(const char*)> phase;             // may be empty
};

// Runs the passes; returns what failed ("" when every pass holds), each
// problem naming its pass and cause. Never throws for a kernel's misbehaviour.
std::string run_lifecycle_checks(const LifecycleSubject& subject);

}  // namespace oprig::harness
