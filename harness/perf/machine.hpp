// Which machine a timing was taken on. Timings, calibrations and nightly
// records compare only within one machine fingerprint: a short hash of the
// facts that change speed (CPU model and signature, logical CPUs, vector
// extensions, and each backend this build has with its device and driver).
// Facts that do not change speed, or that a hypervisor reports unreliably
// (host name, OS release, cache sizes, memory size), are recorded but not hashed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace oprig::perf {

struct BackendIdentity {
  std::string name;  // "cpu", "opencl", ...
  bool available = false;
  std::string device;   // e.g. "AMD EPYC (2 threads)", "pthread-skylake-avx512-AMD EPYC"
  std::string driver;   // e.g. "PoCL 3.1 ...", "Mesa 22.3.6"
};

struct MachineInfo {
  std::string cpu_model;      // /proc/cpuinfo "model name", e.g. "AMD EPYC"
  std::string cpu_signature;  // "AuthenticAMD family 26 model 2 stepping 1": tells Zen 3 from Zen 5
  unsigned logical_cpus = 0;  // usable by this process
  std::string cpu_isa;        // the widest the cpu backend gives kernels: "AVX-512", "AVX2+FMA", "scalar"
  std::vector<std::string> isa_flags;  // the speed-relevant /proc/cpuinfo flags present, sorted
  uint64_t l1d_bytes = 0, l2_bytes = 0, l3_bytes = 0;  // as reported (per core for L1/L2); 0 unknown
  uint64_t memory_bytes = 0;
  std::string os;
  std::string hostname;
  std::vector<BackendIdentity> backends;  // every backend compiled into this oprig, in registry order
  std::string fingerprint;                // compute_fingerprint(*this)
};

// 12 hex digits (FNV-1a 64 over the hashed fields, "oprig-machine/1" first).
std::string compute_fingerprint(const MachineInfo& machine);

// A one-line description: "AMD EPYC (AuthenticAMD family 26 model 2 stepping 1), 2 CPUs, AVX-512".
std::string machine_summary(const MachineInfo& machine);

nlohmann::json machine_to_json(const MachineInfo& machine);
// Throws PerfInputError ("<where>: ...") when a field has the wrong type.
// The stored fingerprint is kept as written (it is what was measured then).
MachineInfo machine_from_json(const nlohmann::json& json, const std::string& where);

// This machine, probing every backend compiled in (creating each: call it once
// per command, never per benchmark). Defined in oprig_perf_measure.
MachineInfo describe_this_machine();

}  // namespace oprig::perf
