// The registry: every backend compiled in, by name, in a fixed order.
// backend_names() is cheap and starts nothing; create_backend may fail with an
// explanation (driver or device absent).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backend.hpp"

namespace oprig {

std::vector<std::string> backend_names();
// Returns nullptr and sets *why when the backend is unknown or its driver is absent.
std::unique_ptr<Backend> create_backend(std::string_view name, std::string* why);
// Probes a backend (creating it) and describes it, available or not.
DeviceInfo describe_backend(std::string_view name);

}  // namespace oprig
