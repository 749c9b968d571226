#include "runner/run_identity.hpp"

#include <algorithm>

#include "package/loader.hpp"
#include "runner/file_digest.hpp"

namespace oprig::harness {
namespace {

std::string shown(const nlohmann::json& value) {
  if (value.is_null()) return "(none)";
  if (value.is_string()) return value.get<std::string>().empty() ? "(none)" : value.get<std::string>();
  if (value.is_array() && !value.empty() &&
      std::all_of(value.begin(), value.end(), [](const nlohmann::json& v) { return v.is_string(); })) {
    std::string text;
    for (const auto& v : value) text += (text.empty() ? "" : ",") + v.get<std::string>();
    return text;
  }
  return value.dump();
}

// A package entry's field as text; run.json comes from disk, so an entry
// may be no object and a field no string (then its JSON, never an exception).
std::string package_field(const nlohmann::json& entry, const char* key) {
  if (!entry.is_object()) return entry.dump();
  const auto it = entry.find(key);
  if (it == entry.end()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// Keys that follow from the rest (the planned and selected cases, their
// inputs' digest) or describe the machine, not the run (harness/farm/run_farm.hpp).
bool compared(const std::string& key) {
  return key != "planned_cases" && key != "selected_cases" && key != "inputs_digest" && key != "environment";
}

}  // namespace

std::vector<reports::PackageRecord> package_records(const Selection& selection, const Suite& loaded) {
  const std::vector<std::filesystem::path> paths =
      selection.packages.empty() ? std::vector<std::filesystem::path>{default_package_path()} : selection.packages;
  std::vector<reports::PackageRecord> records;
  for (const auto& path : paths) {
    reports::PackageRecord r;
    r.path = std::filesystem::weakly_canonical(std::filesystem::absolute(path)).string();
    r.sha256 = sha256_of_file(path);
    for (const auto& package : loaded.packages)
      if (std::filesystem::weakly_canonical(package->path()).string() == r.path) {
        r.name = package->name();
        r.version = package->version();
      }
    records.push_back(std::move(r));
  }
  return records;
}

nlohmann::json run_identity(const Selection& selection, const std::vector<reports::PackageRecord>& packages,
                            const std::vector<std::string>& planned_case_ids) {
  nlohmann::json package_list = nlohmann::json::array();
  for (const reports::PackageRecord& p : packages) package_list.push_back({{"path", p.path}, {"sha256", p.sha256}});
  std::vector<std::string> golden;
  for (const auto& g : selection.golden_dirs) golden.push_back(g.string());
  const auto absolute = [](const std::filesystem::path& p) { return std::filesystem::absolute(p).string(); };
  nlohmann::json identity = {{"schema", "oprig-run/1"},
          {"spec", selection.spec_file ? absolute(*selection.spec_file) : ""},
          {"suite", selection.spec_file ? "" : absolute(selection.suite_dir ? *selection.suite_dir : default_suite_dir())},
          {"packages", package_list},
          {"backends", selection.backends},
          {"op", selection.op},
          {"case", selection.case_id},
          {"golden", golden},
          {"golden_only", selection.golden_only},
          {"reference_backend", selection.reference_backend},
          {"planned_cases", planned_case_ids}};
  // Only when on, so the run.json of a run from before the option still matches.
  if (selection.strict) identity["strict"] = true;
  if (selection.bundled_reference) identity["bundled_reference"] = true;
  return identity;
}

std::vector<std::string> identity_differences(const nlohmann::json& before, const nlohmann::json& now) {
  std::vector<std::string> out;
  for (const auto& [key, value] : now.items()) {
    if (!compared(key)) continue;
    const nlohmann::json old = before.contains(key) ? before.at(key) : nlohmann::json();
    if (old == value) continue;
    if (key == "packages" && old.is_array() && value.is_array()) {
      // Name the package that changed and how, not two JSON blobs.
      for (size_t i = 0; i < std::max(old.size(), value.size()); ++i) {
        const nlohmann::json a = i < old.size() ? old[i] : nlohmann::json::object();
        const nlohmann::json b = i < value.size() ? value[i] : nlohmann::json::object();
        if (a == b) continue;
        const std::string path_a = package_field(a, "path"), path_b = package_field(b, "path");
        if (path_a != path_b)
          out.push_back("package: " + shown(path_a) + " before, " + shown(path_b) + " now");
        else
          out.push_back("package " + path_b + ": content changed (SHA-256 " + package_field(a, "sha256") +
                        " before, " + package_field(b, "sha256") + " now)");
      }
      continue;
    }
    out.push_back(key + ": " + shown(old) + " before, " + shown(value) + " now");
  }
  for (const auto& [key, value] : before.items())
    if (compared(key) && !now.contains(key))
      out.push_back(key + ": " + shown(value) + " before, " + shown(nlohmann::json()) + " now");
  return out;
}

}  // namespace oprig::harness
