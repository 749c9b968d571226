#include "bench/integrity_check.hpp"

#include "compare/comparator.hpp"
#include "core/dtype.hpp"
#include "package/loader.hpp"
#include "runner/case_executor.hpp"

namespace oprig::harness {
namespace {

// Executes on input set `set` with every output byte 0xFF first (NaN in
// every float type), so an output the kernel does not write is wrong.
// Empty when the outputs match `expected`, else what differs.
std::string execute_and_compare(BenchKernel& k, size_t set, const std::vector<Expected>& expected) {
  for (size_t i = 0; i < k.out_buffers.size(); ++i)
    k.backend->write(*k.out_buffers[i], std::vector<std::byte>(k.out_bytes[i], std::byte{0xFF}));
  const ExecuteSample s = k.execute(set);
  if (s.status != OPRIG_STATUS_OK) return "execute() returned " + status_name(s.status);
  std::string problems;
  for (size_t i = 0; i < k.out_buffers.size(); ++i) {
    const CaseTensor& t = k.c.outputs[i];
    const compare::Tolerance* tolerance = find_tolerance(k.op->context, k.c.fill, t.name, t.type.dtype);
    if (tolerance == nullptr) continue;  // the correctness run has said so already
    std::vector<std::byte> got(k.out_bytes[i]);
    k.backend->read(*k.out_buffers[i], got);
    compare::OutputTensor out;
    out.dtype = t.type.dtype;
    out.bytes = got;
    out.shape = expected[i].shape;
    out.scale = static_cast<float>(t.quant.scale);
    out.zero_point = t.quant.zero_point;
    const compare::Comparison cmp = compare::compare_output(out, expected[i].values, *tolerance);
    if (cmp.verdict == Verdict::kFailed)
      problems += (problems.empty() ? "" : "; ") + ("output " + t.name + ": ") + cmp.message;
  }
  return problems;
}

}  // namespace

IntegrityVerdict check_after_timing(BenchKernel& k, uint64_t executes_so_far) {
  const std::string n = std::to_string(executes_so_far);
  try {
    if (std::string wrong = execute_and_compare(k, 0, k.input_sets.front().expected); !wrong.empty())
      return {false, "MISTRUSTED timing: after the timed loop (" + n + " executes) the output on the inputs it was "
                     "timed with is wrong: the kernel behaves differently after the warm-up (it stops computing once "
                     "called often enough); " + wrong};
    InputSet fresh;
    std::string why;
    if (!make_input_set(k, varied_seed(k.c.seed, 2), true, fresh, &why)) return {};  // the op allows no other contents
    fresh.buffers = std::move(k.input_sets.front().buffers);
    upload_input_set(k, fresh);
    std::swap(k.input_sets.front(), fresh);
    if (std::string wrong = execute_and_compare(k, 0, k.input_sets.front().expected); !wrong.empty())
      return {false, "MISTRUSTED timing: on fresh input contents after the timed loop the kernel returned a stale "
                     "result: it caches outputs across executes; " + wrong};
  } catch (const std::exception& e) {
    return {false, std::string("MISTRUSTED timing: the check after the timed loop failed: ") + e.what()};
  }
  return {};
}

}  // namespace oprig::harness
