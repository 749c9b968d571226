#include "farm/device_key.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace oprig::harness::farm {

std::string device_key(const reports::Environment& environment) {
  std::string key;
  for (const reports::BackendRecord& b : environment.backends)
    if (b.available)
      key += b.name + "|" + b.device + "|" + b.vendor + "|" + b.driver_version + "|" + b.api_version + "\n";
  // No backend was available: the machine is all there is to tell runs apart.
  return key.empty() ? "cpu model|" + environment.cpu_model + "\nhost|" + environment.hostname : key;
}

DeviceFacts device_facts(const reports::Environment& environment) {
  DeviceFacts facts{{"host", environment.hostname}, {"CPU", environment.cpu_model}};
  for (const reports::BackendRecord& b : environment.backends) {
    if (!b.available) continue;
    facts.emplace_back(b.name + " device", b.device + (b.vendor.empty() || b.vendor == "host" ? "" : " (" + b.vendor + ")"));
    facts.emplace_back(b.name + " driver", b.driver_version + (b.api_version.empty() ? "" : ", " + b.api_version));
  }
  return facts;
}

std::vector<std::string> device_labels(const std::vector<DeviceFacts>& devices) {
  // A fact differs when some device lacks it or gives it another value.
  std::map<std::string, std::set<std::string>> values;
  std::map<std::string, size_t> holders;
  for (const DeviceFacts& facts : devices)
    for (const auto& [what, value] : facts) {
      values[what].insert(value);
      ++holders[what];
    }
  auto differs = [&](const std::string& what) {
    return values[what].size() > 1 || holders[what] != devices.size();
  };
  // The first tier of facts that tells devices apart names them: the backends'
  // devices, else their drivers, else the machine.
  auto tier_of = [](const std::string& what) {
    if (what.ends_with(" device")) return 0;
    if (what.ends_with(" driver")) return 1;
    return 2;
  };
  int tier = 3;
  for (const auto& [what, set] : values)
    if (differs(what)) tier = std::min(tier, tier_of(what));
  std::vector<std::string> labels;
  for (size_t i = 0; i < devices.size(); ++i) {
    std::string label;
    for (const auto& [what, value] : devices[i])
      if (tier_of(what) == tier && differs(what))
        label += (label.empty() ? "" : " \xC2\xB7 ") + what + ": " + value;
    labels.push_back(label.empty() ? "device " + std::to_string(i + 1) : label);
  }
  return labels;
}

}  // namespace oprig::harness::farm
