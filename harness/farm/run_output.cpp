#include "farm/run_output.hpp"

#include <fstream>
#include <set>

#include "farm/run_farm.hpp"
#include "runner/run_identity.hpp"
#include "runner/suite.hpp"

namespace oprig::harness::farm {
namespace {

std::vector<std::string> strings_at(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_array()) return {};
  std::vector<std::string> out;
  for (const auto& v : j.at(key))
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

// A string member of an object, "" where the object or the string is not there.
std::string string_at(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : "";
}

std::string started_at(const nlohmann::json& identity) {
  return identity.is_object() ? string_at(identity.value(kEnvironmentKey, nlohmann::json()), "started_at") : "";
}

int int_at(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) && j.at(key).is_number_integer() ? j.at(key).get<int>() : 0;
}

}  // namespace

RunOutput read_run_output(const std::filesystem::path& path) {
  RunOutput o;
  o.dir = std::filesystem::is_directory(path) ? path : path.parent_path();
  if (o.dir.empty()) o.dir = ".";
  if (!std::filesystem::exists(path)) throw InputError(path.string() + ": no such file or folder");
  const std::filesystem::path identity_file = o.dir / kRunIdentityFile;
  if (std::filesystem::exists(identity_file)) {
    std::ifstream in(identity_file);
    o.identity = nlohmann::json::parse(in, nullptr, false);
    if (o.identity.is_discarded() || !o.identity.is_object())
      throw InputError(identity_file.string() + ": not a run.json oprig wrote");
  }
  const std::filesystem::path json = o.dir / "results.json", jsonl = o.dir / "results.jsonl";
  try {
    if (std::filesystem::exists(json)) {
      o.results = reports::read_results_file(json);
      // results.json is written last; one from an earlier invocation in this folder is not this run's.
      o.finished = started_at(o.identity).empty() || o.results.environment.started_at == started_at(o.identity);
    }
    if (!o.finished) {
      if (!std::filesystem::exists(jsonl))
        throw InputError(o.dir.string() + ": neither results.json nor results.jsonl: not an oprig run's output folder");
      o.results = reports::read_results_file(jsonl);
      o.results.complete = false;
      o.results.incomplete_reason = "the run did not finish (results.jsonl only)";
      if (o.identity.is_object() && o.identity.contains(kEnvironmentKey)) try {
          o.results.environment = o.identity.at(kEnvironmentKey).get<reports::Environment>();
        } catch (const std::exception& e) {  // a nlohmann::json or a results format error
          throw InputError(identity_file.string() + ": its " + kEnvironmentKey + " is not one oprig wrote (" + e.what() + ")");
        }
    }
  } catch (const reports::ResultsFormatError& e) {
    throw InputError(e.what());
  }
  o.kind = string_at(o.identity, "command");
  if (o.kind.empty()) o.kind = "run";
  o.planned = strings_at(o.identity, "planned_cases");
  if (o.planned.empty())
    for (const reports::CaseResult& c : o.results.cases) o.planned.push_back(c.id);
  o.selected = strings_at(o.identity, kSelectedCasesKey);
  if (o.selected.empty()) o.selected = o.planned;
  if (o.identity.is_object() && o.identity.contains(kShardKey)) {
    o.shard_index = int_at(o.identity.at(kShardKey), "index");
    o.shard_count = int_at(o.identity.at(kShardKey), "count");
    o.shard = std::to_string(o.shard_index) + "/" + std::to_string(o.shard_count);
  }
  return o;
}

nlohmann::json merge_identity(const RunOutput& o) {
  nlohmann::json packages = nlohmann::json::array();
  if (o.identity.is_object() && o.identity.contains("packages") && o.identity.at("packages").is_array())
    for (const auto& p : o.identity.at("packages")) packages.push_back(string_at(p, "sha256"));
  else
    for (const reports::PackageRecord& p : o.results.environment.packages) packages.push_back(p.sha256);
  const auto value = [&](const char* key, nlohmann::json fallback) {
    return o.identity.is_object() && o.identity.contains(key) ? o.identity.at(key) : fallback;
  };
  return {{"command", o.kind},
          {"package_sha256", packages},
          {"selected_cases", o.selected},
          {"inputs_digest", value(kInputsDigestKey, "")},
          {"strict", value("strict", false)},
          {"reference_backend", value("reference_backend", "")},
          {"golden_only", value("golden_only", false)}};
}

std::vector<std::string> merge_identity_differences(const nlohmann::json& a, const nlohmann::json& b) {
  std::vector<std::string> out;
  for (const auto& [key, value] : a.items()) {
    const nlohmann::json other = b.contains(key) ? b.at(key) : nlohmann::json();
    if (value == other) continue;
    if (key == "selected_cases") {
      const std::vector<std::string> x = value.get<std::vector<std::string>>(), y = other.get<std::vector<std::string>>();
      const std::set<std::string> in_x(x.begin(), x.end()), in_y(y.begin(), y.end());
      std::string example;
      for (const std::string& id : x)
        if (!in_y.count(id) && example.empty()) example = ", e.g. " + id + " only in the first";
      for (const std::string& id : y)
        if (!in_x.count(id) && example.empty()) example = ", e.g. " + id + " only in the second";
      out.push_back("selection: " + std::to_string(x.size()) + " cases vs " + std::to_string(y.size()) +
                    (example.empty() ? " (in another order)" : example));
    } else {
      out.push_back(key + ": " + value.dump() + " vs " + other.dump());
    }
  }
  return out;
}

}  // namespace oprig::harness::farm
