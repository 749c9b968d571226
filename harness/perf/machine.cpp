#include "perf/machine.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "perf/perf_error.hpp"

namespace oprig::perf {
namespace {

uint64_t fnv1a(uint64_t hash, const std::string& text) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  // A field separator that cannot occur inside a field, so ("ab","c") != ("a","bc").
  hash ^= 0x1f;
  hash *= 1099511628211ull;
  return hash;
}

template <typename T>
T field(const nlohmann::json& json, const char* key, const std::string& where, T fallback) {
  if (!json.contains(key)) return fallback;
  const nlohmann::json& value = json.at(key);
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // A float outside T's range would be undefined behaviour in the conversion.
    if (value.is_number_float()) {
      const double d = value.get<double>();
      if (!(d >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
            d < std::ldexp(1.0, std::numeric_limits<T>::digits)))
        throw PerfInputError(where + ": machine field \"" + key + "\" is out of range");
    }
  }
  try {
    return value.get<T>();
  } catch (const nlohmann::json::exception&) {
    throw PerfInputError(where + ": machine field \"" + key + "\" has the wrong type");
  }
}

}  // namespace

std::string compute_fingerprint(const MachineInfo& m) {
  uint64_t hash = 14695981039346656037ull;
  hash = fnv1a(hash, "oprig-machine/1");
  hash = fnv1a(hash, m.cpu_model);
  hash = fnv1a(hash, m.cpu_signature);
  hash = fnv1a(hash, std::to_string(m.logical_cpus));
  for (const std::string& flag : m.isa_flags) hash = fnv1a(hash, flag);
  for (const BackendIdentity& b : m.backends) {
    hash = fnv1a(hash, b.name);
    hash = fnv1a(hash, b.available ? "available" : "unavailable");
    hash = fnv1a(hash, b.device);
    hash = fnv1a(hash, b.driver);
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return std::string(text).substr(0, 12);
}

std::string machine_summary(const MachineInfo& m) {
  std::string s = m.cpu_model;
  if (!m.cpu_signature.empty()) s += " (" + m.cpu_signature + ")";
  s += ", " + std::to_string(m.logical_cpus) + " CPUs";
  if (!m.cpu_isa.empty()) s += ", " + m.cpu_isa;
  return s;
}

nlohmann::json machine_to_json(const MachineInfo& m) {
  nlohmann::json backends = nlohmann::json::array();
  for (const BackendIdentity& b : m.backends)
    backends.push_back({{"name", b.name}, {"available", b.available}, {"device", b.device}, {"driver", b.driver}});
  return {{"fingerprint", m.fingerprint},
          {"cpu_model", m.cpu_model},
          {"cpu_signature", m.cpu_signature},
          {"logical_cpus", m.logical_cpus},
          {"cpu_isa", m.cpu_isa},
          {"isa_flags", m.isa_flags},
          {"l1d_bytes", m.l1d_bytes},
          {"l2_bytes", m.l2_bytes},
          {"l3_bytes", m.l3_bytes},
          {"memory_bytes", m.memory_bytes},
          {"os", m.os},
          {"hostname", m.hostname},
          {"backends", backends}};
}

MachineInfo machine_from_json(const nlohmann::json& json, const std::string& where) {
  if (!json.is_object()) throw PerfInputError(where + ": \"machine\" is not an object");
  MachineInfo m;
  m.fingerprint = field<std::string>(json, "fingerprint", where, "");
  if (m.fingerprint.empty()) throw PerfInputError(where + ": the machine has no \"fingerprint\"");
  m.cpu_model = field<std::string>(json, "cpu_model", where, "");
  m.cpu_signature = field<std::string>(json, "cpu_signature", where, "");
  m.logical_cpus = field<unsigned>(json, "logical_cpus", where, 0);
  m.cpu_isa = field<std::string>(json, "cpu_isa", where, "");
  m.isa_flags = field<std::vector<std::string>>(json, "isa_flags", where, {});
  m.l1d_bytes = field<uint64_t>(json, "l1d_bytes", where, 0);
  m.l2_bytes = field<uint64_t>(json, "l2_bytes", where, 0);
  m.l3_bytes = field<uint64_t>(json, "l3_bytes", where, 0);
  m.memory_bytes = field<uint64_t>(json, "memory_bytes", where, 0);
  m.os = field<std::string>(json, "os", where, "");
  m.hostname = field<std::string>(json, "hostname", where, "");
  if (json.contains("backends")) {
    if (!json["backends"].is_array()) throw PerfInputError(where + ": machine \"backends\" is not an array");
    for (const nlohmann::json& b : json["backends"]) {
      if (!b.is_object()) throw PerfInputError(where + ": a machine backend is not an object");
      m.backends.push_back({field<std::string>(b, "name", where, ""), field<bool>(b, "available", where, false),
                            field<std::string>(b, "device", where, ""), field<std::string>(b, "driver", where, "")});
    }
  }
  return m;
}

}  // namespace oprig::perf
