// Facts about the machine oprig runs on, for device info and report headers.
#pragma once

#include <string>

namespace oprig {

std::string host_cpu_model();   // "AMD EPYC 7B13" from /proc/cpuinfo, or "unknown CPU"
unsigned host_cpu_count();      // logical CPUs usable by this process
std::string host_os();          // "Linux 6.1.0-... x86_64"
std::string host_name();

}  // namespace oprig
