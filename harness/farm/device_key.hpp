// Which device a run ran on, from its environment: the backends it used that
// were available, each with its device, vendor, driver and API. Two runs with
// one key ran on the same kind of device (shards on identical nodes share
// it, whatever their host names); runs with different keys are different
// columns of a device matrix.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "reports/results.hpp"

namespace oprig::harness::farm {

std::string device_key(const reports::Environment& environment);

// (what, value) lines that describe the device: host, CPU, and per backend
// its device and driver ("opencl device", "NVIDIA H100 80GB HBM3").
using DeviceFacts = std::vector<std::pair<std::string, std::string>>;
DeviceFacts device_facts(const reports::Environment& environment);

// One short label per device: the facts in which it differs from the others
// (a backend another device lacks counts as differing), joined by " · ";
// "device N" where nothing differs.
std::vector<std::string> device_labels(const std::vector<DeviceFacts>& devices);

}  // namespace oprig::harness::farm
