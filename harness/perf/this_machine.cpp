// describe_this_machine(): /proc/cpuinfo, sysconf and the backend registry.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/host_info.hpp"
#include "cpu/cpu_isa.hpp"
#include "perf/machine.hpp"
#include "registry.hpp"

namespace oprig::perf {
namespace {

// Flags that change what kernels can do or how fast (not every flag: a
// hypervisor toggling an unrelated one must not start a new history).
const std::set<std::string> kSpeedFlags = {
    "sse4_2",       "avx",          "avx2",        "fma",         "f16c",        "avx512f",
    "avx512dq",     "avx512bw",     "avx512vl",    "avx512cd",    "avx512_vnni", "avx512_bf16",
    "avx512_fp16",  "avx512ifma",   "avx512vbmi",  "avx_vnni",    "amx_tile",    "amx_bf16",
    "amx_int8",     "asimd",        "sve",         "sve2"};

std::map<std::string, std::string> first_cpuinfo_block() {
  std::map<std::string, std::string> fields;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) {
      if (!fields.empty()) break;
      continue;
    }
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    const size_t start = line.find_first_not_of(' ', colon + 1);
    fields[key] = start == std::string::npos ? "" : line.substr(start);
  }
  return fields;
}

uint64_t sysconf_bytes(int name) {
  const long v = ::sysconf(name);
  return v > 0 ? static_cast<uint64_t>(v) : 0;
}

}  // namespace

MachineInfo describe_this_machine() {
  MachineInfo m;
  m.cpu_model = host_cpu_model();
  const auto cpuinfo = first_cpuinfo_block();
  auto get = [&cpuinfo](const char* key) {
    const auto it = cpuinfo.find(key);
    return it == cpuinfo.end() ? std::string() : it->second;
  };
  if (!get("vendor_id").empty())
    m.cpu_signature = get("vendor_id") + " family " + get("cpu family") + " model " + get("model") + " stepping " +
                      get("stepping");
  std::istringstream flags(get("flags").empty() ? get("Features") : get("flags"));
  for (std::string flag; flags >> flag;)
    if (kSpeedFlags.count(flag)) m.isa_flags.push_back(flag);
  std::sort(m.isa_flags.begin(), m.isa_flags.end());
  m.logical_cpus = host_cpu_count();
  std::string isa_note;  // a cap by OPRIG_CPU_ISA shows in the cpu backend's driver string, which is hashed
  m.cpu_isa = cpu_isa_name(effective_cpu_isa(std::nullopt, &isa_note));
  m.l1d_bytes = sysconf_bytes(_SC_LEVEL1_DCACHE_SIZE);
  m.l2_bytes = sysconf_bytes(_SC_LEVEL2_CACHE_SIZE);
  m.l3_bytes = sysconf_bytes(_SC_LEVEL3_CACHE_SIZE);
  m.memory_bytes = sysconf_bytes(_SC_PHYS_PAGES) * sysconf_bytes(_SC_PAGESIZE);
  m.os = host_os();
  m.hostname = host_name();
  for (const std::string& name : backend_names()) {
    const DeviceInfo info = describe_backend(name);
    m.backends.push_back({name, info.available, info.device_name, info.driver_version});
  }
  m.fingerprint = compute_fingerprint(m);
  return m;
}

}  // namespace oprig::perf
