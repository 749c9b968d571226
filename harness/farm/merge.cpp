#include "farm/merge.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "farm/device_key.hpp"
#include "farm/run_farm.hpp"
#include "farm/run_output.hpp"
#include "runner/environment.hpp"
#include "runner/suite.hpp"

namespace oprig::harness::farm {
namespace {

struct Group {
  std::vector<const RunOutput*> inputs;
  nlohmann::json identity;
};

std::string name_of(const RunOutput& o) { return o.dir.string() + (o.shard.empty() ? "" : " (shard " + o.shard + ")"); }

// The shards of one run (one device) as one list of cases, in selection
// order; MISSING ids and notes added to `merged`.
std::vector<reports::CaseResult> merge_group(const Group& group, Merged& merged) {
  std::map<std::string, std::pair<reports::CaseResult, const RunOutput*>> by_id;
  for (const RunOutput* o : group.inputs)
    for (const reports::CaseResult& c : o->results.cases) {
      auto [it, fresh] = by_id.try_emplace(c.id, c, o);
      if (fresh || it->second.first.verdict == c.verdict) continue;
      throw InputError("case " + c.id + " has two verdicts: " + std::string(verdict_name(it->second.first.verdict)) +
                       " in " + name_of(*it->second.second) + ", " + std::string(verdict_name(c.verdict)) + " in " +
                       name_of(*o) + "; merge only one of them");
    }
  const std::vector<std::string>& selected = group.inputs.front()->selected;
  std::vector<reports::CaseResult> cases;
  std::set<std::string> listed;
  for (const std::string& id : selected) {
    if (!listed.insert(id).second) continue;
    if (auto it = by_id.find(id); it != by_id.end()) cases.push_back(std::move(it->second.first));
    else merged.results.farm.missing.push_back(id);
  }
  // Which parts are to blame: unfinished inputs, and shards no input is.
  for (const RunOutput* o : group.inputs)
    if (!o->finished || !o->results.complete) {
      size_t have = 0;
      std::set<std::string> got;
      for (const reports::CaseResult& c : o->results.cases) got.insert(c.id);
      for (const std::string& id : o->planned) have += got.count(id);
      merged.notes.push_back(name_of(*o) + " did not finish: " + std::to_string(have) + " of its " +
                             std::to_string(o->planned.size()) + " planned cases have a result");
    }
  const int count = group.inputs.front()->shard_count;
  if (count > 0) {
    std::set<int> seen;
    for (const RunOutput* o : group.inputs) seen.insert(o->shard_index);
    for (int k = 1; k <= count; ++k)
      if (!seen.count(k)) merged.notes.push_back("shard " + std::to_string(k) + "/" + std::to_string(count) + ": no input");
  }
  return cases;
}

reports::MergeInput describe(const RunOutput& o, const std::string& device) {
  reports::MergeInput in;
  in.path = std::filesystem::absolute(o.dir).lexically_normal().string();
  in.device = device;
  in.shard = o.shard;
  in.hostname = o.results.environment.hostname;
  in.started_at = o.results.environment.started_at;
  in.finished_at = o.results.environment.finished_at;
  in.planned = o.planned.size();
  in.results = o.results.cases.size();
  in.complete = o.finished && o.results.complete;
  return in;
}

// Google Benchmark's JSON of bench shards, one file: the first context, every benchmark.
nlohmann::json joined_benchmarks(const std::vector<RunOutput>& outputs) {
  nlohmann::json joined;
  for (const RunOutput& o : outputs) {
    std::ifstream in(o.dir / "benchmark.json");
    if (!in) return nullptr;
    nlohmann::json part = nlohmann::json::parse(in, nullptr, false);
    if (part.is_discarded() || !part.contains("benchmarks")) return nullptr;
    if (joined.is_null()) joined = part;
    else for (const auto& b : part.at("benchmarks")) joined["benchmarks"].push_back(b);
  }
  return joined;
}

}  // namespace

Merged merge_outputs(const MergeRequest& request) {
  if (request.inputs.empty()) throw InputError("oprig merge: no input folder");
  std::vector<RunOutput> outputs;
  for (const auto& path : request.inputs) outputs.push_back(read_run_output(path));
  for (const RunOutput& o : outputs) {
    if (!o.results.farm.devices.empty())
      throw InputError(o.dir.string() + " is a device matrix already; merge the runs it was made from");
    if (o.identity.is_null() && !request.devices)
      throw InputError(o.dir.string() + " has no run.json, so nothing says which run it is part of or which cases "
                       "it planned (an oprig from before merge?); only --devices merges it, as a run of its own");
  }

  // Shards of one run share a device key; without --devices, every input is one run whatever its device.
  std::vector<std::string> keys;
  std::map<std::string, Group> groups;
  for (const RunOutput& o : outputs) {
    const std::string key = request.devices ? device_key(o.results.environment) : "";
    auto [it, fresh] = groups.try_emplace(key);
    if (fresh) keys.push_back(key);
    Group& g = it->second;
    const nlohmann::json identity = merge_identity(o);
    if (!g.inputs.empty() && identity != g.identity) {
      std::string text = o.dir.string() + " is not part of the same run as " + g.inputs.front()->dir.string() + ":";
      for (const std::string& d : merge_identity_differences(g.identity, identity)) text += "\n  " + d;
      throw InputError(text + (request.devices ? "\n(both ran on one device: merge their runs separately)"
                                               : "\n(runs of one selection on different devices: --devices)"));
    }
    if (g.inputs.empty()) g.identity = identity;
    g.inputs.push_back(&o);
  }

  Merged merged;
  reports::RunResults& results = merged.results;
  results.environment = outputs.front().results.environment;
  for (const RunOutput& o : outputs) {
    const reports::Environment& e = o.results.environment;
    if (!e.started_at.empty() && (results.environment.started_at.empty() || e.started_at < results.environment.started_at))
      results.environment.started_at = e.started_at;
    if (e.finished_at > results.environment.finished_at) results.environment.finished_at = e.finished_at;
  }
  results.environment.command_line = request.command_line;
  results.farm = outputs.front().results.farm;
  results.farm.shard.reset();
  results.farm.missing.clear();
  results.farm.inputs.clear();
  results.farm.devices.clear();

  const bool matrix = keys.size() > 1;
  std::vector<DeviceFacts> facts;
  for (const std::string& key : keys) facts.push_back(device_facts(groups.at(key).inputs.front()->results.environment));
  const std::vector<std::string> labels = device_labels(facts);
  std::map<std::string, std::pair<uint64_t, std::string>> seeds;  // case id -> seed, device it was seen on
  for (size_t d = 0; d < keys.size(); ++d) {
    const Group& g = groups.at(keys[d]);
    const std::string device = matrix ? "d" + std::to_string(d + 1) : "";
    for (reports::CaseResult& c : merge_group(g, merged)) {
      if (matrix) {
        auto [it, fresh] = seeds.try_emplace(c.id, c.seed, labels[d]);
        if (!fresh && it->second.first != c.seed)
          throw InputError("case " + c.id + " ran on other inputs on " + labels[d] + " (seed " + std::to_string(c.seed) +
                           ") than on " + it->second.second + " (seed " + std::to_string(it->second.first) +
                           "): runs of different oprig builds cannot be compared case by case");
        c.outcome.device = device;
      }
      results.cases.push_back(std::move(c));
    }
    for (const RunOutput* o : g.inputs) results.farm.inputs.push_back(describe(*o, device));
    if (matrix) {
      reports::DeviceRecord record{device, labels[d], {}};
      for (const auto& [what, value] : facts[d]) record.description.push_back(what + ": " + value);
      results.farm.devices.push_back(std::move(record));
    }
  }
  if (!results.farm.missing.empty()) {
    results.complete = false;
    results.incomplete_reason = std::to_string(results.farm.missing.size()) +
                                " planned case(s) have no result in any input (MISSING)";
    for (const std::string& note : merged.notes) results.incomplete_reason += "; " + note;
  }

  if (!matrix && outputs.front().identity.is_object()) {
    // The merged folder is a run of its own, unsharded: it can be merged again or read by `expectations update`.
    const RunOutput& first = outputs.front();
    merged.identity = first.identity;
    merged.identity.erase(kShardKey);
    merged.identity.erase(kSelectedCasesKey);
    merged.identity["planned_cases"] = first.selected;
    merged.identity[kEnvironmentKey] = results.environment;
    if (first.kind == "bench") merged.benchmarks = joined_benchmarks(outputs);
  }
  return merged;
}

}  // namespace oprig::harness::farm
