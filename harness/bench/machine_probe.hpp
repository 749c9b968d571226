// Two fixed host workloads timed right before every benchmark repetition,
// written beside it as the counters control_copy_ns and control_compute_ns.
//
// Why: on a shared machine the memory system and the core go through spells
// of minutes in which the same kernel is up to 1.9x slower (measured here:
// a copy-like kernel at 0.35 ms for several runs, then 0.66 ms for several;
// within one run its repetitions agree). Two runs of one build then differ
// by more than any regression threshold, and nothing inside a run can
// sample a spell that has not started yet. These controls are code that
// never changes between builds: when they slowed down between two runs, the
// machine did, and `oprig compare` does not blame the kernel for a slowdown
// the controls measured at the same moment (perf/machine_control.hpp).
#pragma once

#include <cstddef>
#include <vector>

namespace oprig::harness {

struct ProbeSample {
  double copy_ns = 0;     // memcpy of a buffer past the last-level cache: memory bandwidth
  double compute_ns = 0;  // a dependent floating-point chain: the core's speed
};

class MachineProbe {
 public:
  // Buffers of `copy_bytes` each, touched here so no measurement pays page faults.
  explicit MachineProbe(size_t copy_bytes = size_t{32} << 20);
  // The faster of two tries of each workload (about 10 ms in all here).
  ProbeSample measure();

 private:
  std::vector<unsigned char> source_, target_;
};

}  // namespace oprig::harness
