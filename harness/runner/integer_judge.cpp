#include "runner/integer_judge.hpp"

#include <cmath>
#include <stdexcept>

#include "cases/tensor_data.hpp"
#include "common/integer_reference.hpp"
#include "runner/case_executor.hpp"

namespace oprig::harness {
namespace {

const opsuite::IntegerReferenceOp* integer_reference_for(const Case& c, const OpContext& op) {
  if (op.plan == nullptr || op.plan->integer_rule.empty()) return nullptr;
  const OracleKind oracle = oracle_for(c, op);
  if (oracle != OracleKind::kReference && oracle != OracleKind::kBackend) return nullptr;
  bool quantized = false;
  for (const CaseTensor& t : c.outputs) quantized = quantized || t.type.quantized;
  return quantized ? opsuite::find_integer_reference(c.op) : nullptr;
}

// The first element where two code vectors differ by more than `allowed`, as text; "" when none.
std::string first_difference(const std::vector<double>& got, const std::vector<double>& want, double allowed,
                             const char* got_name, const char* want_name) {
  size_t count = 0, first = 0;
  double worst = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double d = std::fabs(got[i] - want[i]);
    if (d > allowed) {
      if (count++ == 0) first = i;
      worst = std::max(worst, d);
    }
  }
  if (count == 0) return "";
  return std::to_string(count) + " of " + std::to_string(want.size()) + " codes differ (at most " +
         std::to_string(static_cast<long long>(worst)) + " LSB); first at element " + std::to_string(first) + ": " +
         got_name + " " + std::to_string(static_cast<long long>(got[first])) + ", " + want_name + " " +
         std::to_string(static_cast<long long>(want[first]));
}

}  // namespace

std::string integer_oracle_suffix(const Case& c, const OpContext& op) {
  return integer_reference_for(c, op) != nullptr ? " + integer reference (0 LSB)" : "";
}

std::optional<IntegerJudgement> judge_integer_reference(const Case& c, const OpContext& op,
                                                        const std::vector<TensorData>& inputs,
                                                        const std::vector<Expected>& fp64,
                                                        const std::vector<std::vector<std::byte>>& got) {
  const opsuite::IntegerReferenceOp* ref = integer_reference_for(c, op);
  if (ref == nullptr) return std::nullopt;
  ReferenceTensors tensors = reference_tensors(c, inputs, true);
  std::vector<opsuite::RefTensor>& ref_out = tensors.outputs;
  try {
    if (!ref->compute(tensors.inputs, opsuite::RefParams(reference_params(c, *op.space)), ref_out)) return std::nullopt;
  } catch (const std::exception& e) {
    return IntegerJudgement{Verdict::kInvalidSpec, std::string("the integer reference of ") + c.op +
                                                       " rejects this case: " + e.what()};
  }
  const bool from_fp64 = oracle_for(c, op) == OracleKind::kReference;
  IntegerJudgement judgement;
  for (size_t k = 0; k < c.outputs.size(); ++k) {
    const std::string name = c.outputs.size() > 1 ? "output " + c.outputs[k].name + ": " : "";
    const std::vector<double>& want = ref_out[k].values;
    if (ref_out[k].shape != fp64[k].shape || want.size() != fp64[k].values.size())
      return IntegerJudgement{Verdict::kInvalidSpec, name + "the integer reference's shape " + shape_text(ref_out[k].shape) +
                                                         " differs from the fp64 reference's " + shape_text(fp64[k].shape)};
    // Against another backend's outputs (--reference-backend) there is no fp64 figure to cross-check.
    if (const std::string bug = from_fp64 ? first_difference(want, fp64[k].values, 1, "integer reference", "fp64 reference")
                                          : std::string();
        !bug.empty())
      return IntegerJudgement{Verdict::kInvalidSpec,
                              name + "reference bug: the integer and fp64 references differ by more than 1 LSB: " + bug};
    TensorData as_data;
    as_data.dtype = c.outputs[k].type.dtype;
    as_data.shape = ref_out[k].shape;
    as_data.bytes = got[k];
    const std::vector<double> codes = stored_values(as_data);
    if (codes.size() != want.size())
      return IntegerJudgement{Verdict::kFailed, name + "the kernel wrote " + std::to_string(codes.size()) +
                                                    " codes, the integer reference has " + std::to_string(want.size())};
    if (const std::string off = first_difference(codes, want, 0, "kernel", "integer reference"); !off.empty()) {
      judgement.verdict = Verdict::kFailed;
      judgement.message += (judgement.message.empty() ? "" : "; ") + name + "not bit-exact to the integer reference (" +
                           op.plan->integer_rule + "): " + off;
    }
  }
  return judgement;
}

}  // namespace oprig::harness
