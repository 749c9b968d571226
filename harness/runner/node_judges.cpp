#include "runner/node_judges.hpp"

#include <sys/wait.h>

#include <chrono>
#include <cstring>
#include <iostream>
#include <set>

#include "core/dtype.hpp"
#include "core/half.hpp"
#include "runner/abi_params.hpp"
#include "runner/package_probe.hpp"
#include "runner/self_child.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {
namespace {

using nlohmann::json;

size_t count_of(const std::vector<int64_t>& s) {
  size_t n = 1;
  for (int64_t d : s) n *= static_cast<size_t>(d);
  return n;
}

// The types a node is judged in: the backend's first combination without quantised tensors, else its first.
std::optional<TypeCombo> judging_types(const OpCaseSpace& space, const std::string& backend) {
  const std::vector<TypeCombo> combos = space.type_combos(backend, TestPlan{});
  for (const TypeCombo& c : combos) {
    bool quantized = false;
    for (const TypeChoice& t : c.inputs) quantized |= t.quantized;
    for (const TypeChoice& t : c.outputs) quantized |= t.quantized;
    if (!quantized) return c;
  }
  if (!combos.empty()) return combos.front();
  return std::nullopt;
}

json with_defaults(const json& params, const OpCaseSpace& space) {
  json out = params.is_object() ? params : json::object();
  for (const ParamSlot& p : space.params)
    if (!out.contains(p.name) && !p.default_value.is_null()) out[p.name] = p.default_value;
  return out;
}

class BundledReferenceJudge : public NodeJudge {
 public:
  BundledReferenceJudge(const OpCaseSpace& space, const opsuite::ReferenceOp& ref, std::string backend, TypeCombo types)
      : space_(space), ref_(ref), backend_(std::move(backend)), types_(std::move(types)) {}

  std::string name() const override { return std::string("oprig's fp64 reference of ") + ref_.op_name; }

  NodeAnswer judge(const Node& node) override {
    NodeAnswer answer;
    try {
      const auto outputs = run(node, 0.0);
      answer.valid = true;
      for (const opsuite::RefTensor& o : outputs) answer.outputs.push_back(o.shape);
    } catch (const std::exception& e) {
      answer.reason = std::string("the reference rejects it: ") + e.what();
    }
    return answer;
  }

  std::optional<std::vector<std::vector<double>>> compute_constant(const Node& node, double value) override {
    try {
      std::vector<std::vector<double>> out;
      for (opsuite::RefTensor& o : run(node, value)) out.push_back(std::move(o.values));
      return out;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

 private:
  std::vector<opsuite::RefTensor> run(const Node& node, double value) const {
    std::vector<opsuite::RefTensor> in;
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      opsuite::RefTensor r;
      r.present = node.inputs[k].has_value();
      r.layout = space_.input_layout(k, backend_);
      r.dtype = k < types_.inputs.size() ? types_.inputs[k].dtype : OPRIG_DTYPE_FLOAT_32;
      if (r.present) {
        r.shape = *node.inputs[k];
        r.values.assign(count_of(r.shape), value);
      }
      in.push_back(std::move(r));
    }
    while (!in.empty() && !in.back().present) in.pop_back();
    std::vector<opsuite::RefTensor> out(space_.outputs.size());
    for (size_t k = 0; k < out.size(); ++k) out[k].dtype = types_.outputs.at(k).dtype;
    ref_.compute(in, opsuite::RefParams(with_defaults(node.params, space_)), out);
    return out;
  }

  const OpCaseSpace& space_;
  const opsuite::ReferenceOp& ref_;
  std::string backend_;
  TypeCombo types_;
};

class PackageJudge : public NodeJudge {
 public:
  PackageJudge(const OpCaseSpace& space, const Package& package, TypeCombo types)
      : space_(space), package_(package), types_(std::move(types)) {}

  std::string name() const override {
    std::string who;
    if (package_.reference() != nullptr) who = "the package's reference (shapes())";
    if (package_.registration().validate != nullptr) who += std::string(who.empty() ? "" : " and ") + "validate hook";
    return who + " of " + package_.name();
  }

  NodeAnswer judge(const Node& node) override {
    NodeAnswer answer;
    try {
      Call call(*this, node, 0.0);
      if (package_.registration().validate != nullptr) {
        char reason[512] = {0};
        std::vector<oprig_tensor> described = call.in;
        for (oprig_tensor& t : described) t.data = nullptr;
        const oprig_status v = package_.registration().validate(space_.op.c_str(), call.params->data(), call.params->size(),
                                                                described.data(), described.size(), call.out.data(),
                                                                call.out.size(), reason, sizeof reason);
        reason[sizeof reason - 1] = '\0';
        if (v != OPRIG_STATUS_OK) {
          answer.reason = "the package's validate() rejects it (" + status_name(v) + ")" +
                          (reason[0] ? std::string(": ") + reason : std::string());
          return answer;
        }
      }
      if (const oprig_reference_v1* ref = package_.reference()) {
        const oprig_status s = ref->shapes(space_.op.c_str(), call.params->data(), call.params->size(), call.in.data(),
                                           call.in.size(), call.out.data(), call.out.size());
        if (s != OPRIG_STATUS_OK) {
          answer.reason = "the package's reference rejects it (shapes() returned " + status_name(s) + ")";
          return answer;
        }
        for (const oprig_tensor& t : call.out) {
          if (t.rank > OPRIG_MAX_RANK) {
            answer.reason = "the package's reference gave an output of rank " + std::to_string(t.rank);
            return answer;
          }
          std::vector<int64_t> dims(t.dims, t.dims + t.rank);
          for (int64_t d : dims)
            if (d < 0) {
              answer.reason = "the package's reference left an output size unknown";
              return answer;
            }
          answer.outputs.push_back(std::move(dims));
        }
      }
      answer.valid = true;
    } catch (const std::exception& e) {
      answer.reason = e.what();
    }
    return answer;
  }

  std::optional<std::vector<std::vector<double>>> compute_constant(const Node& node, double value) override {
    const oprig_reference_v1* ref = package_.reference();
    if (ref == nullptr) return std::nullopt;
    try {
      Call call(*this, node, value);
      if (ref->shapes(space_.op.c_str(), call.params->data(), call.params->size(), call.in.data(), call.in.size(),
                      call.out.data(), call.out.size()) != OPRIG_STATUS_OK)
        return std::nullopt;
      const bool f64 = ref->precision == OPRIG_REFERENCE_FLOAT_64;
      std::vector<std::vector<std::byte>> storage;
      for (size_t k = 0; k < call.out.size(); ++k) {
        oprig_tensor& t = call.out[k];
        if (t.rank > OPRIG_MAX_RANK) return std::nullopt;
        std::vector<int64_t> dims(t.dims, t.dims + t.rank);
        for (int64_t d : dims)
          if (d < 0) return std::nullopt;
        const size_t size = f64 ? sizeof(double) : dtype_size(static_cast<oprig_dtype>(t.dtype));
        storage.emplace_back(count_of(dims) * size);
        t.data = storage.back().empty() ? nullptr : storage.back().data();
        t.bytes = storage.back().size();
      }
      if (ref->compute(space_.op.c_str(), call.params->data(), call.params->size(), call.in.data(), call.in.size(),
                       call.out.data(), call.out.size()) != OPRIG_STATUS_OK)
        return std::nullopt;
      std::vector<std::vector<double>> out;
      for (size_t k = 0; k < call.out.size(); ++k) {
        std::vector<double> values;
        const auto type = static_cast<oprig_dtype>(call.out[k].dtype);
        const size_t size = f64 ? sizeof(double) : dtype_size(type);
        for (size_t i = 0; size > 0 && i < storage[k].size() / size; ++i) {
          const std::byte* p = storage[k].data() + i * size;
          if (f64) {
            double v;
            std::memcpy(&v, p, 8);
            values.push_back(v);
          } else if (type == OPRIG_DTYPE_FLOAT_32) {
            float v;
            std::memcpy(&v, p, 4);
            values.push_back(v);
          } else if (type == OPRIG_DTYPE_FLOAT_16) {
            uint16_t v;
            std::memcpy(&v, p, 2);
            values.push_back(half_to_float(v));
          } else {
            values.push_back(1);  // not a float: no sign of zero to see
          }
        }
        out.push_back(std::move(values));
      }
      return out;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

 private:
  // The ABI's view of a node: typed parameters, inputs holding `value`, outputs to be described.
  struct Call {
    std::unique_ptr<AbiParams> params;
    std::vector<std::vector<std::byte>> storage;
    std::vector<oprig_tensor> in, out;
    Call(const PackageJudge& j, const Node& node, double value) {
      params = std::make_unique<AbiParams>(node.params, j.space_);
      const oprig_reference_v1* ref = j.package_.reference();
      const bool f64 = ref != nullptr && ref->precision == OPRIG_REFERENCE_FLOAT_64;
      size_t last_present = 0;
      for (size_t k = 0; k < node.inputs.size(); ++k)
        if (node.inputs[k]) last_present = k + 1;
      for (size_t k = 0; k < last_present; ++k) {
        oprig_tensor t{};
        storage.emplace_back();
        if (node.inputs[k]) {
          const TypeChoice type = k < j.types_.inputs.size() ? j.types_.inputs[k] : j.types_.inputs.back();
          t.dtype = type.dtype;
          t.rank = static_cast<uint32_t>(node.inputs[k]->size());
          std::copy(node.inputs[k]->begin(), node.inputs[k]->end(), t.dims);
          if (type.quantized) {
            t.scale = 1.0f / 128;
            t.zero_point = 0;
          }
          const size_t n = count_of(*node.inputs[k]);
          const size_t size = f64 ? sizeof(double) : dtype_size(type.dtype);
          storage.back().resize(n * size);
          for (size_t i = 0; i < n; ++i) {
            std::byte* p = storage.back().data() + i * size;
            if (f64) std::memcpy(p, &value, 8);
            else if (type.dtype == OPRIG_DTYPE_FLOAT_32) {
              const float v = static_cast<float>(value);
              std::memcpy(p, &v, 4);
            } else if (type.dtype == OPRIG_DTYPE_FLOAT_16) {
              const uint16_t v = float_to_half(static_cast<float>(value));
              std::memcpy(p, &v, 2);
            }
          }
          t.data = storage.back().empty() ? nullptr : storage.back().data();
          t.bytes = storage.back().size();
        }
        in.push_back(t);
      }
      for (const TypeChoice& type : j.types_.outputs) {
        oprig_tensor t{};
        t.dtype = type.dtype;
        if (type.quantized) t.scale = 1.0f / 128;
        out.push_back(t);
      }
    }
  };

  const OpCaseSpace& space_;
  const Package& package_;
  TypeCombo types_;
};

}  // namespace

OpJudges make_judges(const OpCaseSpace& space, const Package* package, const opsuite::ReferenceOp* bundled) {
  OpJudges j;
  if (space.backends.empty()) return j;
  // One judge per layout input 0 has on some backend.
  std::vector<std::pair<std::string, std::string>> layouts;  // layout -> first backend with it
  for (const std::string& b : space.backends) {
    const std::string l = space.input_layout(0, b);
    if (std::none_of(layouts.begin(), layouts.end(), [&](const auto& x) { return x.first == l; }))
      layouts.emplace_back(l, b);
  }
  const bool one_layout = layouts.size() == 1;
  for (const auto& [layout, backend] : layouts) {
    const auto types = judging_types(space, backend);
    if (!types) continue;
    NodeJudge* judge = nullptr;
    if (bundled != nullptr) {
      j.owned.push_back(std::make_unique<BundledReferenceJudge>(space, *bundled, backend, *types));
      judge = j.owned.back().get();
    } else if (package != nullptr && (package->reference() != nullptr || package->registration().validate != nullptr)) {
      j.owned.push_back(std::make_unique<PackageJudge>(space, *package, *types));
      judge = j.owned.back().get();
    }
    j.per_layout.push_back({one_layout ? "" : layout, judge});
  }
  return j;
}

nlohmann::ordered_json derive_plan_here(const OpCaseSpace& space, const std::string& spec_file, const Package* package,
                                        const opsuite::ReferenceOp* bundled) {
  OpJudges judges = make_judges(space, package, bundled);
  return derive_plan_json(space, spec_file, judges.per_layout);
}

int derive_plan_command(const std::filesystem::path& spec_path, const std::string& op,
                        const std::filesystem::path& package_path, bool bundled_reference, const std::string& spec_file) {
  try {
    const OpCaseSpace space = case_space_from_spec(spec_path, op);
    std::unique_ptr<Package> package;
    if (!package_path.empty()) package = Package::load(package_path);
    const opsuite::ReferenceOp* ref = opsuite::find_reference(space.op);
    const bool bundled = ref != nullptr && (bundled_reference || (package && package->name() == kBundledPackageName));
    std::cout << derive_plan_here(space, spec_file, package.get(), bundled ? ref : nullptr).dump() << std::flush;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}

nlohmann::ordered_json derive_plan_in_child(const std::filesystem::path& spec_path, const std::string& op,
                                            const std::filesystem::path& package_path, bool bundled_reference,
                                            const std::string& spec_file) {
  std::vector<std::string> args = {"oprig", "__derive-plan", "--spec", spec_path.string(), "--op", op,
                                   "--spec-file", spec_file};
  if (!package_path.empty()) args.insert(args.end(), {"--package", package_path.string()});
  if (bundled_reference) args.push_back("--bundled-reference");
  const SelfChild child =
      run_self_child(std::move(args), ChildStderr::kApart, std::chrono::seconds(300), "derive the plan in");
  const int status = child.status;
  const bool timed_out = child.timed_out;
  const std::string& complained = child.err;
  if (child.succeeded()) {
    try {
      return nlohmann::ordered_json::parse(child.out);
    } catch (const std::exception& e) {
      throw std::runtime_error("the plan derived from " + spec_path.string() + " is not JSON: " + e.what());
    }
  }
  if (!timed_out && WIFEXITED(status)) throw InputError(output_tail(complained));
  const std::string how = timed_out ? "did not finish within 300 s (killed)"
                                    : "died with " + signal_text(WTERMSIG(status));
  throw PackageLoadCrash("CRASH deriving the test plan of " + op + " from " + spec_path.string() + ": the package " +
                         package_path.string() + "'s reference or validate hook, asked which nodes are valid, " + how +
                         "; nothing was run" + (complained.empty() ? "" : "\n--- its output ---\n" + output_tail(complained)));
}

}  // namespace oprig::harness
