#include "backend.hpp"

#include <array>
#include <utility>

namespace oprig {
namespace {

constexpr std::array<std::pair<std::string_view, oprig_backend_kind>, 4> kKinds = {{
    {"cpu", OPRIG_BACKEND_CPU},
    {"opencl", OPRIG_BACKEND_OPENCL},
    {"vulkan", OPRIG_BACKEND_VULKAN},
    {"dsp", OPRIG_BACKEND_DSP},
}};

}  // namespace

oprig_backend_kind backend_kind_from_name(std::string_view name) {
  for (const auto& [n, kind] : kKinds)
    if (n == name) return kind;
  return static_cast<oprig_backend_kind>(0);
}

std::string_view backend_name(oprig_backend_kind kind) {
  for (const auto& [n, k] : kKinds)
    if (k == kind) return n;
  return "unknown";
}

}  // namespace oprig
