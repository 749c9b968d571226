#include "runner/oracle.hpp"

#include <cstring>

#include "cases/tensor_data.hpp"
#include "core/dtype.hpp"
#include "core/npy.hpp"
#include "runner/abi_params.hpp"
#include "runner/case_executor.hpp"
#include "runner/kernel_session.hpp"

namespace oprig::harness {
namespace {

void phase(const BackendContext* be, const char* what) {
  if (be != nullptr && be->phase) be->phase(what);
}

std::vector<Expected> golden_outputs(const Case& c) {
  std::vector<Expected> out;
  for (const CaseTensor& t : c.outputs) {
    const NpyArray a = read_npy(std::filesystem::path(c.golden_dir) / t.file);
    TensorData as_data;
    as_data.dtype = a.dtype;
    as_data.shape = a.shape;
    as_data.bytes = a.data;
    out.push_back({a.shape, stored_values(as_data)});
  }
  return out;
}

size_t element_count(const oprig_tensor& t) {
  size_t n = 1;
  for (uint32_t d = 0; d < t.rank; ++d) n *= static_cast<size_t>(t.dims[d]);
  return n;
}

// The package's host reference, never trusted blindly: its shapes must be
// whole, every output element written (outputs are poisoned with NaN or a
// code pattern first), and a crash is charged to it (the worker's phase).
std::vector<Expected> package_outputs(const Case& c, const OpContext& op, const BackendContext* be,
                                      const std::vector<TensorData>& inputs) {
  const oprig_reference_v1& ref = *op.package_reference;
  const bool f64 = ref.precision == OPRIG_REFERENCE_FLOAT_64;
  const AbiParams params(c.params, *op.space);
  std::vector<std::vector<std::byte>> in_bytes;
  std::vector<oprig_tensor> in;
  for (const TensorData& t : inputs) {
    oprig_tensor d = describe_tensor(t);
    if (t.present && f64) {
      const std::vector<double> real = real_values(t);
      in_bytes.emplace_back(real.size() * sizeof(double));
      if (!real.empty()) std::memcpy(in_bytes.back().data(), real.data(), in_bytes.back().size());
    } else {
      in_bytes.push_back(t.bytes);
    }
    d.data = t.present && !in_bytes.back().empty() ? in_bytes.back().data() : nullptr;
    d.bytes = in_bytes.back().size();
    in.push_back(d);
  }
  std::vector<oprig_tensor> out;
  for (const CaseTensor& t : c.outputs) {
    oprig_tensor d{};
    d.dtype = t.type.dtype;
    d.scale = static_cast<float>(t.quant.scale);
    d.zero_point = t.quant.zero_point;
    out.push_back(d);
  }
  phase(be, "the package's reference: shapes()");
  oprig_status s = ref.shapes(c.op.c_str(), params.data(), params.size(), in.data(), in.size(), out.data(), out.size());
  if (s == OPRIG_STATUS_UNSUPPORTED)
    throw OracleError(Verdict::kSkipped, "the package's reference has no answer for this case (shapes() returned UNSUPPORTED)");
  if (s == OPRIG_STATUS_INVALID_ARGUMENT)
    throw OracleError(op.plan->derived ? Verdict::kSkipped : Verdict::kInvalidSpec,
                      "invalid node: the package's reference rejects it (shapes() returned INVALID_ARGUMENT)" +
                          std::string(op.plan->derived ? "; the plan was derived from the spec, so the node is left out, not failed" : ""));
  if (s != OPRIG_STATUS_OK)
    throw OracleError(Verdict::kFailed, "the package's reference: shapes() returned " + status_name(s));
  std::vector<std::vector<std::byte>> out_bytes;
  for (size_t k = 0; k < out.size(); ++k) {
    if (out[k].rank > OPRIG_MAX_RANK)
      throw OracleError(Verdict::kFailed, "the package's reference: shapes() gave output " + c.outputs[k].name + " rank " +
                                              std::to_string(out[k].rank));
    for (uint32_t d = 0; d < out[k].rank; ++d)
      if (out[k].dims[d] < 0)
        throw OracleError(Verdict::kFailed, "the package's reference: shapes() left output " + c.outputs[k].name +
                                                " dimension " + std::to_string(d) + " unknown");
    const size_t esize = f64 ? sizeof(double) : dtype_size(c.outputs[k].type.dtype);
    // Poison: NaN for fp64, 0xA5 bytes for native; any element still equal to
    // it afterwards was not written (a legitimate NaN would be flagged too, so
    // fp64 poison is a NaN with a payload no arithmetic produces).
    out_bytes.emplace_back(element_count(out[k]) * esize);
    if (f64) {
      const uint64_t poison = 0x7ff4dead5a5a5a5aull;
      for (size_t i = 0; i < out_bytes.back().size(); i += 8) std::memcpy(out_bytes.back().data() + i, &poison, 8);
    } else {
      std::memset(out_bytes.back().data(), 0xA5, out_bytes.back().size());
    }
    out[k].data = out_bytes.back().empty() ? nullptr : out_bytes.back().data();
    out[k].bytes = out_bytes.back().size();
  }
  phase(be, "the package's reference: compute()");
  s = ref.compute(c.op.c_str(), params.data(), params.size(), in.data(), in.size(), out.data(), out.size());
  if (s != OPRIG_STATUS_OK) throw OracleError(Verdict::kFailed, "the package's reference: compute() returned " + status_name(s));
  std::vector<Expected> expected;
  for (size_t k = 0; k < out.size(); ++k) {
    const CaseTensor& t = c.outputs[k];
    Expected e;
    e.shape.assign(out[k].dims, out[k].dims + out[k].rank);
    const size_t n = element_count(out[k]);
    if (f64) {
      e.values.resize(n);
      if (n) std::memcpy(e.values.data(), out_bytes[k].data(), n * sizeof(double));
      size_t unwritten = 0;
      for (size_t i = 0; i < n; ++i) {
        uint64_t bits;
        std::memcpy(&bits, out_bytes[k].data() + i * 8, 8);
        if (bits == 0x7ff4dead5a5a5a5aull) ++unwritten;
      }
      if (unwritten)
        throw OracleError(Verdict::kFailed, "the package's reference left " + std::to_string(unwritten) + " of " +
                                                std::to_string(n) + " elements of output " + t.name + " unwritten");
      if (t.type.quantized) e.values = quantize_reference(e.values, t.type.dtype, t.quant);
      else if (!dtype_is_float(t.type.dtype))
        for (double& v : e.values) v = to_dtype_value(v, t.type.dtype);
    } else {
      TensorData as_data;
      as_data.dtype = t.type.dtype;
      as_data.shape = e.shape;
      as_data.bytes = out_bytes[k];
      e.values = stored_values(as_data);
    }
    expected.push_back(std::move(e));
  }
  return expected;
}

// The package's own kernel on the reference backend, on the same inputs.
std::vector<Expected> backend_outputs(const Case& c, const OpContext& op, const BackendContext* be,
                                      const std::vector<TensorData>& inputs) {
  if (be == nullptr || be->reference_backend == nullptr)
    throw OracleError(Verdict::kSkipped, "reference backend " + op.reference_backend + " is unavailable" +
                                             (be ? ": " + be->reference_unavailable : std::string()));
  if (be->reference_implementation == nullptr)
    throw OracleError(Verdict::kSkipped, "the package has no " + op.reference_backend + " kernel to judge against: " +
                                             be->reference_unavailable);
  const DeviceInfo& info = be->reference_backend->info();
  for (const std::vector<CaseTensor>* list : {&c.inputs, &c.outputs})
    for (const CaseTensor& t : *list)
      if (t.present && std::find(info.dtypes.begin(), info.dtypes.end(), t.type.dtype) == info.dtypes.end())
        throw OracleError(Verdict::kSkipped, std::string(dtype_name(t.type.dtype)) + " is not available on the reference backend " +
                                                 op.reference_backend);
  const AbiParams abi(c.params, *op.space);  // the same typed parameters the kernel under test gets
  std::vector<HostTensor> host_in;
  for (const TensorData& t : inputs) {
    if (!t.present) {
      host_in.push_back(HostTensor::absent());
      continue;
    }
    HostTensor h;
    h.dtype = t.dtype;
    h.shape = t.shape;
    h.bytes = t.bytes;
    h.scale = static_cast<float>(t.quant.scale);
    h.zero_point = t.quant.zero_point;
    host_in.push_back(std::move(h));
  }
  std::vector<oprig_tensor> out;
  for (const CaseTensor& t : c.outputs) {
    oprig_tensor d{};
    d.dtype = t.type.dtype;
    d.scale = static_cast<float>(t.quant.scale);
    d.zero_point = t.quant.zero_point;
    out.push_back(d);
  }
  phase(be, ("the reference backend " + op.reference_backend).c_str());
  KernelSession session(*be->reference_backend, *be->reference_implementation, c.op, abi.data(), abi.size(),
                        std::move(host_in), std::move(out));
  if (session.create_status() == OPRIG_STATUS_UNSUPPORTED || session.prepare_status() == OPRIG_STATUS_UNSUPPORTED)
    throw OracleError(Verdict::kSkipped, "the reference backend " + op.reference_backend + " has no kernel for this case (" +
                                             session.error() + ")");
  if (!session.ok()) {
    // A plan derived from the spec guesses shapes: the reference kernel rejecting
    // them says the guess is not a valid node, not that anything is broken.
    const bool rejected = session.create_status() == OPRIG_STATUS_INVALID_ARGUMENT ||
                          session.prepare_status() == OPRIG_STATUS_INVALID_ARGUMENT;
    throw OracleError(rejected && op.plan->derived ? Verdict::kSkipped : Verdict::kFailed,
                      "the reference backend " + op.reference_backend + ": " + session.error() +
                          (rejected && op.plan->derived ? " (the plan was derived from the spec: write plan.json to choose valid shapes)" : ""));
  }
  const oprig_status s = session.run();
  if (s != OPRIG_STATUS_OK)
    throw OracleError(Verdict::kFailed, "the reference backend " + op.reference_backend + ": execute() returned " + status_name(s));
  std::vector<Expected> expected;
  for (size_t k = 0; k < c.outputs.size(); ++k) {
    const HostTensor h = session.output(k);
    TensorData as_data;
    as_data.dtype = h.dtype;
    as_data.shape = h.shape;
    as_data.bytes = h.bytes;
    expected.push_back({h.shape, stored_values(as_data)});
  }
  return expected;
}

}  // namespace

OracleKind oracle_for(const Case& c, const OpContext& op) {
  if (!c.golden_dir.empty()) return OracleKind::kGolden;
  if (!op.reference_backend.empty() && c.backend != op.reference_backend) return OracleKind::kBackend;
  if (op.reference != nullptr) return OracleKind::kReference;
  if (op.package_reference != nullptr) return OracleKind::kPackage;
  return OracleKind::kNone;
}

std::string oracle_name(const Case& c, const OpContext& op) {
  switch (oracle_for(c, op)) {
    case OracleKind::kGolden: return "golden (" + c.golden_dir + ")";
    case OracleKind::kReference:
      return op.reference_requested ? "oprig fp64 reference of its own " + c.op + " (--bundled-reference)"
                                    : std::string("oprig fp64 reference");
    case OracleKind::kPackage:
      return std::string("package reference (") +
             (op.package_reference->precision == OPRIG_REFERENCE_FLOAT_64 ? "fp64" : "native types") + ")" +
             (op.package_name.empty() ? "" : " of " + op.package_name);
    case OracleKind::kBackend: return "backend " + op.reference_backend;
    case OracleKind::kNone: break;
  }
  return "none";
}

ReferenceTensors reference_tensors(const Case& c, const std::vector<TensorData>& inputs, bool codes) {
  ReferenceTensors out;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const TensorData& t = inputs[k];
    opsuite::RefTensor r;
    r.layout = k < c.inputs.size() ? c.inputs[k].layout : "";
    r.shape = t.shape;
    r.values = codes ? stored_values(t) : real_values(t);
    r.dtype = t.dtype;
    r.scale = t.quant.scale;
    r.zero_point = t.quant.zero_point;
    r.present = t.present;
    out.inputs.push_back(std::move(r));
  }
  out.outputs.resize(c.outputs.size());
  for (size_t k = 0; k < c.outputs.size(); ++k) {
    out.outputs[k].dtype = c.outputs[k].type.dtype;
    out.outputs[k].scale = c.outputs[k].quant.scale;
    out.outputs[k].zero_point = c.outputs[k].quant.zero_point;
    out.outputs[k].codes = codes;
  }
  return out;
}

std::vector<Expected> reference_outputs(const Case& c, const OpContext& op, const std::vector<TensorData>& inputs) {
  if (op.reference == nullptr) throw std::runtime_error("no fp64 reference for op '" + c.op + "'");
  ReferenceTensors tensors = reference_tensors(c, inputs, false);
  std::vector<opsuite::RefTensor>& ref_out = tensors.outputs;
  try {
    op.reference->compute(tensors.inputs, opsuite::RefParams(reference_params(c, *op.space)), ref_out);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error("the reference of " + c.op + " rejects this case: " + e.what());
  }
  if (ref_out.size() != c.outputs.size())
    throw std::runtime_error("the reference of " + c.op + " gave " + std::to_string(ref_out.size()) +
                             " outputs, the case has " + std::to_string(c.outputs.size()));
  std::vector<Expected> out;
  for (size_t k = 0; k < ref_out.size(); ++k) {
    opsuite::RefTensor& r = ref_out[k];
    const CaseTensor& t = c.outputs[k];
    size_t n = 1;
    for (int64_t d : r.shape) n *= static_cast<size_t>(d);
    if (n != r.values.size())
      throw std::runtime_error("the reference of " + c.op + " gave output " + t.name + " shape " +
                               shape_text(r.shape) + " but " + std::to_string(r.values.size()) + " values");
    Expected e{r.shape, std::move(r.values)};
    if (t.type.quantized && !r.codes) e.values = quantize_reference(e.values, t.type.dtype, t.quant);
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<Expected> expected_outputs(const Case& c, const OpContext& op, const BackendContext* be,
                                       const std::vector<TensorData>& inputs) {
  switch (oracle_for(c, op)) {
    case OracleKind::kGolden:
      try {
        return golden_outputs(c);
      } catch (const std::exception& e) {
        throw OracleError(Verdict::kInvalidSpec, e.what());
      }
    case OracleKind::kBackend: return backend_outputs(c, op, be, inputs);
    case OracleKind::kPackage: return package_outputs(c, op, be, inputs);
    case OracleKind::kReference:
      phase(be, "oprig's fp64 reference");
      try {
        return reference_outputs(c, op, inputs);
      } catch (const std::exception& e) {
        // A derived node the reference rejects is no node of the op: left out, never failed.
        if (op.plan != nullptr && op.plan->derived)
          throw OracleError(Verdict::kSkipped, std::string("invalid node: ") + e.what());
        throw OracleError(Verdict::kInvalidSpec, e.what());
      }
    case OracleKind::kNone: break;
  }
  if (!op.reference_backend.empty() && c.backend == op.reference_backend)
    throw OracleError(Verdict::kSkipped, c.backend + " is the reference backend and the op has no other oracle here");
  throw OracleError(Verdict::kInvalidSpec,
                    "no oracle for op " + c.op +
                        ": give golden vectors (--golden DIR), a reference in the package (oprig_reference_v1), or "
                        "another backend (--reference-backend cpu)");
}

}  // namespace oprig::harness
