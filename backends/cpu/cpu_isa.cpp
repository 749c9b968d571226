#include "cpu/cpu_isa.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace oprig {

oprig_cpu_isa host_cpu_isa() {
#if defined(__x86_64__)
  static const oprig_cpu_isa isa = [] {
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                      __builtin_cpu_supports("f16c");
    if (!avx2) return OPRIG_CPU_ISA_SCALAR;
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    return avx512 ? OPRIG_CPU_ISA_AVX512 : OPRIG_CPU_ISA_AVX2;
  }();
  return isa;
#else
  return OPRIG_CPU_ISA_SCALAR;
#endif
}

std::optional<oprig_cpu_isa> parse_cpu_isa(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "scalar") return OPRIG_CPU_ISA_SCALAR;
  if (lower == "avx2") return OPRIG_CPU_ISA_AVX2;
  if (lower == "avx512") return OPRIG_CPU_ISA_AVX512;
  return std::nullopt;
}

const char* cpu_isa_name(oprig_cpu_isa isa) {
  switch (isa) {
    case OPRIG_CPU_ISA_AVX2: return "AVX2+FMA";
    case OPRIG_CPU_ISA_AVX512: return "AVX-512";
    case OPRIG_CPU_ISA_SCALAR: break;
  }
  return "scalar";
}

oprig_cpu_isa effective_cpu_isa(std::optional<oprig_cpu_isa> requested, std::string* note) {
  note->clear();
  const oprig_cpu_isa host = host_cpu_isa();
  if (!requested) {
    const char* env = std::getenv("OPRIG_CPU_ISA");
    if (env == nullptr || *env == '\0') return host;
    requested = parse_cpu_isa(env);
    if (!requested) {
      *note = std::string("OPRIG_CPU_ISA=") + env + " ignored (expected scalar, avx2 or avx512)";
      return host;
    }
  }
  if (*requested > host) {
    *note = std::string(cpu_isa_name(*requested)) + " asked for, the host has only " + cpu_isa_name(host);
    return host;
  }
  if (*requested < host) *note = std::string("capped from ") + cpu_isa_name(host);
  return *requested;
}

}  // namespace oprig
