#include "perf/machine_control.hpp"

#include <algorithm>
#include <cstdio>

namespace oprig::perf {
namespace {

const char* const kControls[] = {"control_copy_ns", "control_compute_ns"};

std::string times(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3fx", ratio);
  return text;
}

}  // namespace

MachineShift machine_shift(const BenchmarkSamples& base, const BenchmarkSamples& next, const RegressionRule& rule) {
  MachineShift shift;
  for (const char* control : kControls) {
    const auto b = base.counter_samples.find(control), n = next.counter_samples.find(control);
    if (b == base.counter_samples.end() || n == next.counter_samples.end()) continue;
    // Quick to see that the machine changed: alpha 0.05 whatever the gate's (a
    // false "the machine changed" only costs a missed alarm).
    RegressionRule liberal = rule;
    liberal.alpha = std::max(rule.alpha, 0.05);
    const SampleComparison c = compare_samples(b->second, n->second, liberal);
    if (c.verdict == ChangeVerdict::kNotEnoughSamples) continue;
    shift.measured = true;
    if (c.verdict == ChangeVerdict::kRegressed && c.ratio.ratio > shift.slower) {
      shift.slower = c.ratio.ratio;
      shift.control = control;
    } else if (c.verdict == ChangeVerdict::kImproved && c.ratio.ratio < shift.faster && shift.slower == 1) {
      shift.faster = c.ratio.ratio;
      shift.control = control;
    }
  }
  if (shift.slower > 1) shift.faster = 1;  // one control slower, the other faster: allow for the slower
  return shift;
}

void allow_for_machine(SampleComparison& c, const MachineShift& shift, const RegressionRule& rule) {
  const double up = 1 + rule.min_effect;
  auto note = [&c](const std::string& text) { c.note = text + (c.note.empty() ? "" : "; " + c.note); };
  if (c.verdict == ChangeVerdict::kRegressed && shift.slower > 1) {
    if (c.ratio.ratio > shift.slower * up) {
      note("slower by more than the machine: " + shift.control + " " + times(shift.slower) + " at the same time");
      return;
    }
    c.verdict = ChangeVerdict::kSame;
    note("not blamed on the kernel: the machine was " + times(shift.slower) + " slower while it ran (" +
         shift.control + "), and " + times(c.ratio.ratio) + " is not above " + times(shift.slower * up));
  } else if (c.verdict == ChangeVerdict::kImproved && shift.faster < 1) {
    if (c.ratio.ratio < shift.faster / up) return;
    c.verdict = ChangeVerdict::kSame;
    note("not credited to the kernel: the machine was " + times(shift.faster) + " as slow while it ran (" +
         shift.control + ")");
  }
}

}  // namespace oprig::perf
