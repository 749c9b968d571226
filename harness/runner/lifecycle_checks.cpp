#include "runner/lifecycle_checks.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <iostream>
#include <latch>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "core/dtype.hpp"
#include "package/loader.hpp"
#include "runner/case_executor.hpp"
#include "runner/heap_usage.hpp"
#include "runner/output_poison.hpp"

namespace oprig::harness {
namespace {

using Clock = std::chrono::steady_clock;

// Seeds the second contents of a shape: any fixed odd constant would do.
constexpr uint64_t kOtherContents = 0x9E3779B97F4A7C15ull;
// Per instance and round: at least kConcurrentExecutes executes and
// kConcurrentSpan of time (so that on a loaded machine the threads share
// time slices on several cores), at most kMaxConcurrentExecutes.
constexpr size_t kConcurrentExecutes = 4;
constexpr size_t kMaxConcurrentExecutes = 64;
constexpr auto kConcurrentSpan = std::chrono::milliseconds(5);
// At most: rounds go on until kernel executes of different instances
// overlapped in time kMinOverlapping times (a loaded machine may run the
// threads one after the other for a while).
constexpr size_t kConcurrencyRounds = 8;
constexpr size_t kMinOverlapping = 8;
constexpr size_t kLeakWarmup = 3;

// One input contents with the outputs a single fresh instance computes from it.
struct DataSet {
  std::string label;  // "127", "127 (other contents)"
  std::vector<TensorData> inputs;
  std::vector<oprig_tensor> output_types;  // dtype and quantisation; prepare() writes the dims
  std::vector<std::string> output_names;
  std::vector<oprig_tensor> prepared;      // as a single instance's prepare described them
  std::vector<std::vector<std::byte>> alone;
};

std::string shapes_label(const std::vector<TensorData>& inputs) {
  std::string text;
  for (const TensorData& t : inputs)
    if (t.present) text += (text.empty() ? "" : "_") + shape_text(t.shape);
  return text.empty() ? "no inputs" : text;
}

std::vector<int64_t> dims_of(const oprig_tensor& t) {
  return {t.dims, t.dims + std::min<uint32_t>(t.rank, OPRIG_MAX_RANK)};
}

// One kernel instance with its own device buffers, prepared for one data set
// at a time.
class Instance {
 public:
  explicit Instance(const LifecycleSubject& s) : s_(s) {
    status_ = s.impl.create(&s.backend.context(), s.anchor.op.c_str(), s.params.data(), s.params.size(), &kernel_);
  }
  ~Instance() {
    if (kernel_ != nullptr) s_.impl.destroy(kernel_);
  }
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  std::string created() const {
    if (status_ != OPRIG_STATUS_OK) return "create() returned " + status_name(status_);
    return kernel_ == nullptr ? "create() returned no kernel" : "";
  }

  // prepare() for the data set's shapes, then buffers with its inputs. "" or what failed.
  std::string prepare(const DataSet& set) {
    in_buf_.clear();
    out_buf_.clear();
    in_desc_.clear();
    for (const TensorData& t : set.inputs) in_desc_.push_back(describe_tensor(t));
    out_desc_ = set.output_types;
    oprig_status st = s_.impl.prepare(kernel_, in_desc_.data(), in_desc_.size(), out_desc_.data(), out_desc_.size());
    if (st != OPRIG_STATUS_OK) return "prepare() returned " + status_name(st);
    if (std::any_of(out_desc_.begin(), out_desc_.end(), has_unknown_dim)) {
      if (s_.impl.resolve_shapes == nullptr) return "prepare() left an output dimension unknown (-1)";
      st = resolve_shapes_on_host(s_.impl, kernel_, in_desc_, set.inputs, out_desc_);
      if (st != OPRIG_STATUS_OK) return "resolve_shapes() returned " + status_name(st);
    }
    for (size_t k = 0; k < set.inputs.size(); ++k) {
      in_buf_.emplace_back();
      if (!set.inputs[k].present) continue;
      in_buf_.back() = s_.backend.allocate(set.inputs[k].bytes.size());
      s_.backend.write(*in_buf_.back(), set.inputs[k].bytes);
      in_buf_.back()->bind(in_desc_[k]);
    }
    for (int which : {0, 1}) poison_[which].clear();
    for (oprig_tensor& d : out_desc_) {
      size_t count = 1;
      for (int64_t v : dims_of(d)) {
        if (v < 0) return "an output dimension stayed unknown (-1)";
        count *= static_cast<size_t>(v);
      }
      const size_t element = dtype_size(static_cast<oprig_dtype>(d.dtype));
      out_buf_.push_back(s_.backend.allocate(count * element));
      out_buf_.back()->bind(d);
      for (int which : {0, 1}) poison_[which].push_back(poison(count * element, element, which));
    }
    return "";
  }

  // Poisons the outputs with pattern `which`, executes, reads them back into `out`.
  std::string execute(int which, std::vector<std::vector<std::byte>>& out) {
    for (size_t k = 0; k < out_buf_.size(); ++k) s_.backend.write(*out_buf_[k], poison_[which][k]);
    if (const oprig_status st = execute_only(); st != OPRIG_STATUS_OK) return "execute() returned " + status_name(st);
    out.resize(out_buf_.size());
    for (size_t k = 0; k < out_buf_.size(); ++k) {
      out[k].resize(out_buf_[k]->bytes());
      s_.backend.read(*out_buf_[k], out[k]);
    }
    return "";
  }

  oprig_status execute_only() {
    ExecTiming timing;
    const Clock::time_point begin = Clock::now();
    const oprig_status status = s_.backend.execute(s_.impl, kernel_, in_desc_, out_desc_, timing);
    last_span_ = {begin, Clock::now()};
    return status;
  }
  // When the last execute_only() ran (the kernel alone, without the copies around it).
  std::pair<Clock::time_point, Clock::time_point> last_span() const { return last_span_; }

  // Red zones of every buffer of the current data set: "" when intact.
  std::string guard_problems(const DataSet& set) const {
    std::string text;
    for (size_t k = 0; k < in_buf_.size(); ++k)
      if (in_buf_[k])
        for (const GuardDamage& d : in_buf_[k]->guard_damage())
          text += (text.empty() ? "" : "; ") + ("input " + set.inputs[k].name + ": ") +
                  guard_damage_text(d, in_buf_[k]->bytes());
    for (size_t k = 0; k < out_buf_.size(); ++k)
      for (const GuardDamage& d : out_buf_[k]->guard_damage())
        text += (text.empty() ? "" : "; ") + ("output " + set.output_names.at(k) + ": ") +
                guard_damage_text(d, out_buf_[k]->bytes());
    return text;
  }

  const std::vector<oprig_tensor>& outputs() const { return out_desc_; }

 private:
  const LifecycleSubject& s_;
  oprig_kernel* kernel_ = nullptr;
  oprig_status status_ = OPRIG_STATUS_INTERNAL;
  std::vector<oprig_tensor> in_desc_, out_desc_;
  std::vector<std::unique_ptr<DeviceBuffer>> in_buf_, out_buf_;
  std::vector<std::vector<std::byte>> poison_[2];
  std::pair<Clock::time_point, Clock::time_point> last_span_;
};

// "" when `got` (an execute on outputs poisoned with `which`) equals the data
// set's single-instance outputs; else which output differs and how.
std::string compare_with_alone(const std::vector<std::vector<std::byte>>& got, int which, const DataSet& set) {
  std::string text;
  for (size_t k = 0; k < set.alone.size() && k < got.size(); ++k) {
    const std::string name = "output " + set.output_names.at(k) + ": ";
    if (got[k].size() != set.alone[k].size()) {
      text += (text.empty() ? "" : "; ") + name + std::to_string(got[k].size()) + " bytes, a single instance's " +
              std::to_string(set.alone[k].size());
      continue;
    }
    const OutputDifference d =
        output_difference(got[k], which, set.alone[k], dtype_size(static_cast<oprig_dtype>(set.prepared[k].dtype)));
    if (d.any()) text += (text.empty() ? "" : "; ") + name + difference_text(d, "differ from a single instance's");
  }
  return text;
}

// Fills set.prepared and set.alone from a fresh instance; false when that
// instance fails, leaves an element unwritten, differs between two runs or
// writes out of bounds: then the set is not used (nothing trustworthy to
// compare with; the case of those inputs, where there is one, says why).
bool compute_alone(const LifecycleSubject& s, DataSet& set) {
  Instance instance(s);
  if (!instance.created().empty() || !instance.prepare(set).empty()) return false;
  set.prepared = instance.outputs();
  std::vector<std::vector<std::byte>> again;
  if (!instance.execute(0, set.alone).empty() || !instance.execute(1, again).empty()) return false;
  return again == set.alone && instance.guard_problems(set).empty();
}

DataSet data_set_of(const Case& c, std::vector<TensorData> inputs, const std::string& label) {
  DataSet set;
  set.label = label;
  set.inputs = std::move(inputs);
  for (const CaseTensor& t : c.outputs) {
    oprig_tensor d{};
    d.dtype = t.type.dtype;
    d.scale = static_cast<float>(t.quant.scale);
    d.zero_point = t.quant.zero_point;
    set.output_types.push_back(d);
    set.output_names.push_back(t.name);
  }
  return set;
}

// The same case with other input contents: its seed changed. Empty when the
// fill gives the same contents whatever the seed (edge values, constants).
std::optional<DataSet> other_contents(const LifecycleSubject& s, const Case& c, const std::vector<TensorData>& first) {
  Case other = c;
  other.seed ^= kOtherContents;
  try {
    std::vector<TensorData> inputs = make_inputs(other, *s.op.plan);
    bool differs = false;
    for (size_t k = 0; k < inputs.size() && k < first.size(); ++k) differs |= inputs[k].bytes != first[k].bytes;
    if (!differs) return std::nullopt;
    DataSet set = data_set_of(c, std::move(inputs), shapes_label(first) + " (other contents)");
    if (!compute_alone(s, set)) return std::nullopt;
    return set;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

struct DataSets {
  DataSet anchor;
  std::optional<DataSet> anchor_other;
  std::vector<DataSet> companions;  // other shapes
  std::optional<DataSet> companion_other;
};

DataSets make_data_sets(const LifecycleSubject& s) {
  DataSets sets;
  sets.anchor = data_set_of(s.anchor, s.inputs, shapes_label(s.inputs));
  sets.anchor.prepared = s.prepared_outputs;
  sets.anchor.alone = s.alone;
  sets.anchor_other = other_contents(s, s.anchor, s.inputs);
  for (const Case* c : s.companions) {
    try {
      std::vector<TensorData> inputs = make_inputs(*c, *s.op.plan);
      DataSet set = data_set_of(*c, inputs, shapes_label(inputs));
      if (!compute_alone(s, set)) continue;
      if (sets.companions.empty()) sets.companion_other = other_contents(s, *c, inputs);
      sets.companions.push_back(std::move(set));
    } catch (const std::exception&) {
      continue;  // its own case says what is wrong with it
    }
  }
  return sets;
}

std::string reprepare_pass(const LifecycleSubject& s, const DataSets& sets) {
  if (sets.companions.empty()) return "";  // no other shape to prepare for
  // Smallest first (the companions are the anchor's smaller neighbours): a
  // kernel that keeps an earlier, smaller shape leaves elements unwritten
  // instead of writing far past a buffer. Then back to the first shape.
  std::vector<const DataSet*> sequence;
  for (auto it = sets.companions.rbegin(); it != sets.companions.rend(); ++it) sequence.push_back(&*it);
  sequence.push_back(&sets.anchor);
  sequence.push_back(sequence.front());
  Instance instance(s);
  if (const std::string e = instance.created(); !e.empty()) return "re-prepare: a new instance's " + e;
  std::string path;
  for (size_t step = 0; step < sequence.size(); ++step) {
    const DataSet& set = *sequence[step];
    path += (path.empty() ? "" : ", then ") + set.label;
    const std::string where = "re-prepare: one instance prepared for " + path + " (the ABI prepares again whenever "
                              "input shapes change): ";
    const std::string because = "; a fresh instance prepared once gets it right, so the kernel keeps something of "
                                "an earlier prepare()";
    if (const std::string e = instance.prepare(set); !e.empty()) return where + e + because;
    for (size_t k = 0; k < set.prepared.size() && k < instance.outputs().size(); ++k)
      if (dims_of(instance.outputs()[k]) != dims_of(set.prepared[k]))
        return where + "output " + set.output_names[k] + " inferred as " + shape_text(dims_of(instance.outputs()[k])) +
               ", a fresh instance's " + shape_text(dims_of(set.prepared[k])) + because;
    std::vector<std::vector<std::byte>> out;
    const int which = static_cast<int>(step % 2);
    if (const std::string e = instance.execute(which, out); !e.empty()) return where + e + because;
    std::string problem = compare_with_alone(out, which, set);
    const std::string guards = instance.guard_problems(set);
    if (!guards.empty()) problem += (problem.empty() ? "" : "; ") + guards + " (out-of-bounds write)";
    if (!problem.empty()) return where + problem + because;
  }
  return "";
}

std::string concurrency_pass(const LifecycleSubject& s, const DataSets& sets) {
  std::vector<const DataSet*> chosen = {&sets.anchor};
  if (sets.anchor_other) chosen.push_back(&*sets.anchor_other);
  if (!sets.companions.empty()) chosen.push_back(&sets.companions.front());
  if (sets.companion_other) chosen.push_back(&*sets.companion_other);
  while (chosen.size() < 2) chosen.push_back(&sets.anchor);  // at least two at once, even on one contents
  chosen.resize(std::min(chosen.size(), kLifecycleInstances));
  std::string labels;
  for (const DataSet* d : chosen) labels += (labels.empty() ? "" : ", ") + d->label;
  const std::string header = "concurrency: " + std::to_string(chosen.size()) + " instances of " + s.anchor.op + " (" +
                             labels + ") on " + std::to_string(chosen.size()) + " threads at once: ";
  const std::string cause = "; each alone gets it right, so instances share mutable state (the ABI runs different "
                            "instances concurrently)";

  std::vector<std::unique_ptr<Instance>> instances;
  for (const DataSet* d : chosen) {
    instances.push_back(std::make_unique<Instance>(s));
    if (const std::string e = instances.back()->created(); !e.empty())
      return header + "instance " + std::to_string(instances.size()) + ": " + e + " while others exist";
    if (const std::string e = instances.back()->prepare(*d); !e.empty())
      return header + "instance " + std::to_string(instances.size()) + " (" + d->label + "): " + e + " while others exist";
  }
  // Alone first, one after the other: all instances exist, none runs at the same time.
  for (size_t i = 0; i < instances.size(); ++i) {
    std::vector<std::vector<std::byte>> out;
    std::string problem = instances[i]->execute(1, out);
    if (problem.empty()) problem = compare_with_alone(out, 1, *chosen[i]);
    if (!problem.empty())
      return "concurrency: with " + std::to_string(instances.size()) + " instances alive, instance " +
             std::to_string(i + 1) + " (" + chosen[i]->label + ") executed on its own: " + problem +
             "; a single instance gets it right, so instances share state";
  }

  std::mutex mutex;
  std::string first_problem;
  size_t overlapping = 0, executes = 0;
  for (size_t round = 0; round < kConcurrencyRounds && first_problem.empty(); ++round) {
    std::vector<std::vector<std::pair<Clock::time_point, Clock::time_point>>> spans(instances.size());
    std::latch start(static_cast<std::ptrdiff_t>(instances.size()));
    std::vector<std::thread> threads;
    for (size_t i = 0; i < instances.size(); ++i)
      threads.emplace_back([&, i] {
        start.arrive_and_wait();
        const Clock::time_point begin = Clock::now();
        std::vector<std::vector<std::byte>> out;
        for (size_t e = 0; e < kMaxConcurrentExecutes &&
                           (e < kConcurrentExecutes || Clock::now() - begin < kConcurrentSpan);
             ++e) {
          const int which = static_cast<int>(e % 2);
          std::string problem;
          try {
            problem = instances[i]->execute(which, out);
          } catch (const std::exception& ex) {
            problem = ex.what();
          }
          spans[i].push_back(instances[i]->last_span());
          if (problem.empty()) problem = compare_with_alone(out, which, *chosen[i]);
          if (problem.empty()) continue;
          const std::lock_guard lock(mutex);
          if (first_problem.empty())
            first_problem = "instance " + std::to_string(i + 1) + " (" + chosen[i]->label + "), round " +
                            std::to_string(round + 1) + ", execute " + std::to_string(e + 1) + ": " + problem;
          return;
        }
      });
    for (std::thread& t : threads) t.join();
    for (size_t i = 0; i < spans.size(); ++i)
      for (const auto& [a0, a1] : spans[i]) {
        ++executes;
        bool overlaps = false;
        for (size_t j = 0; j < spans.size() && !overlaps; ++j)
          if (j != i)
            for (const auto& [b0, b1] : spans[j]) overlaps |= a0 < b1 && b0 < a1;
        overlapping += overlaps;
      }
    if (overlapping >= kMinOverlapping) break;  // enough kernel executes ran at the same time as another's
  }
  // In the worker log: how much the threads really ran at once.
  std::cerr << "concurrency pass on " << s.anchor.id << ": " << overlapping << " of " << executes
            << " kernel executes overlapped another instance's\n";
  if (first_problem.empty()) return "";
  return header + first_problem + " (" + std::to_string(overlapping) + " of " + std::to_string(executes) +
         " executes overlapped another instance's)" + cause;
}

std::string leak_pass(const LifecycleSubject& s, const DataSet& set) {
  Instance instance(s);
  if (!instance.created().empty() || !instance.prepare(set).empty()) return "";  // the other passes say why
  for (size_t i = 0; i < kLeakWarmup; ++i)
    if (instance.execute_only() != OPRIG_STATUS_OK) return "";
  const size_t before = heap_in_use();
  size_t last = before;
  for (size_t round = 0; round < kLeakRounds; ++round) {
    for (size_t i = 0; i < kLeakExecutesPerRound; ++i)
      if (instance.execute_only() != OPRIG_STATUS_OK) return "";
    const size_t now = heap_in_use();
    // A round without growth: caches that fill up level off, a leak never does.
    if (now < last + kLeakBytesPerExecute * kLeakExecutesPerRound) return "";
    last = now;
  }
  const size_t executes = kLeakRounds * kLeakExecutesPerRound;
  return "memory: the heap in use grew in each of " + std::to_string(kLeakRounds) + " rounds of " +
         std::to_string(kLeakExecutesPerRound) + " executes of one instance (" + set.label + "), by " +
         std::to_string(last - before) + " bytes over " + std::to_string(executes) + " executes, about " +
         std::to_string((last - before) / executes) + " bytes per execute: the kernel leaks on every execute";
}

}  // namespace

std::string run_lifecycle_checks(const LifecycleSubject& s) {
  auto phase = [&](const char* what) {
    if (s.phase) s.phase(what);
  };
  try {
    phase("the lifecycle passes: single instances of other inputs");
    const DataSets sets = make_data_sets(s);
    std::string problems;
    auto add = [&](const std::string& p) {
      if (!p.empty()) problems += (problems.empty() ? "" : "; ") + p;
    };
    phase("the lifecycle passes: re-prepare");
    add(reprepare_pass(s, sets));
    phase("the lifecycle passes: concurrent instances");
    add(concurrency_pass(s, sets));
    phase("the lifecycle passes: memory across executes");
    add(leak_pass(s, sets.anchor));
    return problems;
  } catch (const std::exception& e) {
    return std::string("lifecycle passes: ") + e.what();
  }
}

}  // namespace oprig::harness
