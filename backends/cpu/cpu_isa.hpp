// Which x86 vector extension the cpu backend lets kernels use: the host's
// widest, or a narrower one named in OPRIG_CPU_ISA so a developer can see, on
// a large machine, what a smaller one computes (as ONEDNN_MAX_CPU_ISA does).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "oprig/oprig_package.h"

namespace oprig {

oprig_cpu_isa host_cpu_isa();

// "scalar", "avx2", "avx512" (any case); nullopt for anything else.
std::optional<oprig_cpu_isa> parse_cpu_isa(std::string_view name);
const char* cpu_isa_name(oprig_cpu_isa isa);  // "scalar", "AVX2+FMA", "AVX-512"

// The ISA kernels get: `requested` if given, else OPRIG_CPU_ISA if set, never
// wider than the host's. *note explains a cap or a bad OPRIG_CPU_ISA value,
// and is empty when the host's own ISA is used.
oprig_cpu_isa effective_cpu_isa(std::optional<oprig_cpu_isa> requested, std::string* note);

}  // namespace oprig
